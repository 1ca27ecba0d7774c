# One attempt of the action's command, for the shells bash and sh. retry
# runs this file as a run: step runs its script (bash --noprofile --norc -e
# -o pipefail, or sh -e); it sources the command's file, so that the command
# runs in this same shell with those options. From the second attempt on it
# runs new_command_on_retry's file when there is one.
# shellcheck shell=sh disable=SC1090

case ${RETRY_ATTEMPT:-1} in
  1) . "$RETRY_ACTION_COMMAND" ;;
  *) . "${RETRY_ACTION_NEXT_COMMAND:-$RETRY_ACTION_COMMAND}" ;;
esac
