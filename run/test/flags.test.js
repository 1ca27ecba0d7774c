'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { retryFlags, BadInput } = require('../src/flags');
const { reportOutputs } = require('../src/report');
const { parseActionRef } = require('../src/fetch');

const ROOT = path.resolve(__dirname, '..', '..');

// The inputs of each case, as a workflow's with: gives them.
const CASES = [
  { timeout_minutes: '1' },
  { timeout_seconds: '30', max_attempts: '5', retry_wait_seconds: '0' },
  { timeout_seconds: '2.5', retry_on: 'error', retry_wait_seconds: '3' },
  { timeout_seconds: '2', retry_on: 'timeout' },
  { timeout_seconds: '2', retry_on: 'success', retry_wait_seconds: '1' },
  { timeout_seconds: '2', retry_on_exit_code: '7' },
  { deadline: '10m', max_attempts: '0', delay: '1s', max_delay: '30s' },
  { timeout_seconds: '9', preset: 'curl, git\nnpm', retry_if: 'ECONNRESET\n(?i)try again\n', stop_if: 'denied', fail_if: 'WARN' },
  { timeout_seconds: '9', warning_on_retry: 'false', continue_on_error: 'true', budget: 'npm', name: 'setup' },
  { timeout_seconds: '9', on_retry_command: 'rm -rf x\necho again', args: '--kill-after=30s\n  --seed=1  \n' },
];

// rootFlags returns the flags that the root action's run.sh gives retry for
// INPUT, read from a fake retry on PATH that writes its arguments down.
function rootFlags(input) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flags-test-'));
  const fake = path.join(dir, 'retry');
  fs.writeFileSync(fake, `#!/bin/sh
case $1 in
  --help) echo "--deadline --delay --max-delay --jitter --retry-on --stop-on --until --preset --retry-if --stop-if --fail-if --budget --name --on-retry --ci-annotations --summary-file --kill-after --seed"; exit 0 ;;
  explain) exit 0 ;;
esac
printf '%s\\0' "$@" > "$FAKE_ARGS"
`, { mode: 0o755 });
  const env = {
    PATH: `${dir}${path.delimiter}${process.env.PATH}`,
    HOME: dir,
    RUNNER_OS: 'Linux',
    RUNNER_TEMP: dir,
    FAKE_ARGS: path.join(dir, 'args'),
    INPUT_COMMAND: 'true',
  };
  for (const [name, value] of Object.entries(input)) env[`INPUT_${name.toUpperCase()}`] = value;
  const res = spawnSync('bash', [path.join(ROOT, '.github', 'action', 'run.sh')], { env, encoding: 'utf8' });
  assert.equal(res.status, 0, `run.sh: ${res.stderr}`);
  const argv = fs.readFileSync(env.FAKE_ARGS, 'utf8').split('\0').slice(0, -1);
  fs.rmSync(dir, { recursive: true, force: true });
  assert.equal(argv[0], '--summary-file');
  return argv.slice(2, argv.indexOf('--'));
}

test('retryFlags gives retry the flags that the root action gives it', (t) => {
  if (process.platform === 'win32') {
    t.skip('the fake retry is a POSIX shell script');
    return;
  }
  if (spawnSync('bash', ['--version']).error) {
    t.skip('bash is not on PATH: the root action is a bash script');
    return;
  }
  for (const input of CASES) {
    assert.deepEqual(retryFlags(input).flags, rootFlags(input), JSON.stringify(input));
  }
});

