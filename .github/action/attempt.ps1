# One attempt of the action's command, for the shells pwsh and powershell.
# retry runs this file as a run: step runs its script (-command ". 'FILE'");
# it dot-sources the command's file, which carries the preamble and the exit
# status check of a run: step. From the second attempt on it runs
# new_command_on_retry's file when there is one, after the on_retry_command
# that run.sh leaves to it on Windows.

$retryActionFile = $env:RETRY_ACTION_COMMAND
if ($env:RETRY_ATTEMPT -and $env:RETRY_ATTEMPT -ne '1') {
    if ($env:RETRY_ACTION_HOOK) {
        & $env:ComSpec /D /E:ON /V:OFF /S /C CALL $env:RETRY_ACTION_HOOK
        if ($LASTEXITCODE -ne 0) {
            Write-Output "::warning title=retry::on_retry_command exited $LASTEXITCODE"
        }
        # The command's exit status check must not see the hook's.
        Remove-Variable -Name LASTEXITCODE -Scope Global -ErrorAction SilentlyContinue
    }
    if ($env:RETRY_ACTION_NEXT_COMMAND) {
        $retryActionFile = $env:RETRY_ACTION_NEXT_COMMAND
    }
}
. $retryActionFile
