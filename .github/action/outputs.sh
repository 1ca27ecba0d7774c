# Writes the step's outputs from retry's JSON report and ends the step;
# sourced by run.sh after retry has exited with status.
# shellcheck shell=bash
#
# The report is read with jq, which GitHub's runners for Linux, macOS and
# Windows all have, or else with Python: both are JSON parsers, where the
# log's text is for people and may change. The step's own result never
# depends on them: it is retry's exit status.

# The outcome, the attempts made, the exit status and, when the step
# failed, why: one "key=value" line each.
read -r -d '' jq_program <<'EOF'
def attempts($n): "\($n) attempt\(if $n == 1 then "" else "s" end)";
# The last attempt's exit status, as nick-fields/retry has it, where retry's
# own may be --flaky-exit's or --exhausted-exit's: 124 for a timeout, 1 for
# an exit 0 that --fail-if failed, 128+N for a signal.
def code($last):
  if .outcome == "succeeded" then 0
  elif (.outcome == "exhausted" or .outcome == "budget") and $last != null
    and ($last.timed_out | not) and $last.signal == null and $last.exit_code != null
  then (if $last.exit_code == 0 then 1 else $last.exit_code end)
  else .exit_code end;
def result: if .timed_out then "timed out" elif .signal then "killed by \(.signal)" else "exit \(.exit_code)" end;
(.attempts_total // (.attempts | length)) as $n
| (.attempts | last) as $last
| ({exhausted: "gave up after", permanent: "stopped by a permanent failure after",
    deadline: "ran out of time after", cancelled: "cancelled after",
    budget: "stopped by the retry budget after"}[.outcome] // "\(.outcome) after") as $what
| "outcome=\(.outcome)",
  "total_attempts=\($n)",
  "exit_code=\(code($last))",
  "flaky=\(.flaky // (.outcome == "succeeded" and $n > 1))",
  "exit_error=" + (
    if $last == null then "\(.outcome) before any attempt: exit \(.exit_code)"
    elif .outcome == "succeeded" then "passed on attempt \($last.attempt) after a failed attempt (flaky_exit): exit \(.exit_code)"
    elif .outcome == "failed" then "run \($last.attempt) failed: \($last | result) (\($last.reason))"
    elif .outcome == "cancelled" then "\($what) \(attempts($n)): \($last | result)"
    else "\($what) \(attempts($n)): \($last | result) (\($last.reason))"
    end | gsub("[\r\n]+"; " "))
EOF

read -r -d '' python_program <<'EOF'
import json, re, sys
r = json.load(open(sys.argv[1], encoding="utf-8"))
n = r.get("attempts_total", len(r["attempts"]))
last = r["attempts"][-1] if r["attempts"] else None
what = {"exhausted": "gave up after", "permanent": "stopped by a permanent failure after",
        "deadline": "ran out of time after", "cancelled": "cancelled after",
        "budget": "stopped by the retry budget after"}.get(r["outcome"], r["outcome"] + " after")
def result(a):
    if a.get("timed_out"):
        return "timed out"
    if a.get("signal"):
        return "killed by " + a["signal"]
    return "exit %d" % a["exit_code"]
if last is None:
    error = "%s before any attempt: exit %d" % (r["outcome"], r["exit_code"])
elif r["outcome"] == "succeeded":
    error = "passed on attempt %d after a failed attempt (flaky_exit): exit %d" % (last["attempt"], r["exit_code"])
elif r["outcome"] == "cancelled":
    error = "%s %d attempt%s: %s" % (what, n, "" if n == 1 else "s", result(last))
elif r["outcome"] == "failed":
    error = "run %d failed: %s (%s)" % (last["attempt"], result(last), last["reason"])
else:
    error = "%s %d attempt%s: %s (%s)" % (what, n, "" if n == 1 else "s", result(last), last["reason"])
code = r["exit_code"]
if r["outcome"] == "succeeded":
    code = 0
elif (r["outcome"] in ("exhausted", "budget") and last is not None and not last.get("timed_out")
      and not last.get("signal") and last.get("exit_code") is not None):
    code = last["exit_code"] or 1
flaky = r.get("flaky", r["outcome"] == "succeeded" and n > 1)
out = "outcome=%s\ntotal_attempts=%d\nexit_code=%d\nflaky=%s\nexit_error=%s\n" % (
    r["outcome"], n, code, "true" if flaky else "false", re.sub(r"[\r\n]+", " ", error))
sys.stdout.buffer.write(out.encode("utf-8"))
EOF

# find_python prints the first Python that runs (Windows has a python3 that only
# points to the Microsoft Store).
find_python() {
  local name
  for name in python3 python; do
    if command -v "$name" >/dev/null 2>&1 && "$name" -c '' >/dev/null 2>&1 </dev/null; then
      echo "$name"
      return
    fi
  done
  return 1
}

# hand_on NAME FILE appends the last attempt's FILE to the job's file that
# the variable NAME names, ending its last line.
hand_on() {
  [ -n "${!1:-}" ] && [ -s "$2" ] || return 0
  { cat "$2" && if [ -n "$(tail -c 1 "$2")" ]; then echo; fi; } >>"${!1}" ||
    annotate warning "could not add the command's $1 to the job's"
}

# json_string VALUE prints VALUE as a JSON string. The replacements are
# quoted variables, which bash 3.2 and 5.2 (whose patsub_replacement reads
# & in an unquoted one) both insert as they are.
json_string() {
  local s=$1 i c u bs='\' q='"'
  s=${s//"$bs"/"$bs$bs"}
  s=${s//"$q"/"$bs$q"}
  s=${s//$'\n'/"${bs}n"}
  s=${s//$'\r'/"${bs}r"}
  s=${s//$'\t'/"${bs}t"}
  case $s in
    *[[:cntrl:]]*)
      for ((i = 1; i < 32; i++)); do
        printf -v c "\\$(printf '%03o' "$i")"
        printf -v u '%su%04x' "$bs" "$i"
        s=${s//"$c"/"$u"}
      done ;;
  esac
  printf '"%s"' "$s"
}

# step_outputs FILE prints the outputs set in FILE, a GITHUB_OUTPUT file,
# as a JSON object. FILE has NAME=VALUE lines and NAME<<DELIMITER blocks,
# read as the runner reads them (the first of = and << decides), the last
# value of a name winning:
# https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands#setting-an-output-parameter
# https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands#multiline-strings
step_outputs() {
  local line name value delim found first i n=0 json='' sep=''
  local -a names values
  while IFS= read -r line || [ -n "$line" ]; do
    line=${line%$'\r'}
    [ -n "$line" ] || continue
    name=${line%%=*}
    delim=${line%%<<*}
    if [[ $line == *=* ]] && [ "${#name}" -lt "${#delim}" ]; then
      value=${line#*=}
    elif [[ $line == *"<<"* ]]; then
      name=${line%%<<*}
      delim=${line#*<<}
      value=''
      found=false
      first=true
      while IFS= read -r line || [ -n "$line" ]; do
        line=${line%$'\r'}
        if [ "$line" = "$delim" ]; then found=true; break; fi
        if [ "$first" = true ]; then value=$line; else value+=$'\n'$line; fi
        first=false
      done
      if [ "$found" != true ]; then
        annotate warning "the command's GITHUB_OUTPUT has no line $delim to end the output $name, which the outputs output leaves out"
        break
      fi
    else
      name=''
    fi
    if [ -z "$name" ]; then
      annotate warning "the command's GITHUB_OUTPUT has a line that sets no output, which the outputs output leaves out: $line"
      continue
    fi
    for ((i = 0; i < n; i++)); do
      [ "${names[i]}" != "$name" ] || break
    done
    names[i]=$name
    values[i]=$value
    [ "$i" -lt "$n" ] || n=$((n + 1))
  done <"$1"
  for ((i = 0; i < n; i++)); do
    json+=$sep$(json_string "${names[i]}"):$(json_string "${values[i]}")
    sep=,
  done
  printf '{%s}' "$json"
}

# The files of the command's last attempt, the one with the highest number.
last=''
for attempt_dir in "$dir"/files/*; do
  n=${attempt_dir##*/}
  [[ $n =~ ^[0-9]+$ ]] || continue
  if [ -z "$last" ] || [ "$n" -gt "${last##*/}" ]; then last=$attempt_dir; fi
done
if [ -n "$last" ]; then
  hand_on GITHUB_ENV "$last/env"
  hand_on GITHUB_PATH "$last/path"
  hand_on GITHUB_STEP_SUMMARY "$last/step_summary"
  output outputs "$(step_outputs "$last/output")"
else
  output outputs '{}'
fi
rm -rf "$dir/files"

exit_error="retry exited $status and wrote no report"
fields=
output report "$(native "$report")"
if [ -s "$report" ]; then
  if command -v jq >/dev/null 2>&1; then
    fields=$(jq -r "$jq_program" "$report")
  elif py=$(find_python); then
    fields=$("$py" -c "$python_program" "$report")
  else
    annotate warning "neither jq nor Python is on PATH: the outputs outcome, total_attempts and exit_error need one to read the report"
    exit_error="retry exited $status; the report says why: $(native "$report")"
  fi
  while IFS= read -r line; do
    line=${line%$'\r'}
    case $line in
      exit_error=*) exit_error=${line#exit_error=} ;;
      ?*) output "${line%%=*}" "${line#*=}" ;;
    esac
  done <<<"$fields"
fi
case $fields in *exit_code=*) ;; *) output exit_code "$status" ;; esac

if [ "$status" -eq 0 ]; then
  exit 0
fi
output exit_error "$exit_error"
if [ "$continue_on_error" = true ]; then
  annotate warning "$exit_error"
  exit 0
fi
annotate error "$exit_error"
exit "$status"