test('retryFlags refuses bad inputs, as the root action does', () => {
  for (const [input, want] of [
    [{}, /timeout_minutes or timeout_seconds is required/],
    [{ timeout_seconds: '1', timeout_minutes: '1' }, /not both/],
    [{ timeout_seconds: 'x' }, /timeout_seconds must be a number, not "x"/],
    [{ timeout_seconds: '0' }, /must be more than 0/],
    [{ timeout_seconds: '1', max_attempts: 'three' }, /whole number/],
    [{ timeout_seconds: '1', max_attempts: '0' }, /needs a deadline/],
    [{ deadline: '10' }, /deadline: "10" has no unit: write 10s/],
    [{ timeout_seconds: '1', retry_on: 'sometimes' }, /retry_on must be any, error, timeout or success/],
    [{ timeout_seconds: '1', retry_on_exit_code: '256' }, /from 0 to 255/],
    [{ timeout_seconds: '1', retry_on: 'timeout', retry_on_exit_code: '2' }, /give one of them/],
    [{ timeout_seconds: '1', retry_on: 'success', preset: 'curl' }, /do not go with/],
    [{ timeout_seconds: '1', warning_on_retry: 'yes' }, /warning_on_retry must be true or false, not "yes"/],
    [{ timeout_seconds: '1', command: 'make' }, /command is an input of commands/],
    [{ timeout_seconds: '1', new_command_on_retry: 'make' }, /new_command_on_retry is an input of commands/],
    [{ timeout_seconds: '1', shell: 'bash' }, /shell is an input of commands/],
  ]) {
    assert.throws(() => retryFlags(input), (err) => err instanceof BadInput && want.test(err.message), JSON.stringify(input));
  }
});

test('retryFlags writes on_retry_command into a batch file on Windows', () => {
  const { flags } = retryFlags({ timeout_seconds: '1', on_retry_command: 'a\nb' }, { os: 'Windows', hookFile: 'C:\\t\\hook.cmd' });
  assert.deepEqual(flags.slice(flags.indexOf('--on-retry')), ['--on-retry', '"C:\\t\\hook.cmd"']);
});

test('reportOutputs words the outputs as the root action does', () => {
  const attempt = { attempt: 2, exit_code: 3, reason: 'exit 3 is in --retry-on' };
  assert.deepEqual(reportOutputs({ outcome: 'exhausted', exit_code: 3, attempts: [{}, attempt] }), {
    outcome: 'exhausted', total_attempts: '2', exit_code: '3', flaky: 'false',
    exit_error: 'gave up after 2 attempts: exit 3 (exit 3 is in --retry-on)',
  });
  assert.equal(reportOutputs({ outcome: 'deadline', exit_code: 124, attempts_total: 1, attempts: [{ attempt: 1, timed_out: true, reason: 'r' }] }).exit_error,
    'ran out of time after 1 attempt: timed out (r)');
  assert.equal(reportOutputs({ outcome: 'cancelled', exit_code: 130, attempts: [{ attempt: 1, signal: 'SIGINT' }] }).exit_error,
    'cancelled after 1 attempt: killed by SIGINT');
  assert.equal(reportOutputs({ outcome: 'budget', exit_code: 75, attempts: [] }).exit_error, 'budget before any attempt: exit 75');
  assert.equal(reportOutputs({ outcome: 'failed', exit_code: 1, attempts: [{ attempt: 4, exit_code: 1, reason: 'a\nb' }] }).exit_error,
    'run 4 failed: exit 1 (a b)');
});

// REPORTS are retry's reports of the cases that the root action's
// outputs.sh and reportOutputs read alike.
const failed = (attempt, exitCode) => ({ attempt, exit_code: exitCode, reason: `exit ${exitCode} is in --retry-on` });
const REPORTS = [
  { outcome: 'succeeded', exit_code: 0, attempts: [failed(1, 1), { attempt: 2, exit_code: 0 }] },
  // a flaky pass under --flaky-exit 7, and attempts run out under --exhausted-exit 75
  { outcome: 'succeeded', exit_code: 7, flaky: true, attempts: [failed(1, 1), { attempt: 2, exit_code: 0 }] },
  { outcome: 'exhausted', exit_code: 75, attempts: [failed(1, 5), failed(2, 5)] },
  // an exit 0 that --fail-if failed
  { outcome: 'exhausted', exit_code: 1, attempts: [{ attempt: 1, exit_code: 0, reason: 'stderr matches --fail-if' }] },
  { outcome: 'exhausted', exit_code: 124, attempts: [{ attempt: 1, timed_out: true, reason: 'timed out' }] },
  { outcome: 'cancelled', exit_code: 130, attempts: [{ attempt: 1, signal: 'SIGINT' }] },
  { outcome: 'budget', exit_code: 75, attempts: [] },
];

