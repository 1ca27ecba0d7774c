# One attempt of the action's command, for the shells pwsh and powershell.
# retry runs this file as a run: step runs its script (-command ". 'FILE'");
# it dot-sources the command's file, which carries the preamble and the exit
# status check of a run: step. From the second attempt on it runs
# new_command_on_retry's file when there is one. The attempt gets empty
# GITHUB_OUTPUT, GITHUB_ENV, GITHUB_PATH and GITHUB_STEP_SUMMARY files of
# its own, in the directory RETRY_ACTION_FILES\N.

if ($env:RETRY_ACTION_FILES) {
    $retryActionAttempt = '1'
    if ($env:RETRY_ATTEMPT) { $retryActionAttempt = $env:RETRY_ATTEMPT }
    $retryActionFiles = Join-Path $env:RETRY_ACTION_FILES $retryActionAttempt
    New-Item -ItemType Directory -Force -Path $retryActionFiles | Out-Null
    foreach ($retryActionName in 'output', 'env', 'path', 'step_summary') {
        New-Item -ItemType File -Force -Path (Join-Path $retryActionFiles $retryActionName) | Out-Null
    }
    $env:GITHUB_OUTPUT = Join-Path $retryActionFiles 'output'
    $env:GITHUB_ENV = Join-Path $retryActionFiles 'env'
    $env:GITHUB_PATH = Join-Path $retryActionFiles 'path'
    $env:GITHUB_STEP_SUMMARY = Join-Path $retryActionFiles 'step_summary'
}

$retryActionFile = $env:RETRY_ACTION_COMMAND
if ($env:RETRY_ATTEMPT -and $env:RETRY_ATTEMPT -ne '1' -and $env:RETRY_ACTION_NEXT_COMMAND) {
    $retryActionFile = $env:RETRY_ACTION_NEXT_COMMAND
}
. $retryActionFile
