#!/usr/bin/env bash
# The budget store's costs (docs/dev/performance.md, "Budget store"):
#   1. one admission decision through Redis on loopback against the same
#      decision in the local file budget, and the invocations per second
#      one Redis serves for one budget (connect, count a first attempt, ask
#      for a retry; capped: take and release a slot too), from parallel
#      clients: the Go benchmarks of runner/budget/redisstore;
#   2. a whole `retry -- true` with no budget, with the local budget and
#      with the budget in Redis (hyperfine), as a user sees it.
# The Go benchmarks start their own redis-server; part 2 starts one on a
# loopback port and stops it at the end. Both skip without redis-server.
# Usage: bench/budgetstore.sh   Knobs: COUNT=3 BENCHTIME=2s RUNS=200
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${COUNT:-3}
BENCHTIME=${BENCHTIME:-2s}
RUNS=${RUNS:-200}
command -v redis-server >/dev/null || { echo "budgetstore.sh: needs redis-server (Debian package redis-server)" >&2; exit 1; }

echo "## Go benchmarks (ns/op; invocations/s = 1e9 / ns/op)"
go test -run '^$' -bench . -benchtime "$BENCHTIME" -count "$COUNT" ./runner/budget/redisstore/ |
	awk '/^Benchmark/ { ns = $3; printf "%-36s %10.1f us/op  %8.0f /s\n", $1, ns / 1000, 1e9 / ns }'

command -v hyperfine >/dev/null || { echo "part 2 needs hyperfine (Debian package hyperfine)" >&2; exit 0; }
work=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o "$work/retry" .
# A port from the ephemeral range; try again when it is taken.
for _ in 1 2 3 4 5; do
	port=$((20000 + RANDOM % 20000))
	redis-server --save '' --appendonly no --bind 127.0.0.1 --port "$port" --dir "$work" --logfile "$work/redis.log" &
	pid=$!
	for _ in $(seq 100); do
		redis-cli -p "$port" ping >/dev/null 2>&1 && break 2
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.02
	done
	kill "$pid" 2>/dev/null || true
	pid=
done
[ -n "$pid" ] || { echo "budgetstore.sh: could not start redis-server" >&2; exit 1; }
true_bin=$(command -v true)
echo
echo "## retry -- true, $RUNS runs each"
hyperfine -N --warmup 20 --runs "$RUNS" --style basic \
	-n none "$work/retry -- $true_bin" \
	-n local-file "$work/retry --budget b --state-dir $work/state -- $true_bin" \
	-n redis "$work/retry --budget b --budget-store redis://127.0.0.1:$port -- $true_bin" \
	-n redis-capped "$work/retry --budget b --max-concurrent 4 --budget-store redis://127.0.0.1:$port -- $true_bin" 2>&1 |
	grep -E '^(Benchmark|  Time)'
