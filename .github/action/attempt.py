"""One attempt of the action's command, for the shell python.

retry runs this file with python, as a run: step runs its script; it runs
the command's file in this same interpreter, as its __main__. From the
second attempt on it runs new_command_on_retry's file when there is one.
The attempt gets empty GITHUB_OUTPUT, GITHUB_ENV, GITHUB_PATH and
GITHUB_STEP_SUMMARY files of its own, in the directory RETRY_ACTION_FILES/N.
"""

import os
import runpy
import sys

files = os.environ.get("RETRY_ACTION_FILES")
if files:
    files = os.path.join(files, os.environ.get("RETRY_ATTEMPT") or "1")
    os.makedirs(files, exist_ok=True)
    for name, variable in (
        ("output", "GITHUB_OUTPUT"),
        ("env", "GITHUB_ENV"),
        ("path", "GITHUB_PATH"),
        ("step_summary", "GITHUB_STEP_SUMMARY"),
    ):
        open(os.path.join(files, name), "w").close()
        os.environ[variable] = os.path.join(files, name)
    del files

path = os.environ["RETRY_ACTION_COMMAND"]
if os.environ.get("RETRY_ATTEMPT", "1") != "1":
    path = os.environ.get("RETRY_ACTION_NEXT_COMMAND") or path

# As `python PATH` would have them.
sys.argv = [path]
sys.path[0] = os.path.dirname(os.path.abspath(path))
runpy.run_path(path, run_name="__main__")
