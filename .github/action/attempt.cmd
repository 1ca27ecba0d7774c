@echo off
rem One attempt of the action's command, for the shell cmd. retry runs this
rem file as a run: step runs its script (CALL under cmd /D /E:ON /V:OFF /S /C);
rem it CALLs the command's file and exits with its status. From the second
rem attempt on it runs new_command_on_retry's file when there is one.
if "%RETRY_ATTEMPT%"=="1" goto first
if not defined RETRY_ACTION_NEXT_COMMAND goto first
call "%RETRY_ACTION_NEXT_COMMAND%"
exit /b %ERRORLEVEL%
:first
call "%RETRY_ACTION_COMMAND%"
exit /b %ERRORLEVEL%