test('reportOutputs gives exit_code and flaky as the root action does', () => {
  const cases = [
    [REPORTS[0], { outcome: 'succeeded', total_attempts: '2', exit_code: '0', flaky: 'true' }],
    [REPORTS[1], { exit_code: '0', flaky: 'true', exit_error: 'passed on attempt 2 after a failed attempt (--flaky-exit): exit 7' }],
    [REPORTS[2], { exit_code: '5', flaky: 'false', exit_error: 'gave up after 2 attempts: exit 5 (exit 5 is in --retry-on)' }],
    [REPORTS[3], { exit_code: '1' }],
    [REPORTS[4], { exit_code: '124', exit_error: 'gave up after 1 attempt: timed out (timed out)' }],
    [REPORTS[6], { total_attempts: '0', exit_code: '75', flaky: 'false' }],
  ];
  for (const [report, want] of cases) {
    const got = reportOutputs(report);
    for (const [k, v] of Object.entries(want)) assert.equal(got[k], v, `${JSON.stringify(report)}: ${k}`);
  }
});

// rootOutputs returns the outputs that the root action's run.sh writes when
// retry, a fake on PATH, writes REPORT and exits with its exit_code.
function rootOutputs(report) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'report-test-'));
  fs.writeFileSync(path.join(dir, 'retry'), `#!/bin/sh
case $1 in
  --help) echo "--deadline"; exit 0 ;;
  explain) exit 0 ;;
esac
cp "$FAKE_REPORT" "$2"
exit ${report.exit_code}
`, { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'report.json'), JSON.stringify(report));
  const env = {
    PATH: `${dir}${path.delimiter}${process.env.PATH}`,
    HOME: dir,
    RUNNER_OS: 'Linux',
    RUNNER_TEMP: dir,
    GITHUB_OUTPUT: path.join(dir, 'output'),
    FAKE_REPORT: path.join(dir, 'report.json'),
    INPUT_COMMAND: 'true',
    INPUT_TIMEOUT_SECONDS: '1',
  };
  spawnSync('bash', [path.join(ROOT, '.github', 'action', 'run.sh')], { env, encoding: 'utf8' });
  const outputs = {};
  for (const line of fs.readFileSync(env.GITHUB_OUTPUT, 'utf8').split('\n').filter(Boolean)) {
    outputs[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return outputs;
}

test('reportOutputs reads a report as the root action\'s outputs.sh does', (t) => {
  if (process.platform === 'win32') {
    t.skip('the fake retry is a POSIX shell script');
    return;
  }
  if (spawnSync('bash', ['--version']).error) {
    t.skip('bash is not on PATH: the root action is a bash script');
    return;
  }
  for (const report of REPORTS) {
    const root = rootOutputs(report);
    const got = reportOutputs(report);
    for (const name of ['outcome', 'total_attempts', 'exit_code', 'flaky']) {
      assert.equal(got[name], root[name], `${JSON.stringify(report)}: ${name}`);
    }
    if (report.exit_code !== 0) {
      // the root action's flaky_exit input is --flaky-exit in args here
      assert.equal(got.exit_error, root.exit_error.replace('(flaky_exit)', '(--flaky-exit)'), `${JSON.stringify(report)}: exit_error`);
    }
  }
});

test('parseActionRef reads the action input as uses: does', () => {
  assert.deepEqual(parseActionRef(' ./tools/flaky '), { local: './tools/flaky', where: './tools/flaky' });
  assert.deepEqual(parseActionRef('actions/setup-node@v4'),
    { owner: 'actions', repo: 'setup-node', path: '', ref: 'v4', where: 'actions/setup-node@v4', repository: 'actions/setup-node' });
  assert.deepEqual(parseActionRef('github/codeql-action/init@releases/v3'),
    { owner: 'github', repo: 'codeql-action', path: 'init', ref: 'releases/v3', where: 'github/codeql-action/init@releases/v3', repository: 'github/codeql-action' });
  for (const [text, want] of [
    ['', /action is required/],
    ['actions/checkout', /must be OWNER\/REPO/],
    ['checkout@v4', /must be OWNER\/REPO/],
    ['../x@v1', /must be OWNER\/REPO/],
    ['o/r/../../x@v1', /leaves the repository/],
    ['docker://alpine:3', /Docker image/],
  ]) {
    assert.throws(() => parseActionRef(text), want, text);
  }
});
