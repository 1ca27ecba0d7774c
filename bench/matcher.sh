#!/usr/bin/env bash
# Output matching throughput. Three corpora (ordinary log lines, real build
# output, random base64 text), each of MiB mebibytes, and on request a
# fourth (mixed: 4 MiB of each of the three in turn, as a job's output
# changes kind from one step to the next), written by cat to
# stderr through retry under each rule set (none but the default hint, three
# --retry-if rules, each preset alone, all presets at once), piped to a
# second cat: `retry -a 1 RULES -- sh -c 'cat FILE >&2' 2>&1 >/dev/null | cat
# >/dev/null`, against `cat FILE | cat >/dev/null` on the same bytes in the
# same rounds. (retry's stdout goes elsewhere than its stderr, as in a CI
# log that keeps stderr: with both on one pipe the default hint reads
# nothing, and the "none" row would measure no matching at all.)
# Prints the best of RUNS of each case, its share of cat's throughput, the
# peak RSS and the least CPU time of the whole pipeline (GNU time -v). The corpora live in a temporary directory under
# $TMPDIR (default /tmp), removed at exit.
# Usage: bench/matcher.sh [MiB] [runs] [corpus...]   (default 256 5 log build base64;
#   the corpora are log, build, base64 and mixed)
#   RETRY=BINARY measures BINARY instead of a build of the work tree.
#   BASE=BINARY measures BINARY too, in the same rounds, on rows of its own.
#   SETS=REGEXP measures only the rule sets whose name matches REGEXP
#   (grep -E), as SETS='^all' for all presets at once.
set -euo pipefail
cd "$(dirname "$0")/.."

