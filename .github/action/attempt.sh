# One attempt of the action's command, for the shells bash and sh. retry
# runs this file as a run: step runs its script (bash --noprofile --norc -e
# -o pipefail, or sh -e); it sources the command's file, so that the command
# runs in this same shell with those options. From the second attempt on it
# runs new_command_on_retry's file when there is one. The attempt gets
# empty GITHUB_OUTPUT, GITHUB_ENV, GITHUB_PATH and GITHUB_STEP_SUMMARY
# files of its own, in the directory RETRY_ACTION_FILES/N.
# shellcheck shell=sh disable=SC1090

if [ -n "${RETRY_ACTION_FILES:-}" ]; then
  RETRY_ACTION_FILES=$RETRY_ACTION_FILES/${RETRY_ATTEMPT:-1}
  mkdir -p "$RETRY_ACTION_FILES"
  : >"$RETRY_ACTION_FILES/output"
  : >"$RETRY_ACTION_FILES/env"
  : >"$RETRY_ACTION_FILES/path"
  : >"$RETRY_ACTION_FILES/step_summary"
  GITHUB_OUTPUT=$RETRY_ACTION_FILES/output
  GITHUB_ENV=$RETRY_ACTION_FILES/env
  GITHUB_PATH=$RETRY_ACTION_FILES/path
  GITHUB_STEP_SUMMARY=$RETRY_ACTION_FILES/step_summary
  export GITHUB_OUTPUT GITHUB_ENV GITHUB_PATH GITHUB_STEP_SUMMARY
fi

case ${RETRY_ATTEMPT:-1} in
  1) . "$RETRY_ACTION_COMMAND" ;;
  *) . "${RETRY_ACTION_NEXT_COMMAND:-$RETRY_ACTION_COMMAND}" ;;
esac
