#!/usr/bin/env bash
# The retry action's one step. action.yml passes each input in an
# environment variable (INPUT_TIMEOUT_MINUTES for timeout_minutes, and so
# on); this turns them into a retry command line, runs it, and writes the
# step's outputs from retry's JSON report. A bad input is an ::error
# annotation and exit status 125, and the command never runs.
# Written for bash 3.2 too (a self-hosted macOS runner's).
# shellcheck source-path=SCRIPTDIR
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# annotate LEVEL MESSAGE writes a workflow command that GitHub shows as an
# annotation. The runner reads them on stderr too.
annotate() {
  local msg=$2
  msg=${msg//%/%25}
  msg=${msg//$'\r'/%0D}
  msg=${msg//$'\n'/%0A}
  printf '::%s title=retry::%s\n' "$1" "$msg" >&2
}

# fail MESSAGE reports an error of the action's own.
fail() {
  annotate error "$1"
}

# output NAME VALUE sets a step output.
output() {
  [ -n "${GITHUB_OUTPUT:-}" ] || return 0
  printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"
}

# bad MESSAGE ends the step on a bad input: nothing has run.
bad() {
  fail "$1"
  output total_attempts 0
  output exit_code 125
  output exit_error "$1"
  output outputs '{}'
  output flaky false
  exit 125
}

# trim VALUE prints VALUE without the blanks around it.
trim() {
  local v=$1
  v=${v#"${v%%[![:space:]]*}"}
  v=${v%"${v##*[![:space:]]}"}
  printf '%s' "$v"
}

# native PATH prints PATH as the programs retry starts read it: a Windows
# path under Git Bash, PATH itself elsewhere.
native() {
  if [ "$os" = Windows ] && command -v cygpath >/dev/null 2>&1; then
    cygpath -w "$1"
  else
    printf '%s' "$1"
  fi
}

os=${RUNNER_OS:-$(uname -s)}
case $os in MINGW* | MSYS* | CYGWIN*) os=Windows ;; Darwin) os=macOS ;; esac
temp=${RUNNER_TEMP:-${TMPDIR:-/tmp}}
if [ "$os" = Windows ] && command -v cygpath >/dev/null 2>&1; then
  temp=$(cygpath -u "$temp")
fi
# shellcheck source=binary.sh
. "$here/binary.sh"

# The inputs, each read once; the command's environment does not keep them.
command=${INPUT_COMMAND-}
next_command=${INPUT_NEW_COMMAND_ON_RETRY-}
on_retry=${INPUT_ON_RETRY_COMMAND-}
timeout_minutes=$(trim "${INPUT_TIMEOUT_MINUTES-}")
timeout_seconds=$(trim "${INPUT_TIMEOUT_SECONDS-}")
max_attempts=$(trim "${INPUT_MAX_ATTEMPTS-3}")
wait_seconds=$(trim "${INPUT_RETRY_WAIT_SECONDS-10}")
shell=$(trim "${INPUT_SHELL-}")
polling=$(trim "${INPUT_POLLING_INTERVAL_SECONDS-1}")
retry_on=$(trim "${INPUT_RETRY_ON-any}")
warning_on_retry=${INPUT_WARNING_ON_RETRY-true}
continue_on_error=${INPUT_CONTINUE_ON_ERROR-false}
exit_code_input=$(trim "${INPUT_RETRY_ON_EXIT_CODE-}")
deadline=$(trim "${INPUT_DEADLINE-}")
delay=$(trim "${INPUT_DELAY-}")
max_delay=$(trim "${INPUT_MAX_DELAY-}")
presets=${INPUT_PRESET-}
retry_if=${INPUT_RETRY_IF-}
stop_if=${INPUT_STOP_IF-}
fail_if=${INPUT_FAIL_IF-}
budget=$(trim "${INPUT_BUDGET-}")
name=$(trim "${INPUT_NAME-}")
extra=${INPUT_ARGS-}
version=$(trim "${INPUT_VERSION-}")
workdir=${INPUT_WORKING_DIRECTORY-}
flaky_exit=$(trim "${INPUT_FLAKY_EXIT-}")
exhausted_exit=$(trim "${INPUT_EXHAUSTED_EXIT-}")
splay=$(trim "${INPUT_SPLAY-}")
action=$(trim "${INPUT_ACTION-}")
with=${INPUT_WITH-}
for var in "${!INPUT_@}"; do unset "$var"; done

# shellcheck source=inputs.sh
. "$here/inputs.sh"

resolve_binary "$version" "${RETRY_ACTION_REF:-}" || exit 1
# Debian's retry, another program, answers --version alike and runs any
# other word as a command, forever: its --help lacks --deadline.
help=$("$RETRY_BIN" --help 2>&1 </dev/null)
case $help in
  *--deadline*) ;;
  *)
    fail "$RETRY_BIN is not b0a38808/retry (its --help has no --deadline): give the version input to download it"
    exit 1 ;;
