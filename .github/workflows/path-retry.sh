#!/usr/bin/env bash
# Builds retry from the checked-out commit and puts it on PATH for the
# job's later steps, as the action expects when it is used as ./.
set -euo pipefail
bin=$RUNNER_TEMP/retry-bin
go build -o "$bin/" .
if command -v cygpath >/dev/null 2>&1; then
  bin=$(cygpath -w "$bin")
fi
echo "$bin" >>"$GITHUB_PATH"
