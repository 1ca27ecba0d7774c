# One attempt of the action's command, for the shells pwsh and powershell.
# retry runs this file as a run: step runs its script (-command ". 'FILE'");
# it dot-sources the command's file, which carries the preamble and the exit
# status check of a run: step. From the second attempt on it runs
# new_command_on_retry's file when there is one.

$retryActionFile = $env:RETRY_ACTION_COMMAND
if ($env:RETRY_ATTEMPT -and $env:RETRY_ATTEMPT -ne '1' -and $env:RETRY_ACTION_NEXT_COMMAND) {
    $retryActionFile = $env:RETRY_ACTION_NEXT_COMMAND
}
. $retryActionFile
