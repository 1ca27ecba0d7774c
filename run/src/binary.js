// The retry binary, found by the root action's own .github/action/binary.sh,
// so that the release download, its checksum and the action's pins behave
// as they do for commands.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

// The same annotate and fail that run.sh gives binary.sh.
const SCRIPT = `
annotate() {
  local msg=$2
  msg=\${msg//%/%25}
  msg=\${msg//$'\\r'/%0D}
  msg=\${msg//$'\\n'/%0A}
  printf '::%s title=retry::%s\\n' "$1" "$msg" >&2
}
fail() { annotate error "$1"; }
temp=$1
if command -v cygpath >/dev/null 2>&1; then temp=$(cygpath -u "$temp"); fi
. "$2" || exit 1
resolve_binary "$3" "$4" >&2 || exit 1
if command -v cygpath >/dev/null 2>&1; then RETRY_BIN=$(cygpath -w "$RETRY_BIN"); fi
printf '%s' "$RETRY_BIN"
`;

// bash returns the bash to run binary.sh with: Git's on Windows, where the
// bash on PATH may be WSL's.
function bash(env) {
  if (process.platform === 'win32') {
    const git = path.join(env.ProgramFiles || 'C:\\Program Files', 'Git', 'bin', 'bash.exe');
    if (fs.existsSync(git)) return git;
  }
  return 'bash';
}

// findRetry returns the path of the retry to run, or null after binary.sh
// has written why there is none. ROOT is the repository of this action.
function findRetry({ root, version, env, temp }) {
  const script = path.join(root, '.github', 'action', 'binary.sh');
  const res = spawnSync(bash(env), ['-c', SCRIPT, 'bash', temp, script, version, env.GITHUB_ACTION_REF || ''], {
    env: {
      ...env,
      RETRY_ACTION_REF: env.GITHUB_ACTION_REF || '',
      RETRY_ACTION_REPOSITORY: env.GITHUB_ACTION_REPOSITORY || '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  if (res.error) {
    throw new Error(`could not run bash for ${script}: ${res.error.message}`);
  }
  if (res.status !== 0 || res.stdout === '') {
    return null;
  }
  return res.stdout;
}

// missingFlags returns the flags of FLAGS that HELP, retry's --help, does
// not list: a retry older than this action lacks them.
function missingFlags(flags, help) {
  const known = new Set(help.match(/--[a-z][a-z0-9-]*/g) || []);
  return [...new Set(flags.filter((f) => /^--[a-z]/.test(f)).map((f) => f.split('=')[0]))]
    .filter((f) => !known.has(f));
}

module.exports = { findRetry, missingFlags };
