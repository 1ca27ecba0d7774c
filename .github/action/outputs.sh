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
def result: if .timed_out then "timed out" elif .signal then "killed by \(.signal)" else "exit \(.exit_code)" end;
(.attempts_total // (.attempts | length)) as $n
| (.attempts | last) as $last
| ({exhausted: "gave up after", permanent: "stopped by a permanent failure after",
    deadline: "ran out of time after", cancelled: "cancelled after",
    budget: "stopped by the retry budget after"}[.outcome] // "\(.outcome) after") as $what
| "outcome=\(.outcome)",
  "total_attempts=\($n)",
  "exit_code=\(.exit_code)",
  "exit_error=" + (
    if $last == null then "\(.outcome) before any attempt: exit \(.exit_code)"
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
elif r["outcome"] == "cancelled":
    error = "%s %d attempt%s: %s" % (what, n, "" if n == 1 else "s", result(last))
elif r["outcome"] == "failed":
    error = "run %d failed: %s (%s)" % (last["attempt"], result(last), last["reason"])
else:
    error = "%s %d attempt%s: %s (%s)" % (what, n, "" if n == 1 else "s", result(last), last["reason"])
out = "outcome=%s\ntotal_attempts=%d\nexit_code=%d\nexit_error=%s\n" % (r["outcome"], n, r["exit_code"], re.sub(r"[\r\n]+", " ", error))
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
