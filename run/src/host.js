// The three stages of the action at run/: pre runs the retried action's pre,
// main runs its main under retry, an attempt a process, and post runs its
// post at the end of the job.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');

const core = require('./core');
const { readMeta } = require('./meta');
const { parseWith, actionInputs, inputVariable } = require('./inputs');
const { makeContext } = require('./context');
const { condition, Undecidable } = require('./expr');
const { parseActionRef, actionDir } = require('./fetch');
const { BadInput, retryFlags, windowsHook, lines } = require('./flags');
const { findRetry, missingFlags } = require('./binary');
const { reportOutputs } = require('./report');

// The repository of this action: dist/ and src/ are both in run/.
const ROOT = path.resolve(__dirname, '..', '..');
const ATTEMPT_JS = path.join(__dirname, 'attempt.js');

// State this action keeps from one stage to the next (STATE_ + name).
const STATE = {
  dir: 'retry_action_dir',
  preRan: 'retry_pre_ran',
  theirs: 'retry_their_state',
  outcome: 'retry_outcome',
};

// ourInputs reads this action's inputs from INPUT_* as the runner sets them.
function ourInputs(env) {
  const get = (name) => env[inputVariable(name)];
  const names = [
    'action', 'with', 'github_token', 'max_attempts', 'timeout_minutes', 'timeout_seconds',
    'retry_wait_seconds', 'retry_on', 'retry_on_exit_code', 'on_retry_command', 'continue_on_error',
    'warning_on_retry', 'deadline', 'delay', 'max_delay', 'budget', 'preset', 'retry_if', 'stop_if',
    'fail_if', 'name', 'args', 'version', 'working-directory', 'command', 'new_command_on_retry', 'shell',
  ];
  const input = {};
  for (const name of names) {
    if (get(name) !== undefined) input[name] = get(name);
  }
  return input;
}

// baseEnv is the environment of the retried action's processes: the step's,
// without this action's inputs and state.
function baseEnv(env) {
  const out = {};
  for (const [k, v] of Object.entries(env)) {
    if (!/^(INPUT|STATE)_/i.test(k)) out[k] = v;
  }
  return out;
}

// Plan is what every stage needs to know about the retried action.
async function plan(env, { quiet = false } = {}) {
  const input = ourInputs(env);
  const ref = parseActionRef(input.action);
  const token = input.github_token || '';
  const stateDir = env[`STATE_${STATE.dir}`];
  const dir = stateDir || (await actionDir(ref, token, env));
  if (ref.local !== undefined && !fs.existsSync(dir)) {
    throw new Error(`action ${ref.where}: ${dir} does not exist (is the repository checked out in an earlier step?)`);
  }
  const meta = readMeta(dir, `action ${ref.where}`);
  const action = { path: dir, repository: ref.repository || '', ref: ref.ref || '' };
  const ctx = makeContext({ env, token, action });
  const withInputs = parseWith(input.with);
  const inputs = actionInputs(meta.inputs, withInputs, ctx);
  if (!quiet) {
    for (const w of inputs.warnings) core.annotate('warning', w);
  }
  let cwd = env.GITHUB_WORKSPACE || process.cwd();
  const wd = (input['working-directory'] || '').trim();
  if (wd !== '') {
    cwd = path.resolve(cwd, wd);
    if (!fs.statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) {
      throw new BadInput(`working-directory ${wd} is not a directory (${cwd})`);
    }
  }
  const runEnv = {
    ...baseEnv(env),
    ...inputs.env,
    GITHUB_ACTION_PATH: dir,
    GITHUB_ACTION_REPOSITORY: action.repository,
    GITHUB_ACTION_REF: action.ref,
  };
  return { input, ref, dir, meta, action, token, inputs, runEnv, cwd };
}

// decide evaluates the pre-if or post-if CONDITION, saying so when it cannot
// be decided; then it runs, as the runner's default always() would.
function decide(kind, text, p, env, status, note) {
  if (!text) return true;
  const ctx = makeContext({ env, token: p.token, action: p.action, status });
  try {
    const run = condition(text, ctx);
    if (note) note(run);
    if (!run) console.log(`${kind} of ${p.ref.where}, ${text}, is false: it does not run`);
    return run;
  } catch (err) {
    if (!(err instanceof Undecidable)) throw err;
    core.annotate('warning', `${kind} of ${p.ref.where}, ${text}, cannot be decided outside the runner (${err.message}): it runs, as with the default always()`);
    return true;
  }
}

// freshFiles makes empty GITHUB_OUTPUT, GITHUB_ENV, GITHUB_PATH,
// GITHUB_STEP_SUMMARY and GITHUB_STATE files in DIR.
function freshFiles(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const files = {};
  for (const name of ['OUTPUT', 'ENV', 'PATH', 'STEP_SUMMARY', 'STATE']) {
    files[`GITHUB_${name}`] = path.join(dir, name.toLowerCase());
    fs.writeFileSync(files[`GITHUB_${name}`], '');
  }
  return files;
}

