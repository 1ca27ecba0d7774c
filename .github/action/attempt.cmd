@echo off
rem One attempt of the action's command, for the shell cmd. retry runs this
rem file as a run: step runs its script (CALL under cmd /D /E:ON /V:OFF /S /C);
rem it CALLs the command's file and exits with its status. From the second
rem attempt on it runs new_command_on_retry's file when there is one. The
rem attempt gets empty GITHUB_OUTPUT, GITHUB_ENV, GITHUB_PATH and
rem GITHUB_STEP_SUMMARY files of its own, in the directory
rem RETRY_ACTION_FILES\N.
if not defined RETRY_ACTION_FILES goto files
set "RETRY_ACTION_FILES=%RETRY_ACTION_FILES%\%RETRY_ATTEMPT%"
if not exist "%RETRY_ACTION_FILES%\" mkdir "%RETRY_ACTION_FILES%"
type nul >"%RETRY_ACTION_FILES%\output"
type nul >"%RETRY_ACTION_FILES%\env"
type nul >"%RETRY_ACTION_FILES%\path"
type nul >"%RETRY_ACTION_FILES%\step_summary"
set "GITHUB_OUTPUT=%RETRY_ACTION_FILES%\output"
set "GITHUB_ENV=%RETRY_ACTION_FILES%\env"
set "GITHUB_PATH=%RETRY_ACTION_FILES%\path"
set "GITHUB_STEP_SUMMARY=%RETRY_ACTION_FILES%\step_summary"
:files
if "%RETRY_ATTEMPT%"=="1" goto first
if not defined RETRY_ACTION_NEXT_COMMAND goto first
call "%RETRY_ACTION_NEXT_COMMAND%"
exit /b %ERRORLEVEL%
:first
call "%RETRY_ACTION_COMMAND%"
exit /b %ERRORLEVEL%