mib=${1:-256}
runs=${2:-5}
shift $(($# < 2 ? $# : 2))
corpora=("$@")
[ ${#corpora[@]} -gt 0 ] || corpora=(log build base64)
command -v /usr/bin/time >/dev/null || { echo "needs GNU time: apt-get install time" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/retry-matcher.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ -n "${RETRY:-}" ]; then cp "$RETRY" "$work/retry"; else go build -o "$work/retry" .; fi
retry=$work/retry
builds=(retry)
if [ -n "${BASE:-}" ]; then cp "$BASE" "$work/base"; builds+=(base); fi

# repeat CHUNK OUT: CHUNK repeated to mib MiB in OUT.
repeat() {
  local size=$(($(wc -c <"$1"))) want=$((mib << 20))
  for _ in $(seq $((want / size + 1))); do cat "$1"; done | head -c "$want" >"$2" || true # SIGPIPE
  rm -f "$1"
}

make_log() {
  # One MiB of varied log lines: none matches a rule below.
  awk 'BEGIN {
    n = 0
    while (n < 1048576) {
      if (NR % 50 == 0) l = "    at com.example.service.Handler.process(Handler.java:123) caused by upstream latency"
      else if (NR % 7 == 0) l = sprintf("2026-11-30T07:00:%02d.%03dZ WARN cache miss key=user:%d:profile backend=redis-%d retries=0", NR % 60, NR % 1000, NR * 31, NR % 5)
      else l = sprintf("2026-11-30T07:00:%02d.%03dZ INFO request id=%d path=/api/v1/items/%d status=200 bytes=%d took=%dms", NR % 60, NR % 1000, NR, NR * 7, NR * 13 % 9000, NR % 97)
      NR++
      if (n + length(l) + 1 > 1048576) break
      print l; n += length(l) + 1
    }
  }' >"$work/chunk"
  repeat "$work/chunk" "$1"
}

make_build() {
  # What the go command prints building this module and all it imports
  # from scratch (-a -n -x: every command of the build), then the verbose
  # output of testing a few of its packages; lines that a rule below would
  # match are left out, so that every case reads the whole corpus.
  local cache
  cache=$(mktemp -d "$work/gocache.XXXXXX")
  { GOCACHE=$cache go build -a -n -x -v ./... 2>&1
    go test -count=1 -v ./runner/backoff/ ./runner/budget/ ./exitcodes/ ./runner/classify/ ./runner/match/ 2>&1
  } | grep -Eiv 'timed? ?out|retry-after|connection|refused|http/|not found|denied|failed|error|unable|EOF|lock' >"$work/chunk" || true
  rm -rf "$cache"
  repeat "$work/chunk" "$1"
}

make_base64() {
  head -c $(((mib << 20) * 3 / 4 + 4096)) /dev/urandom | base64 -w 76 | head -c $((mib << 20)) >"$1" || true
}

make_mixed() {
  # 4 MiB of log lines, of build output and of base64 in turn.
  local whole=$mib block=4 k i
  mib=$(((whole + 2) / 3 + block))
  for k in log build base64; do "make_$k" "$work/mixed.$k"; done
  for ((i = 0; i < mib - block; i += block)); do
    for k in log build base64; do tail -c +$(((i << 20) + 1)) "$work/mixed.$k" | head -c $((block << 20)) || true; done
  done | head -c $((whole << 20)) >"$1" || true
  rm -f "$work"/mixed.*
  mib=$whole
}

mapfile -t presets < <("$retry" presets | sed -n 's/^\([a-z0-9-]*\): .*/\1/p')
all=()
for p in "${presets[@]}"; do all+=(--preset "$p"); done

# The rule sets: a name, then retry's arguments (one word each, split on
# tabs).
sets=("none (default hint)	")
sets+=("three --retry-if	--retry-if	connection refused	--retry-if	(?i)timed? ?out	--retry-if	HTTP/[0-9.]+ 50[234] ")
for p in "${presets[@]}"; do sets+=("--preset $p	--preset	$p"); done
sets+=("all ${#presets[@]} presets	$(IFS=$'\t'; echo "${all[*]}")")
if [ -n "${SETS:-}" ]; then
  kept=()
  for set in "${sets[@]}"; do
    if grep -Eq -- "$SETS" <<<"${set%%	*}"; then kept+=("$set"); fi
  done
  [ ${#kept[@]} -gt 0 ] || { echo "SETS=$SETS matches no rule set" >&2; exit 1; }
  sets=("${kept[@]}")
fi

# args N: the arguments of rule set N, in the array a.
args() {
  local IFS=$'\t'
  read -r -a a <<<"${sets[$1]}"
  a=("${a[@]:1}")
}

declare -A best_s best_rss best_cpu
# measure KEY COMMAND...: run COMMAND once under GNU time; keep KEY's fastest,
# and its least CPU time (user and system, the whole pipeline's).
measure() {
  local key=$1; shift
  local t0=$EPOCHREALTIME
  /usr/bin/time -v -o "$work/time" "$@"
  local s rss cpu t1=$EPOCHREALTIME
  s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
  rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$work/time")
  cpu=$(awk -F': ' '/(User|System) time/ { t += $2 } END { printf "%.3f", t }' "$work/time")
  if [ -z "${best_s[$key]:-}" ] || awk -v a="$s" -v b="${best_s[$key]}" 'BEGIN { exit !(a < b) }'; then
    best_s[$key]=$s best_rss[$key]=$rss
  fi
  if [ -z "${best_cpu[$key]:-}" ] || awk -v a="$cpu" -v b="${best_cpu[$key]}" 'BEGIN { exit !(a < b) }'; then
    best_cpu[$key]=$cpu
  fi
}

echo "$(nproc) cores; load average at the start: $(cut -d' ' -f1-3 /proc/loadavg); $mib MiB per corpus, best of $runs"
for corpus in "${corpora[@]}"; do
  data=$work/$corpus
  "make_$corpus" "$data"
  # No rule may match: a matched rule stops the search and flatters it.
  for n in "${!sets[@]}"; do
    args "$n"
    "$retry" -a 1 -q --summary-file "$work/report" "${a[@]}" -- sh -c 'cat "$1" >&2; exit 1' sh "$data" 2>/dev/null || true
    if grep -q '"reason": "std[a-z]* matched' "$work/report"; then
      echo "$corpus: rule set ${sets[$n]%%	*} matched: $(grep -o '"reason": "[^"]*' "$work/report")" >&2
      exit 1
    fi
  done
  # The cases take turns, so that a burst of load elsewhere hits them alike.
  for _ in $(seq "$runs"); do
    measure "$corpus cat" sh -c 'cat "$1" | cat >/dev/null' sh "$data"
    for n in "${!sets[@]}"; do
      args "$n"
      for b in "${builds[@]}"; do
        measure "$corpus $n $b" sh -c '"$@" 2>&1 >/dev/null | cat >/dev/null' sh "$work/$b" -a 1 "${a[@]}" -- sh -c 'cat "$1" >&2' sh "$data"
      done
    done
  done
  bytes=$(wc -c <"$data")
  echo
  echo "$corpus: $((bytes >> 20)) MiB; load average now $(cut -d' ' -f1 /proc/loadavg)"
  printf '%-26s %8s %10s %8s %10s %8s\n' "rule set" wall MiB/s "of cat" "peak RSS" CPU
  report() {
    awk -v name="$1" -v b="$bytes" -v s="$2" -v rss="$3" -v cpu="$4" -v cat="${best_s[$corpus cat]}" \
      'BEGIN { printf "%-26s %6.3f s %10.0f %7.2fx %6.1f MiB %6.3f s\n", name, s, b / s / 1048576, cat / s, rss / 1024, cpu }'
  }
  report "cat | cat" "${best_s[$corpus cat]}" "${best_rss[$corpus cat]}" "${best_cpu[$corpus cat]}"
  for n in "${!sets[@]}"; do
    report "${sets[$n]%%	*}" "${best_s[$corpus $n retry]}" "${best_rss[$corpus $n retry]}" "${best_cpu[$corpus $n retry]}"
    if [ -n "${BASE:-}" ]; then
      report "  (BASE)" "${best_s[$corpus $n base]}" "${best_rss[$corpus $n base]}" "${best_cpu[$corpus $n base]}"
    fi
  done
  rm -f "$data"
done
