# One attempt of the action's command, for the shells bash and sh. retry
# runs this file as a run: step runs its script (bash --noprofile --norc -e
# -o pipefail, or sh -e); it sources the command's file, so that the command
# runs in this same shell with those options. From the second attempt on it
# runs new_command_on_retry's file when there is one, after the
# on_retry_command that run.sh leaves to it on Windows.
# shellcheck shell=sh disable=SC1090

if [ "${RETRY_ATTEMPT:-1}" != 1 ] && [ -n "${RETRY_ACTION_HOOK:-}" ]; then
  # Git Bash turns an argument such as /D into a path unless it is doubled,
  # or unless the user turned that conversion off.
  if [ -n "${MSYS_NO_PATHCONV:-}${MSYS2_ARG_CONV_EXCL:-}" ]; then
    set -- /D /E:ON /V:OFF /S /C
  else
    set -- //D //E:ON //V:OFF //S //C
  fi
  if ! "${ComSpec:-${COMSPEC:-cmd.exe}}" "$@" CALL "$RETRY_ACTION_HOOK"; then
    echo "::warning title=retry::on_retry_command failed"
  fi
  set --
fi

case ${RETRY_ATTEMPT:-1} in
  1) . "$RETRY_ACTION_COMMAND" ;;
  *) . "${RETRY_ACTION_NEXT_COMMAND:-$RETRY_ACTION_COMMAND}" ;;
esac
