# Checks the action's inputs and turns them into retry's flags (the array
# flags) and the attempt's command line (shell_argv), writing the command's
# files into a directory of RUNNER_TEMP; sourced by run.sh, whose helpers
# and variables it uses.
# shellcheck shell=bash

# number NAME VALUE ends the step unless VALUE is a decimal number.
number() {
  [[ $2 =~ ^[0-9]+(\.[0-9]+)?$ ]] || bad "$1 must be a number, not \"$2\""
}

# zero VALUE succeeds when the number VALUE is 0.
zero() {
  [[ $1 =~ ^0*(\.0*)?$ ]]
}

# truth NAME VALUE succeeds when VALUE is true and fails when it is false,
# as the Actions toolkit reads booleans, and ends the step otherwise.
truth() {
  case $(trim "$2") in
    true | True | TRUE) return 0 ;;
    false | False | FALSE) return 1 ;;
    *) bad "$1 must be true or false, not \"$2\"" ;;
  esac
}

# each VALUE adds each non-empty line of VALUE to flags, without its blanks.
each() {
  local line
  while IFS= read -r line || [ -n "$line" ]; do
    line=$(trim "$line")
    [ -z "$line" ] || flags+=("$line")
  done <<<"$1"
}

# rules FLAG VALUE adds FLAG LINE to flags for each non-empty line of
# VALUE, a regular expression kept as written.
rules() {
  local line
  while IFS= read -r line || [ -n "$line" ]; do
    line=${line%$'\r'}
    [ -z "$(trim "$line")" ] || flags+=("$1" "$line")
  done <<<"$2"
}