esac

# A retry older than this action lacks its newer flags: each is passed only
# to a retry whose --help lists it, and an input that needs one the binary
# lacks ends the step, naming the release to use.
# lists FLAG succeeds when retry's --help lists FLAG (--ci, not --ci-annotations).
lists() {
  local re="(^|[^-[:alnum:]])$1([^-[:alnum:]]|\$)"
  [[ $help =~ $re ]]
}
# needs INPUT VALUE FLAG ends the step when the input is given and retry lacks FLAG.
needs() {
  local have release
  [ -n "$2" ] && ! lists "$3" || return 0
  have=$("$RETRY_BIN" --version 2>/dev/null </dev/null | head -n 1)
  have="${have:-retry} ($RETRY_BIN)"
  if release=$(action_release "${RETRY_ACTION_REF:-}"); then
    bad "$1 needs a retry with $3, which $have lacks: give version $release, the release of this action, or a later one"
  fi
  bad "$1 needs a retry with $3, which $have lacks: give the version input a release that has it, or put a newer retry on PATH"
}
needs flaky_exit "$flaky_exit" --flaky-exit
needs exhausted_exit "$exhausted_exit" --exhausted-exit
needs splay "$splay" --splay
# The GitHub Actions CI: said, where retry would otherwise look for it.
! lists --ci || flags=(--ci github "${flags[@]}")

# retry checks every value it is given before it runs anything; its
# explain subcommand does that and runs nothing, so a bad value is an
# annotation here, not a line lost in the log.
if ! problems=$("$RETRY_BIN" explain "${flags[@]}" -- "${shell_argv[@]}" 2>&1 >/dev/null); then
  while IFS= read -r line; do
    fail "$line"
  done <<<"$problems"
  output total_attempts 0
  output exit_code 125
  output exit_error "${problems%%$'\n'*}"
  output outputs '{}'
  output flaky false
  exit 125
fi

# The working directory, checked with the other inputs.
if [ -n "$workdir" ]; then
  cd "$wd" || bad "could not enter working-directory $workdir"
fi

# The report stays in RUNNER_TEMP, which is emptied when the job ends, for
# the job's later steps.
run=("$RETRY_BIN" --summary-file "$(native "$report")" "${flags[@]}" -- "${shell_argv[@]}")
if [ -t 0 ]; then
  # At a terminal, Ctrl-C reaches retry itself.
  "${run[@]}"
  status=$?
else
  # A cancelled job's runner sends SIGINT, then SIGTERM, to this shell
  # alone, which acts on a signal only once a command in the foreground has
  # ended: retry runs in the background, and each signal is passed on at
  # once. Job control (set -m) keeps a background command from starting
  # with SIGINT ignored, which retry and the attempt would keep; <&0 keeps
  # its stdin this shell's, not the null device. A signal that comes
  # before $pid is set (the trap may run as soon as the background command
  # has started) is passed on once it is.
  pid=''
  pending=''
  trap 'if [ -n "$pid" ]; then kill -INT "$pid" 2>/dev/null; else pending="$pending INT"; fi' INT
  trap 'if [ -n "$pid" ]; then kill -TERM "$pid" 2>/dev/null; else pending="$pending TERM"; fi' TERM
  set -m
  "${run[@]}" <&0 &
  pid=$!
  set +m
  for sig in $pending; do kill -"$sig" "$pid" 2>/dev/null; done
  wait "$pid"
  status=$?
  while kill -0 "$pid" 2>/dev/null; do
    wait "$pid"
    status=$?
  done
fi
rm -f "$dir"/command.* "$dir"/next.* "$dir"/hook.*

# shellcheck source=outputs.sh
. "$here/outputs.sh"
