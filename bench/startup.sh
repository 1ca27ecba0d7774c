#!/usr/bin/env bash
# startup.sh measures the whole-process overhead of `retry -- true`: wall time
# and peak resident memory (RSS), medians over several runs, against
#   - `true` alone (the cost of any process at all),
#   - bench/floor, a Go program that only runs the command with os/exec and
#     waits (the floor for any wrapper written in Go),
#   - bench/floor-signals, the floor that first catches the signals retry
#     catches (what forwarding signals costs before the first fork), and
#     bench/floor-cobra, that plus a cobra command line with as many flags as
#     retry's (the least a retry built on cobra that forwards signals costs),
#   - Debian's C `retry` package (/usr/bin/retry --times=1 -- true), when
#     installed,
#   - recur (github.com/dbohdan/recur, a retry tool in Go, the fastest peer),
#     when RECUR names a build of it: `recur true`. Build it from its source,
#     as its README says, with CGO_ENABLED=0 -trimpath -ldflags '-s -w';
#     without RECUR its row is left out, with a message.
# retry is measured twice: as `go build` makes it here (with cgo when a C
# compiler is installed, as `go install` does), and as .goreleaser.yaml builds
# the releases (CGO_ENABLED=0, -ldflags '-s -w').
# The goal (docs/dev/performance.md, "Start-up"): the release build's wall time at most
# 1.2x floor-cobra's and 1.1x recur's, peak RSS under 8 MiB; the floor ratios
# are printed too. Beside the wall time, the CPU time (user + system,
# as hyperfine reports it: on a shared machine it moves less than the wall).
# The script also prints floor-cobra against the floor: what a cobra program
# that forwards signals costs beyond any Go wrapper, on this machine.
# docs/dev/performance.md ("Start-up") has the figures and what costs what.
#
# Usage: bench/startup.sh [NAME=BINARY...]   (from anywhere in the repository)
#   Each NAME=BINARY adds a row for `BINARY -- true`: a variant of retry
#   built to see what one change costs.
# Knobs (environment):
#   RUNS=100        timed runs per command and round
#   ROUNDS=10       rounds, each in a new command order; the wall figure is
#                   the median of the rounds' medians. Many short rounds
#                   spread the load of a shared machine over all commands.
#   RSS_RUNS=21     runs per command under /usr/bin/time -v
#   NO_HYPERFINE=1  use the plain loop even when hyperfine is installed
#   RECUR=BINARY    recur, built from its source, to measure beside retry
# Tools: go; hyperfine (Debian package `hyperfine`) if present, else a bash
# loop timed with $EPOCHREALTIME; /usr/bin/time (Debian package `time`) for
# peak RSS. Debian's /usr/bin/retry shadows ours on PATH, so every command
# here is called by absolute path.
set -euo pipefail

RUNS=${RUNS:-100}
ROUNDS=${ROUNDS:-10}
RSS_RUNS=${RSS_RUNS:-21}
NO_HYPERFINE=${NO_HYPERFINE:-}
RECUR=${RECUR:-}
DEBIAN_RETRY=/usr/bin/retry
GNU_TIME=/usr/bin/time

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/retry-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# median reads numbers, one a line, and prints their median.
median() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "nan"; exit }
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2
	}'
}

# build NAME [FLAG...] PACKAGE runs go build -trimpath into $tmp/NAME. The
# binary is copied once built: a binary the linker has just written (through
# mmap) starts up to 1 ms slower than a copy of the same bytes, which would
# hide every other effect.
build() {
	local name=$1
	shift
	(cd "$root" && go build -trimpath -o "$tmp/build/$name" "$@")
	cp "$tmp/build/$name" "$tmp/$name"
}
mkdir "$tmp/build"
build floor ./bench/floor
build floor-signals ./bench/floor-signals
# Static, like the release build of retry it is compared with (cobra's pflag
# imports net, which links with cgo when a C compiler is installed).
CGO_ENABLED=0 build floor-cobra ./bench/floor-cobra
build retry .
CGO_ENABLED=0 build retry-release -ldflags='-s -w' .
rm -r "$tmp/build"
extra=()
for arg; do
	[[ $arg == ?*=?* ]] || { echo "startup.sh: want NAME=BINARY, got \"$arg\"" >&2; exit 2; }
	cp "${arg#*=}" "$tmp/${arg%%=*}"
	extra+=("${arg%%=*}")
done