# script FILE TEXT writes TEXT as a run: step's script in the shell: with
# the preamble and the exit status check that the runner adds for
# PowerShell, @echo off for cmd, and CRLF line ends for both.
script() {
  local text=$2
  case $shell in
    pwsh | powershell)
      text="\$ErrorActionPreference = 'stop'"$'\n'$text$'\n'
      # shellcheck disable=SC2016 # PowerShell's variable, not the shell's
      text+='if ((Test-Path -LiteralPath variable:\LASTEXITCODE)) { exit $LASTEXITCODE }' ;;
    cmd) text="@echo off"$'\n'$text ;;
  esac
  case $shell in
    pwsh | powershell | cmd)
      text=${text//$'\r\n'/$'\n'}
      text=${text//$'\n'/$'\r\n'} ;;
  esac
  printf '%s\n' "$text" >"$1" || bad "could not write $1"
}

# What is retried: a command. An action is retried by the run sub-action,
# a JavaScript action, which alone can run the action's post at the end of
# the job and give it the runner's runtime environment.
sub_action="uses: $(repository)/run@${RETRY_ACTION_REF:-v1}"
if [ -n "$action" ]; then
  [ -z "$(trim "$command")" ] || bad "give command or action, not both"
  [ -z "$(trim "$next_command")" ] ||
    bad "new_command_on_retry replaces the command from the second attempt on, and action retries an action, which has none: leave new_command_on_retry out"
  bad "this action retries a command; to retry the action $action, use $sub_action, which takes the same inputs and action and with"
fi
[ -z "$(trim "$with")" ] || bad "with gives the inputs of an action, which this action does not retry: retry the action with $sub_action and its action input"
[ -n "$(trim "$command")" ] || bad "command is required: the command to retry (or, to retry an action, $sub_action with the action input)"

# Attempts and time. A duration needs its unit, as retry has it; said
# here in the input's name, where retry's hint would name its own flags.
for input in deadline delay max_delay splay; do
  value=${!input}
  if [[ $value =~ ^[0-9]+(\.[0-9]+)?$ ]] && ! zero "$value"; then
    bad "$input: \"$value\" has no unit: write ${value}s"
  fi
done
[[ $max_attempts =~ ^[0-9]+$ ]] || bad "max_attempts must be a whole number, not \"$max_attempts\""
if [[ $max_attempts =~ ^0+$ ]] && [ -z "$deadline" ]; then
  bad "max_attempts 0 means no limit, and needs a deadline"
fi
flags=(-a "$max_attempts")
if [ -n "$timeout_minutes" ] && [ -n "$timeout_seconds" ]; then
  bad "give timeout_minutes or timeout_seconds, not both"
fi
if [ -n "$timeout_minutes$timeout_seconds" ]; then
  if [ -n "$timeout_minutes" ]; then
    number timeout_minutes "$timeout_minutes"
    zero "$timeout_minutes" && bad "timeout_minutes must be more than 0"
    flags+=(-t "${timeout_minutes}m")
  else
    number timeout_seconds "$timeout_seconds"
    zero "$timeout_seconds" && bad "timeout_seconds must be more than 0"
    flags+=(-t "${timeout_seconds}s")
  fi
elif [ -z "$deadline" ]; then
  bad "timeout_minutes or timeout_seconds is required (or deadline, which bounds the whole step)"
fi
[ -z "$deadline" ] || flags+=(-d "$deadline")
number polling_interval_seconds "$polling"

# What is retried.
code=$exit_code_input
if [ -n "$code" ] && ! { [[ $code =~ ^[0-9]{1,3}$ ]] && [ $((10#$code)) -le 255 ]; }; then
  bad "retry_on_exit_code must be an exit status from 0 to 255, not \"$code\""
fi
case $retry_on in
  any | error)
    # error retries no timeout, nor does retry_on_exit_code, which
    # retries only its code.
    if [ "$retry_on" = error ] || [ -n "$code" ]; then
      flags+=(--stop-on timeout)
    fi
    if [ -n "$code" ]; then
      flags+=(--retry-on "$code")
    elif [ -z "$(trim "$presets$retry_if")" ]; then
      # Any failure, as nick-fields/retry has it; rules given by preset or
      # retry_if decide instead.
      flags+=(--retry-on 1-255)
    fi ;;
  timeout)
    [ -z "$code" ] || bad "retry_on timeout retries only timeouts, and retry_on_exit_code only exit $code: give one of them"
    flags+=(--retry-on timeout) ;;
  success)
    [ -z "$code" ] || bad "retry_on success runs the command until it fails, which retry_on_exit_code does not go with"
    [ -z "$(trim "$presets$retry_if$stop_if")" ] ||
      bad "retry_on success runs the command until it fails, which preset, retry_if and stop_if do not go with"
    flags+=(--until fail) ;;
  *) bad "retry_on must be any, error, timeout or success, not \"$retry_on\"" ;;
esac

# The wait: retry_wait_seconds, always the same, unless delay or max_delay
# ask for a jittered exponential backoff.
number retry_wait_seconds "$wait_seconds"
if [ -n "$delay$max_delay" ]; then
  [ -z "$delay" ] || flags+=(--delay "$delay")
  [ -z "$max_delay" ] || flags+=(--max-delay "$max_delay")
elif [ "$retry_on" = success ]; then
  zero "$wait_seconds" || flags+=(--delay "${wait_seconds}s")
elif zero "$wait_seconds"; then
  flags+=(--max-delay 0)
else
  flags+=(--delay "${wait_seconds}s" --max-delay "${wait_seconds}s" --jitter none)
fi

# Exit statuses that tell a flaky pass, or attempts run out, from the rest.
for input in flaky_exit exhausted_exit; do
  value=${!input}
  if [ -n "$value" ] && ! { [[ $value =~ ^[0-9]{1,3}$ ]] && [ $((10#$value)) -ge 1 ] && [ $((10#$value)) -le 123 ]; }; then
    bad "$input must be an exit status from 1 to 123, not \"$value\""
  fi
done
[ -z "$flaky_exit" ] || flags+=(--flaky-exit "$((10#$flaky_exit))")
[ -z "$exhausted_exit" ] || flags+=(--exhausted-exit "$((10#$exhausted_exit))")
[ -z "$splay" ] || flags+=(--splay "$splay")

truth warning_on_retry "$warning_on_retry" || flags+=(--ci-annotations none)
truth continue_on_error "$continue_on_error" && continue_on_error=true || continue_on_error=false

set -f
for preset in $(printf '%s' "$presets" | tr ',\r\n' '   '); do
  flags+=(--preset "$preset")
done
set +f
rules --retry-if "$retry_if"
rules --stop-if "$stop_if"
rules --fail-if "$fail_if"
[ -z "$budget" ] || flags+=(--budget "$budget")
[ -z "$name" ] || flags+=(--name "$name")

# The working directory, as a run: step's: relative to the workspace.
if [ -n "$workdir" ]; then
  workspace=${GITHUB_WORKSPACE:-$PWD}
  wd=$workdir
  if [ "$os" = Windows ] && command -v cygpath >/dev/null 2>&1; then
    workspace=$(cygpath -u "$workspace")
    wd=$(cygpath -u "$wd")
  fi
  case $wd in
    /*) ;;
    *) wd=$workspace/$wd ;;
  esac
  [ -d "$wd" ] || bad "working-directory $workdir does not exist (in $(native "$workspace"))"
fi

# The command's files, in a directory of its own that also keeps the report.
dir=$(mktemp -d "$temp/retry-XXXXXX") || bad "could not make a directory in $temp"
report=$dir/report.json

# The shell, run as a run: step runs it.
[ -n "$shell" ] || if [ "$os" = Windows ]; then shell=powershell; else shell=bash; fi
case $shell in
  bash | python | pwsh) ;;
  sh) [ "$os" != Windows ] || bad "shell sh is not available on Windows: use bash, pwsh, powershell, cmd or python" ;;
  cmd | powershell) [ "$os" = Windows ] || bad "shell $shell is available only on Windows: use bash, sh, pwsh or python" ;;
  *) bad "shell must be bash, sh, python, pwsh, powershell or cmd, not \"$shell\"" ;;
esac
# interpreter NAME... sets found to the first NAME on PATH that runs, as
# retry starts it.
interpreter() {
  local name path
  for name in "$@"; do
    path=$(command -v "$name") || continue
    # the Microsoft Store's python3 on Windows is a stub that runs nothing
    if [[ $name != python* ]] || "$path" --version >/dev/null 2>&1 </dev/null; then
      found=$(native "$path")
      return
    fi
  done
  bad "shell $shell: $1 is not on PATH"
}
case $shell in
  bash | sh) ext=sh attempt=attempt.sh ;;
  python) ext=py attempt=attempt.py ;;
  pwsh | powershell) ext=ps1 attempt=attempt.ps1 ;;
  cmd) ext=cmd attempt=attempt.cmd ;;
esac
attempt=$(native "$here/$attempt")
case $shell in
  bash) interpreter bash && shell_argv=("$found" --noprofile --norc -e -o pipefail "$attempt") ;;
  sh) interpreter sh && shell_argv=("$found" -e "$attempt") ;;
  python) interpreter python python3 && shell_argv=("$found" "$attempt") ;;
  pwsh | powershell) interpreter "$shell" && shell_argv=("$found" -command ". '${attempt//\'/\'\'}'") ;;
  cmd)
    # Git Bash turns an argument such as /D into a path unless it is
    # doubled, or unless the user turned that conversion off.
    s=//
    [ -z "${MSYS_NO_PATHCONV:-}${MSYS2_ARG_CONV_EXCL:-}" ] || s=/
    comspec=${ComSpec:-${COMSPEC:-}}
    [ -n "$comspec" ] || bad "shell cmd: ComSpec is not set"
    shell_argv=("$comspec" "${s}D" "${s}E:ON" "${s}V:OFF" "${s}S" "${s}C" CALL "$attempt") ;;
esac

script "$dir/command.$ext" "$command"
# Each attempt writes its GITHUB_OUTPUT, GITHUB_ENV, GITHUB_PATH and
# GITHUB_STEP_SUMMARY files in a directory of its own, here; only the last
# attempt's reach the job.
mkdir "$dir/files" || bad "could not make a directory in $dir"
export RETRY_ACTION_FILES
RETRY_ACTION_FILES=$(native "$dir/files")
export RETRY_ACTION_COMMAND
RETRY_ACTION_COMMAND=$(native "$dir/command.$ext")
if [ -n "$(trim "$next_command")" ]; then
  script "$dir/next.$ext" "$next_command"
  export RETRY_ACTION_NEXT_COMMAND
  RETRY_ACTION_NEXT_COMMAND=$(native "$dir/next.$ext")
fi
if [ -n "$(trim "$on_retry")" ]; then
  if [ "$os" = Windows ]; then
    # retry runs --on-retry with cmd /d /s /c on Windows, which takes one
    # line: the lines go into a batch file, which it runs.
    hook=${on_retry%$'\n'}
    printf '@echo off\r\n%s\r\n' "${hook//$'\n'/$'\r\n'}" >"$dir/hook.cmd" || bad "could not write $dir/hook.cmd"
    flags+=(--on-retry "\"$(native "$dir/hook.cmd")\"")
  else
    flags+=(--on-retry "$on_retry")
  fi
fi

# Further flags last, so that they can override the ones above.
each "$extra"