// stateVariables reads a GITHUB_STATE file: its names and values, which
// withState makes STATE_* variables.
function stateVariables(file) {
  const out = {};
  for (const [name, value] of core.readFileCommands(file)) out[name] = value;
  return out;
}

// withState returns ENV with STATE_NAME for each NAME of STATE.
function withState(env, state) {
  const out = { ...env };
  for (const [name, value] of Object.entries(state)) out[`STATE_${name}`] = value;
  return out;
}

// runNode runs SCRIPT of the retried action with node, and returns its exit
// status.
function runNode(p, script, env) {
  const res = spawnSync(process.execPath, [path.join(p.dir, script)], { stdio: 'inherit', env, cwd: p.cwd });
  if (res.error) throw res.error;
  return res.status === null ? 128 + (os.constants.signals[res.signal] || 0) : res.status;
}

// handOn appends the lines of FROM, a file of an attempt or of a stage, to
// the job's file that the variable NAME names.
function handOn(name, from, env) {
  const to = env[name];
  if (!to || !fs.existsSync(from)) return;
  let text = fs.readFileSync(from, 'utf8');
  if (text === '') return;
  if (name === 'GITHUB_OUTPUT' || name === 'GITHUB_ENV') {
    // read and written again, so that a malformed file is an error here
    text = core.parseFileCommands(text).map(([k, v]) => core.fileLine(k, v)).join('');
  } else if (!text.endsWith('\n')) {
    text += '\n';
  }
  fs.appendFileSync(to, text);
}

