#!/usr/bin/env bash
# attempts.sh measures a run of many attempts: `retry -a N --delay 1ms
# --max-delay 0 --summary-file R -- false` (every attempt fails, no wait
# between them, a progress line each to /dev/null, the report at the end)
# at each N, against a shell loop that runs the same command N times in the
# same round. It prints, for each: wall time, time per attempt, peak RSS
# (GNU time -v; the shell's own), and retry's own time per attempt (what it
# adds to the loop's). From retry's report it also prints the time per
# attempt of the first 100 attempts and of the last 100, which are the
# same when nothing grows with the attempts.
# The goals (docs/dev/performance.md, "Many attempts"): peak RSS
# under 16 MiB at any N, and under 1 ms of retry's own time per attempt.
#
# Usage: bench/attempts.sh [N...]   (default: 1000 10000 100000)
# Knobs (environment): RUNS=1, runs of each command per N (the best is
# kept). retry is the release build (.goreleaser.yaml: CGO_ENABLED=0,
# -ldflags '-s -w'). Tools: go, /usr/bin/time (Debian package `time`).
set -euo pipefail

RUNS=${RUNS:-1}
GNU_TIME=/usr/bin/time
[[ -x $GNU_TIME ]] || { echo "attempts.sh: needs GNU time: apt-get install time" >&2; exit 1; }
sizes=("$@")
((${#sizes[@]})) || sizes=(1000 10000 100000)

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/retry-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o "$tmp/retry" .)
false_bin=$(type -P false)

# measure NAME N COMMAND...: runs COMMAND RUNS times and prints the best
# wall time in seconds and its peak RSS in KiB. Its exit status is not
# checked: every attempt fails.
measure() {
	local best_s="" best_rss="" s rss
	for ((i = 0; i < RUNS; i++)); do
		"$GNU_TIME" -v -o "$tmp/time" "$@" 2>/dev/null || true
		s=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); t = 0; for (i = 1; i <= n; i++) t = t * 60 + p[i]; print t }' "$tmp/time")
		rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$tmp/time")
		if [[ -z $best_s ]] || awk -v a="$s" -v b="$best_s" 'BEGIN { exit !(a < b) }'; then best_s=$s best_rss=$rss; fi
	done
	echo "$best_s $best_rss"
}

# spacing prints the mean time per attempt, in ms, of the first and of the
# last attempts the report lists, from their started_at (milliseconds).
spacing() {
	awk -F'"' '/"started_at":/ {
		split(substr($4, 12, 12), t, ":"); v[++n] = t[1] * 3600 + t[2] * 60 + t[3]
		if (n > 1 && v[n] < v[n - 1]) v[n] += 86400 # past midnight
	} END {
		if (n < 4) { print "- -"; exit }
		h = int(n / 2)
		printf "%.3f %.3f\n", (v[h] - v[1]) * 1000 / (h - 1), (v[n] - v[h + 1]) * 1000 / (n - h - 1)
	}' "$1"
}

echo "# machine: $(nproc) cores, $(grep -m1 '^model name' /proc/cpuinfo | sed 's/.*: //'), $(go version | cut -d' ' -f3-), kernel $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# retry at $(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown), release build; best of $RUNS"
printf '%-8s %-10s %9s %12s %10s %13s %15s\n' attempts command wall per-attempt "peak RSS" "retry's own" "first/last 100"
for n in "${sizes[@]}"; do
	read -r loop_s loop_rss < <(measure sh -c 'i=0; while [ $i -lt "$1" ]; do "$2"; i=$((i + 1)); done' sh "$n" "$false_bin")
	read -r retry_s retry_rss < <(measure "$tmp/retry" -a "$n" --delay 1ms --max-delay 0 --summary-file "$tmp/report.json" -- "$false_bin")
	read -r first last < <(spacing "$tmp/report.json")
	grep -q "\"attempt\": $n," "$tmp/report.json" || { echo "attempts.sh: the report lacks attempt $n" >&2; exit 1; }
	awk -v n="$n" -v s="$loop_s" -v rss="$loop_rss" \
		'BEGIN { printf "%-8d %-10s %8.2fs %10.3fms %7.1fMiB\n", n, "sh loop", s, s * 1000 / n, rss / 1024 }'
	awk -v n="$n" -v s="$retry_s" -v rss="$retry_rss" -v ls="$loop_s" -v f="$first" -v l="$last" \
		'BEGIN { printf "%-8d %-10s %8.2fs %10.3fms %7.1fMiB %11.3fms %7s/%sms\n", n, "retry", s, s * 1000 / n, rss / 1024, (s - ls) * 1000 / n, f, l }'
done
