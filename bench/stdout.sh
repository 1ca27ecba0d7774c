#!/usr/bin/env bash
# --stdout final throughput: the attempt that streams writes 1 GiB, which
# retry holds in a private temporary file and writes out when no other
# attempt starts. Against the same bytes through a pipe into cat, which
# writes them to a file that is then removed (the reference: what holding
# them costs at the least), and, when BASE names a commit, against retry built at BASE
# (before retry held the output itself, the attempt wrote straight into
# the file). Each retry case writes its output out twice: to /dev/null
# (the attempt that streams alone: sendfile(2) makes that write-out cost
# nothing) and to a file (the whole operation: one more copy). Prints
# wall time, throughput and peak RSS (GNU time -v), best of several runs.
# Usage: [BASE=commit] bench/stdout.sh [MiB] [runs]
set -euo pipefail
cd "$(dirname "$0")/.."

mib=${1:-1024}
runs=${2:-3}
command -v /usr/bin/time >/dev/null || { echo "needs GNU time: apt-get install time" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/retry" .
if [ -n "${BASE:-}" ]; then
  mkdir "$work/base"
  git archive "$BASE" | tar -x -C "$work/base"
  (cd "$work/base" && go build -o "$work/retry-base" .)
fi
bytes=$((mib * 1048576))
export TMPDIR="$work" # the held files go here; checked empty at the end
produce="dd if=/dev/zero bs=1M count=$mib status=none"

# run NAME OUT COMMAND...: time COMMAND runs times, its stdout to OUT (a
# file is removed before each run, outside the timing); print the best.
run() {
  local name=$1 out=$2; shift 2
  local best_s="" best_rss=""
  for _ in $(seq "$runs"); do
    rm -f "$work/held" "$work/out"
    /usr/bin/time -v -o "$work/time" "$@" >"$out"
    local s rss
    s=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); t = 0; for (i = 1; i <= n; i++) t = t * 60 + p[i]; print t }' "$work/time")
    rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$work/time")
    if [ -z "$best_s" ] || awk -v a="$s" -v b="$best_s" 'BEGIN { exit !(a < b) }'; then best_s=$s; best_rss=$rss; fi
  done
  rm -f "$work/held" "$work/out"
  awk -v name="$name" -v b="$bytes" -v s="$best_s" -v rss="$best_rss" \
    'BEGIN { printf "%-58s %6.2f s %7.0f MiB/s %7.1f MiB peak RSS\n", name, s, b / s / 1048576, rss / 1024 }'
}

echo "$mib MiB written by the attempt, best of $runs, $(nproc) cores"
# cat's file is removed in the timing too: retry's held file is.
run "cat (producer | cat >file; rm file)" /dev/null sh -c "$produce | cat >$work/held; rm $work/held"
for out in /dev/null "$work/out"; do
  to=${out/#$work/\$TMPDIR}
  run "retry --stdout final, out to $to" "$out" "$work/retry" -a 1 --stdout final -- sh -c "$produce"
  if [ -n "${BASE:-}" ]; then
    run "retry at $BASE --stdout final, out to $to" "$out" "$work/retry-base" -a 1 --stdout final -- sh -c "$produce"
  fi
done
if [ -n "$(ls -A "$work" | grep -v -e '^retry$' -e '^retry-base$' -e '^base$' -e '^time$')" ]; then
  echo "left behind in TMPDIR:" >&2; ls -la "$work" >&2; exit 1
fi