// runPre runs the retried action's pre, once. FILES are the files it
// writes: the job's, or fresh ones when main runs it; it returns its exit
// status and state.
function runPre(p, env, files) {
  const dir = fs.mkdtempSync(path.join(tempDir(env), 'retry-pre-'));
  const stateFile = path.join(dir, 'state');
  fs.writeFileSync(stateFile, '');
  console.log(`Running the pre of ${p.ref.where}`);
  try {
    const status = runNode(p, p.meta.pre, { ...p.runEnv, ...files, GITHUB_STATE: stateFile });
    return { status, state: stateVariables(stateFile) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function tempDir(env) {
  return env.RUNNER_TEMP || os.tmpdir();
}

// pre is this action's pre: it fetches the retried action and runs its pre.
// Anything wrong is left for main to report, where it fails the step.
async function pre(env = process.env) {
  let p;
  try {
    retryFlags(ourInputs(env));
    p = await plan(env, { quiet: true });
  } catch (err) {
    return 0;
  }
  core.saveState(STATE.dir, p.dir);
  if (!p.meta.pre || p.inputs.problems.length > 0) return 0;
  if (!decide('pre-if', p.meta.preIf, p, env, { success: true, failure: false, cancelled: false })) {
    core.saveState(STATE.preRan, 'skipped');
    return 0;
  }
  const { status, state } = runPre(p, env, {});
  core.saveState(STATE.preRan, 'yes');
  core.saveState(STATE.theirs, JSON.stringify(state));
  if (status !== 0) {
    core.annotate('error', `the pre of ${p.ref.where} failed: exit ${status}`);
  }
  return status;
}

// actionName is the name of the retried action in retry's annotations and
// report: the last part of its path or repository, in the letters --name
// takes.
function actionName(ref) {
  const parts = (ref.local !== undefined ? ref.local : `${ref.repo}/${ref.path}`).split(/[\\/]/).filter((s) => s && s !== '.');
  return (parts.pop() || 'action').replace(/[^A-Za-z0-9_.-]/g, '-');
}

// bad ends main on a bad input: nothing has run. Its annotation is already
// written when ANNOTATED.
function bad(message, annotated = false) {
  if (!annotated) core.annotate('error', message);
  core.setOutput('total_attempts', '0');
  core.setOutput('exit_code', '125');
  core.setOutput('exit_error', message);
  core.setOutput('flaky', 'false');
  core.saveState(STATE.outcome, 'failure');
  return 125;
}

// main is this action's main: retry runs the retried action's main, an
// attempt a node process with fresh files, and the last attempt's files are
// handed on to the job.
async function main(env = process.env) {
  let p;
  let flags;
  let continueOnError;
  const osName = env.RUNNER_OS || { win32: 'Windows', darwin: 'macOS' }[process.platform] || 'Linux';
  const work = fs.mkdtempSync(path.join(tempDir(env), 'retry-run-'));
  // fromJSON of an empty output is an error in a later step's expression:
  // outputs is an object from the start, replaced once an attempt has run.
  core.setOutput('outputs', '{}');
  try {
    const input = ourInputs(env);
    ({ flags, continueOnError } = retryFlags(input, { os: osName, hookFile: path.join(work, 'hook.cmd') }));
    if (osName === 'Windows' && (input.on_retry_command || '').trim() !== '') {
      fs.writeFileSync(path.join(work, 'hook.cmd'), windowsHook(input.on_retry_command));
    }
    p = await plan(env);
  } catch (err) {
    // a bad input, or an action that cannot be fetched or is not run here
    return bad(err.message);
  }
  core.saveState(STATE.dir, p.dir);
  if ((p.input.name || '').trim() === '') {
    // annotations and the report name the action, not node
    flags = ['--name', actionName(p.ref), ...flags];
  }
  if (p.inputs.problems.length > 0) {
    for (const problem of p.inputs.problems.slice(1)) core.annotate('error', problem);
    return bad(p.inputs.problems[0]);
  }

  // Their state: from our pre, or from their pre run here when ours did not
  // run it (the runner runs no pre for an action of the workspace, such as
  // uses: ./run, nor can a pre see an action that a later checkout brings).
  let state = {};
  let attemptEnv = p.runEnv;
  const preRan = env[`STATE_${STATE.preRan}`];
  if (preRan === 'yes') {
    state = JSON.parse(env[`STATE_${STATE.theirs}`] || '{}');
  } else if (p.meta.pre && preRan !== 'skipped' &&
    decide('pre-if', p.meta.preIf, p, env, { success: true, failure: false, cancelled: false })) {
    const files = freshFiles(path.join(work, 'pre'));
    const ran = runPre(p, env, files);
    state = ran.state;
    if (ran.status !== 0) {
      return bad(`the pre of ${p.ref.where} failed: exit ${ran.status}`);
    }
    // what it wrote for later steps, the attempts among them
    const added = core.readFileCommands(files.GITHUB_ENV);
    const paths = fs.readFileSync(files.GITHUB_PATH, 'utf8').split(/\r?\n/).filter(Boolean);
    attemptEnv = { ...attemptEnv, ...Object.fromEntries(added) };
    if (paths.length > 0) {
      const key = Object.keys(attemptEnv).find((k) => k.toUpperCase() === 'PATH') || 'PATH';
      attemptEnv[key] = [...paths.reverse(), attemptEnv[key]].join(path.delimiter);
    }
    handOn('GITHUB_ENV', files.GITHUB_ENV, env);
    handOn('GITHUB_PATH', files.GITHUB_PATH, env);
    handOn('GITHUB_STEP_SUMMARY', files.GITHUB_STEP_SUMMARY, env);
  }
  core.saveState(STATE.theirs, JSON.stringify(state));

  const retry = findRetry({ root: ROOT, version: (p.input.version || '').trim(), env, temp: tempDir(env) });
  if (retry === null) {
    core.saveState(STATE.outcome, 'failure');
    return 1;
  }
  const help = spawnSync(retry, ['--help'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const helpText = `${help.stdout || ''}${help.stderr || ''}`;
  if (!helpText.includes('--deadline')) {
    core.annotate('error', `${retry} is not b0a38808/retry (its --help has no --deadline): give the version input to download it`);
    core.saveState(STATE.outcome, 'failure');
    return 1;
  }
  // the flags of args are the user's, last: retry refuses those it lacks
  const ourFlags = flags.slice(0, flags.length - lines(p.input.args).length);
  const missing = missingFlags(ourFlags, helpText);
  if (missing.length > 0) {
    return bad(`${retry} is older than this action: it has no ${missing.join(', ')}; give the version input, such as the release of the action's tag`);
  }
  const theirMain = path.join(p.dir, p.meta.main);
  const command = [process.execPath, '--require', ATTEMPT_JS, theirMain];
  const explain = spawnSync(retry, ['explain', ...flags, '--', ...command], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
  if (explain.status !== 0) {
    const problems = (explain.stderr || '').split('\n').filter(Boolean);
    for (const line of problems) core.annotate('error', line);
    return bad(problems[0] || `retry explain exited ${explain.status}`, problems.length > 0);
  }

  const report = path.join(work, 'report.json');
  const attempts = path.join(work, 'attempts');
  fs.mkdirSync(attempts);
  const child = spawn(retry, ['--summary-file', report, ...flags, '--', ...command], {
    stdio: 'inherit',
    cwd: p.cwd,
    env: { ...withState(attemptEnv, state), RETRY_RUN_FILES: attempts },
  });
  // The runner signals this process alone when the job is cancelled.
  const forward = (sig) => child.kill(sig);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  const status = await new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve(code === null ? 128 + (os.constants.signals[signal] || 0) : code));
  });
  process.off('SIGINT', forward);
  process.off('SIGTERM', forward);

  // The last attempt's files, handed on to the job.
  const last = fs.readdirSync(attempts).filter((n) => /^\d+$/.test(n)).sort((a, b) => a - b).pop();
  let outputs = '{}';
  if (last !== undefined) {
    const dir = path.join(attempts, last);
    try {
      outputs = core.outputsJSON(fs.readFileSync(path.join(dir, 'output'), 'utf8'));
      handOn('GITHUB_OUTPUT', path.join(dir, 'output'), env);
    } catch (err) {
      core.annotate('warning', `the GITHUB_OUTPUT of ${p.ref.where}'s last attempt: ${err.message}`);
    }
    try {
      handOn('GITHUB_ENV', path.join(dir, 'env'), env);
    } catch (err) {
      core.annotate('warning', `the GITHUB_ENV of ${p.ref.where}'s last attempt: ${err.message}`);
    }
    handOn('GITHUB_PATH', path.join(dir, 'path'), env);
    handOn('GITHUB_STEP_SUMMARY', path.join(dir, 'step_summary'), env);
    try {
      Object.assign(state, stateVariables(path.join(dir, 'state')));
      core.saveState(STATE.theirs, JSON.stringify(state));
    } catch (err) {
      core.annotate('warning', `the GITHUB_STATE of ${p.ref.where}'s last attempt: ${err.message}`);
    }
  }
  // The attempts' files may hold what the action exported: only the
  // report stays, for later steps.
  fs.rmSync(attempts, { recursive: true, force: true });
  fs.rmSync(path.join(work, 'pre'), { recursive: true, force: true });
  fs.rmSync(path.join(work, 'hook.cmd'), { force: true });
  core.setOutput('outputs', outputs);
  core.setOutput('report', report);

  let fields = { exit_code: String(status) };
  let exitError = `retry exited ${status} and wrote no report`;
  try {
    const r = reportOutputs(JSON.parse(fs.readFileSync(report, 'utf8')));
    exitError = r.exit_error;
    fields = { outcome: r.outcome, total_attempts: r.total_attempts, exit_code: r.exit_code, flaky: r.flaky };
  } catch (err) {
    if (err.code !== 'ENOENT') core.annotate('warning', `the report ${report}: ${err.message}`);
  }
  for (const [k, v] of Object.entries(fields)) core.setOutput(k, v);
  const outcome = status === 0 ? 'success' : fields.outcome === 'cancelled' ? 'cancelled' : 'failure';
  core.saveState(STATE.outcome, outcome);
  if (status === 0) return 0;
  core.setOutput('exit_error', exitError);
  if (continueOnError) {
    core.annotate('warning', exitError);
    return 0;
  }
  core.annotate('error', exitError);
  return status;
}

// post is this action's post: it runs the retried action's post once, at
// the end of the job, after a failure too, as its post-if says.
async function post(env = process.env) {
  if (!env[`STATE_${STATE.dir}`]) return 0;
  let p;
  try {
    p = await plan(env, { quiet: true });
  } catch (err) {
    core.annotate('warning', `the post of the retried action cannot run: ${err.message}`);
    return 0;
  }
  if (!p.meta.post) return 0;
  // The step's own result stands for the job's: a post cannot see whether a
  // later step failed. Main saved none when it ended before it could.
  const outcome = env[`STATE_${STATE.outcome}`] || 'failure';
  const status = { success: outcome === 'success', failure: outcome === 'failure', cancelled: outcome === 'cancelled' };
  const note = () => {
    if (outcome === 'success' && !/^\s*(\$\{\{\s*)?always\(\)\s*(\}\})?\s*$/.test(p.meta.postIf)) {
      console.log(`post-if of ${p.ref.where}, ${p.meta.postIf}: decided by this step's success; a post cannot see whether a later step of the job failed`);
    }
  };
  if (!decide('post-if', p.meta.postIf || 'always()', p, env, status, p.meta.postIf ? note : null)) return 0;
  if (p.inputs.problems.length > 0) return 0;
  const state = JSON.parse(env[`STATE_${STATE.theirs}`] || '{}');
  console.log(`Running the post of ${p.ref.where}`);
  const code = runNode(p, p.meta.post, withState(p.runEnv, state));
  if (code !== 0) core.annotate('error', `the post of ${p.ref.where} failed: exit ${code}`);
  return code;
}

// runStage runs STAGE, one of pre, main and post, and exits with its status
// as soon as it is done: an idle connection of fetch's would otherwise keep
// node running for seconds. An error it throws is an annotation.
function runStage(stage) {
  stage().then(
    (code) => process.exit(code),
    (err) => {
      core.annotate('error', String(err && err.stack ? err.stack : err));
      process.exit(1);
    },
  );
}

module.exports = { pre, main, post, runStage, ourInputs, baseEnv };