true_bin=$(type -P true)
names=(true floor retry retry-release floor-signals floor-cobra)
cmds=("$true_bin" "$tmp/floor $true_bin" "$tmp/retry -- $true_bin" "$tmp/retry-release -- $true_bin"
	"$tmp/floor-signals $true_bin" "$tmp/floor-cobra -- $true_bin")
if [[ -x $DEBIAN_RETRY ]] && "$DEBIAN_RETRY" --times=1 -- "$true_bin" 2>/dev/null; then
	names+=(debian-retry)
	cmds+=("$DEBIAN_RETRY --times=1 -- $true_bin")
else
	echo "startup.sh: $DEBIAN_RETRY (Debian package retry) not found or not usable: skipping it" >&2
fi
RECUR_ROW=-1
if [[ -n $RECUR && -x $RECUR ]]; then
	cp "$RECUR" "$tmp/recur"
	RECUR_ROW=${#names[@]}
	names+=(recur)
	cmds+=("$tmp/recur $true_bin")
else
	echo "startup.sh: RECUR is not set to a build of recur: skipping it (see the header)" >&2
fi
for name in "${extra[@]}"; do
	names+=("$name")
	cmds+=("$tmp/$name -- $true_bin")
done
n=${#names[@]}
FLOOR=1 RETRY=2 RELEASE=3 COBRA=5

# Every command must succeed, or its timings mean nothing.
for ((c = 0; c < n; c++)); do
	${cmds[c]} || { echo "startup.sh: ${cmds[c]} failed" >&2; exit 1; }
done

linking="statically"
if LC_ALL=C grep -aq '/ld-linux' "$tmp/retry"; then linking="dynamically (cgo)"; fi
echo "# machine: $(nproc) cores, $(grep -m1 '^model name' /proc/cpuinfo | sed 's/.*: //'), $(go version | cut -d' ' -f3-), kernel $(uname -r)"
echo "# retry at $(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown), $(date -u +%Y-%m-%dT%H:%MZ); the default build is linked $linking"

# Wall time, in milliseconds: for each round, each command's median; then the
# median of the rounds. Each round starts the command order one further, so
# no command always runs first or right after another.
declare -a round_medians round_cpu
if [[ -z $NO_HYPERFINE ]] && command -v hyperfine >/dev/null; then
	echo "# wall time: hyperfine -N, $ROUNDS rounds x $RUNS runs"
	for ((r = 0; r < ROUNDS; r++)); do
		hf=()
		order=()
		for ((k = 0; k < n; k++)); do
			c=$(((k + r) % n))
			order+=("$c")
			hf+=(-n "${names[c]}" "${cmds[c]}")
		done
		hyperfine -N --style basic --warmup 10 --runs "$RUNS" \
			--export-json "$tmp/round$r.json" "${hf[@]}" >"$tmp/round$r.txt" 2>&1 ||
			{ cat "$tmp/round$r.txt" >&2; exit 1; }
		mapfile -t meds < <(grep -o '"median": *[0-9.eE+-]*' "$tmp/round$r.json" | sed 's/.*: *//')
		((${#meds[@]} == n)) || { echo "startup.sh: cannot read medians from hyperfine's JSON" >&2; exit 1; }
		mapfile -t users < <(grep -o '"user": *[0-9.eE+-]*' "$tmp/round$r.json" | sed 's/.*: *//')
		mapfile -t systems < <(grep -o '"system": *[0-9.eE+-]*' "$tmp/round$r.json" | sed 's/.*: *//')
		for ((k = 0; k < n; k++)); do
			round_medians[order[k]]+=" $(awk -v s="${meds[k]}" 'BEGIN { printf "%.4f", s * 1000 }')"
			round_cpu[order[k]]+=" $(awk -v u="${users[k]:-nan}" -v y="${systems[k]:-nan}" 'BEGIN { printf "%.4f", (u + y) * 1000 }')"
		done
	done
else
	echo "# wall time: bash loop timed with \$EPOCHREALTIME (hyperfine not used), $ROUNDS rounds x $RUNS runs, commands interleaved"
	for ((r = 0; r < ROUNDS; r++)); do
		for ((c = 0; c < n; c++)); do : >"$tmp/loop$c"; done
		for ((i = 0; i < 20; i++)); do for ((c = 0; c < n; c++)); do ${cmds[c]}; done; done
		for ((i = 0; i < RUNS; i++)); do
			for ((k = 0; k < n; k++)); do
				c=$(((k + i + r) % n))
				t0=$EPOCHREALTIME
				${cmds[c]}
				t1=$EPOCHREALTIME
				echo "$t0 $t1" >>"$tmp/loop$c"
			done
		done
		for ((c = 0; c < n; c++)); do
			round_medians[c]+=" $(awk '{ printf "%.4f\n", ($2 - $1) * 1000 }' "$tmp/loop$c" | median)"
		done
	done
fi

# Peak RSS, in KiB, as GNU time reports it: the largest RSS of the process
# and of the children it waited for (for a wrapper, its own).
declare -a rss
if [[ -x $GNU_TIME ]]; then
	echo "# peak RSS: $GNU_TIME -v, $RSS_RUNS runs per command, interleaved"
	for ((c = 0; c < n; c++)); do : >"$tmp/rss$c"; done
	for ((i = 0; i < RSS_RUNS; i++)); do
		for ((c = 0; c < n; c++)); do
			# shellcheck disable=SC2086 # the command lines are split into words on purpose
			"$GNU_TIME" -v -o "$tmp/time.out" ${cmds[c]}
			sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$tmp/time.out" >>"$tmp/rss$c"
		done
	done
	for ((c = 0; c < n; c++)); do rss[c]=$(median <"$tmp/rss$c"); done
else
	echo "startup.sh: $GNU_TIME (Debian package time) not found: skipping peak RSS" >&2
	for ((c = 0; c < n; c++)); do rss[c]=nan; done
fi

declare -a wall cpu
for ((c = 0; c < n; c++)); do
	wall[c]=$(tr ' ' '\n' <<<"${round_medians[c]}" | grep . | median)
	cpu[c]=$(tr ' ' '\n' <<<"${round_cpu[c]:-}" | grep . | median)
done

echo
printf '| %-13s | %-42s | %15s | %8s | %13s | %14s |\n' command "command line (binaries in a temp dir)" "wall, median ms" "x floor" "CPU, ms" "peak RSS, MiB"
printf '|%s|%s|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..15})" "$(printf -- '-%.0s' {1..44})" "$(printf -- '-%.0s' {1..17})" "$(printf -- '-%.0s' {1..10})" "$(printf -- '-%.0s' {1..15})" "$(printf -- '-%.0s' {1..16})"
for ((c = 0; c < n; c++)); do
	awk -v name="${names[c]}" -v line="${cmds[c]//$tmp\//}" -v w="${wall[c]}" -v f="${wall[FLOOR]}" -v u="${cpu[c]}" -v k="${rss[c]}" 'BEGIN {
		printf "| %-13s | %-42s | %15.3f | %8.2f | %13s | %14s |\n", name, line, w, w / f, (u == "nan" ? "n/a" : sprintf("%.3f", u)), (k == "nan" ? "n/a" : sprintf("%.1f", k / 1024))
	}'
done
echo
echo "rounds' medians, ms:"
for ((c = 0; c < n; c++)); do echo "  ${names[c]}:${round_medians[c]}"; done

echo
for c in $RETRY $RELEASE; do
	awk -v name="${names[c]}" -v w="${wall[c]}" -v f="${wall[COBRA]}" -v k="${rss[c]}" 'BEGIN {
		ratio = w / f
		printf "goal, %s: wall <= 1.20x floor-cobra: %.2fx -> %s", name, ratio, (ratio <= 1.20 ? "met" : "MISSED")
		if (k == "nan") print "; peak RSS < 8 MiB: not measured"
		else printf "; peak RSS < 8 MiB: %.1f MiB -> %s\n", k / 1024, (k < 8192 ? "met" : "MISSED")
	}'
done
if ((RECUR_ROW >= 0)); then
	awk -v w="${wall[RELEASE]}" -v r="${wall[RECUR_ROW]}" -v u="${cpu[RELEASE]}" -v q="${cpu[RECUR_ROW]}" 'BEGIN {
		printf "goal, retry-release: wall <= 1.10x recur: %.2fx -> %s", w / r, (w / r <= 1.10 ? "met" : "MISSED")
		if (u == "nan" || q == "nan") print ""
		else printf " (CPU: %.2fx)\n", u / q
	}'
fi
awk -v w="${wall[COBRA]}" -v f="${wall[FLOOR]}" 'BEGIN {
	printf "reference, floor-cobra: %.2fx floor\n", w / f
}'
