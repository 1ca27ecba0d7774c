#!/usr/bin/env bash
# Output matching throughput: about 1 GiB of log lines written to stderr by
# the command, through retry under three --retry-if rules, against the same
# bytes through cat (producer | cat > /dev/null). Prints throughput and
# retry's peak RSS (GNU time -v). Usage: bench/matcher.sh [MiB] [runs]
set -euo pipefail
cd "$(dirname "$0")/.."

mib=${1:-1024}
runs=${2:-5}
command -v /usr/bin/time >/dev/null || { echo "needs GNU time: apt-get install time" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/retry" .

# One MiB of varied log lines, repeated: none matches the rules below.
awk 'BEGIN {
  n = 0
  while (n < 1048576) {
    if (NR % 50 == 0) l = "    at com.example.service.Handler.process(Handler.java:123) caused by upstream latency"
    else l = sprintf("2026-11-30T07:00:%02d.%03dZ INFO request id=%d path=/api/v1/items/%d status=200 bytes=%d took=%dms", NR % 60, NR % 1000, NR, NR * 7, NR * 13 % 9000, NR % 97)
    NR++
    if (n + length(l) + 1 > 1048576) break
    print l; n += length(l) + 1
  }
}' >"$work/chunk"
for _ in $(seq "$mib"); do cat "$work/chunk"; done >"$work/data"
bytes=$(wc -c <"$work/data")

rules=(--retry-if 'connection refused' --retry-if '(?i)timed out' --retry-if 'HTTP/[0-9.]+ 50[234] ')
exact=(--retry-if 'connection refused' --retry-if 'timed out' --retry-if 'HTTP/[0-9.]+ 50[234] ')

# measure N COMMAND...: time COMMAND once; keep the fastest run of case N.
declare -a name best_s best_cpu best_rss
measure() {
  local n=$1; shift
  /usr/bin/time -v -o "$work/time" "$@"
  local s cpu rss
  s=$(awk -F': ' '/Elapsed \(wall clock\)/ { k = split($2, p, ":"); t = 0; for (i = 1; i <= k; i++) t = t * 60 + p[i]; print t }' "$work/time")
  cpu=$(awk -F': ' '/User time|System time/ { t += $2 } END { print t }' "$work/time")
  rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$work/time")
  if [ -z "${best_s[$n]:-}" ] || awk -v a="$s" -v b="${best_s[$n]}" 'BEGIN { exit !(a < b) }'; then
    best_s[$n]=$s best_cpu[$n]=$cpu best_rss[$n]=$rss
  fi
}

name=("cat (producer | cat > /dev/null)" "retry, three --retry-if rules" "retry, the same without (?i)" "retry, no rules, --no-hints (no pipe)")
# The cases take turns, so that a burst of load elsewhere hits them alike.
for _ in $(seq "$runs"); do
  measure 0 sh -c 'cat "$1" | cat >/dev/null' sh "$work/data"
  measure 1 "$work/retry" -a 1 "${rules[@]}" -- sh -c 'cat "$1" >&2' sh "$work/data" 2>/dev/null
  measure 2 "$work/retry" -a 1 "${exact[@]}" -- sh -c 'cat "$1" >&2' sh "$work/data" 2>/dev/null
  measure 3 "$work/retry" -a 1 --no-hints -- sh -c 'cat "$1" >&2' sh "$work/data" 2>/dev/null
done

echo "$((bytes / 1048576)) MiB of log lines through stderr, best of $runs; $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
echo "(CPU: user+system of every process of the run, the producing cat included)"
for n in 0 1 2 3; do
  awk -v name="${name[$n]}" -v b="$bytes" -v s="${best_s[$n]}" -v rss="${best_rss[$n]}" -v cpu="${best_cpu[$n]}" -v cat="${best_s[0]}" \
    'BEGIN { printf "%-38s %6.2f s %6.0f MiB/s %4.0f%% of cat %6.2f s CPU %6.1f MiB peak RSS\n", name, s, b / s / 1048576, 100 * cat / s, cpu, rss / 1024 }'
done
