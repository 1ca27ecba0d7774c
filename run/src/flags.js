// retry's flags from this action's inputs, with the meanings that the root
// action's .github/action/inputs.sh gives them, less those of a command
// (command, shell, new_command_on_retry).
'use strict';

// BadInput ends the step before anything runs: exit status 125.
class BadInput extends Error {}

const trim = (v) => String(v === undefined ? '' : v).trim();
const isNumber = (v) => /^[0-9]+(\.[0-9]+)?$/.test(v);
const isZero = (v) => /^0*(\.0*)?$/.test(v);

// truth reads a boolean as the Actions toolkit does.
function truth(name, value) {
  const v = trim(value);
  if (['true', 'True', 'TRUE'].includes(v)) return true;
  if (['false', 'False', 'FALSE'].includes(v)) return false;
  throw new BadInput(`${name} must be true or false, not "${value}"`);
}

function number(name, value) {
  if (!isNumber(value)) {
    throw new BadInput(`${name} must be a number, not "${value}"`);
  }
}

// lines returns the non-blank lines of TEXT.
function lines(text) {
  return String(text || '').split('\n').map((l) => l.replace(/\r$/, '')).filter((l) => l.trim() !== '');
}

// retryFlags returns retry's flags for INPUT (a map of input names to
// values; a missing one has its action.yml default), and whether the step
// passes when retry fails. It throws BadInput.
function retryFlags(input, { os = 'Linux', hookFile } = {}) {
  const get = (name, def = '') => (input[name] === undefined ? def : input[name]);
  for (const name of ['command', 'new_command_on_retry', 'shell']) {
    if (trim(get(name)) !== '') {
      throw new BadInput(`${name} is an input of commands: this action retries the action that the action input names, the same each attempt (for a command, use b0a38808/retry)`);
    }
  }
  const timeoutMinutes = trim(get('timeout_minutes'));
  const timeoutSeconds = trim(get('timeout_seconds'));
  const maxAttempts = trim(get('max_attempts', '3'));
  const waitSeconds = trim(get('retry_wait_seconds', '10'));
  const retryOn = trim(get('retry_on', 'any'));
  const code = trim(get('retry_on_exit_code'));
  const deadline = trim(get('deadline'));
  const delay = trim(get('delay'));
  const maxDelay = trim(get('max_delay'));
  const presets = get('preset');
  const retryIf = get('retry_if');
  const stopIf = get('stop_if');
  const failIf = get('fail_if');
  const budget = trim(get('budget'));
  const name = trim(get('name'));
  const onRetry = get('on_retry_command');

  for (const [input, value] of [['deadline', deadline], ['delay', delay], ['max_delay', maxDelay]]) {
    if (isNumber(value) && !isZero(value)) {
      throw new BadInput(`${input}: "${value}" has no unit: write ${value}s`);
    }
  }
  if (!/^[0-9]+$/.test(maxAttempts)) {
    throw new BadInput(`max_attempts must be a whole number, not "${maxAttempts}"`);
  }
  if (/^0+$/.test(maxAttempts) && deadline === '') {
    throw new BadInput('max_attempts 0 means no limit, and needs a deadline');
  }
  const flags = ['-a', maxAttempts];
  if (timeoutMinutes !== '' && timeoutSeconds !== '') {
    throw new BadInput('give timeout_minutes or timeout_seconds, not both');
  }
  if (timeoutMinutes !== '') {
    number('timeout_minutes', timeoutMinutes);
    if (isZero(timeoutMinutes)) throw new BadInput('timeout_minutes must be more than 0');
    flags.push('-t', `${timeoutMinutes}m`);
  } else if (timeoutSeconds !== '') {
    number('timeout_seconds', timeoutSeconds);
    if (isZero(timeoutSeconds)) throw new BadInput('timeout_seconds must be more than 0');
    flags.push('-t', `${timeoutSeconds}s`);
  } else if (deadline === '') {
    throw new BadInput('timeout_minutes or timeout_seconds is required (or deadline, which bounds the whole step)');
  }
  if (deadline !== '') flags.push('-d', deadline);

  if (code !== '' && !(/^[0-9]{1,3}$/.test(code) && Number(code) <= 255)) {
    throw new BadInput(`retry_on_exit_code must be an exit status from 0 to 255, not "${code}"`);
  }
  const rules = trim(`${presets}${retryIf}`) !== '';
  switch (retryOn) {
    case 'any':
    case 'error':
      if (retryOn === 'error' || code !== '') flags.push('--stop-on', 'timeout');
      if (code !== '') flags.push('--retry-on', code);
      else if (!rules) flags.push('--retry-on', '1-255');
      break;
    case 'timeout':
      if (code !== '') throw new BadInput(`retry_on timeout retries only timeouts, and retry_on_exit_code only exit ${code}: give one of them`);
      flags.push('--retry-on', 'timeout');
      break;
    case 'success':
      if (code !== '') throw new BadInput('retry_on success runs the command until it fails, which retry_on_exit_code does not go with');
      if (trim(`${presets}${retryIf}${stopIf}`) !== '') {
        throw new BadInput('retry_on success runs the command until it fails, which preset, retry_if and stop_if do not go with');
      }
      flags.push('--until', 'fail');
      break;
    default:
      throw new BadInput(`retry_on must be any, error, timeout or success, not "${retryOn}"`);
  }

  number('retry_wait_seconds', waitSeconds);
  if (delay !== '' || maxDelay !== '') {
    if (delay !== '') flags.push('--delay', delay);
    if (maxDelay !== '') flags.push('--max-delay', maxDelay);
  } else if (retryOn === 'success') {
    if (!isZero(waitSeconds)) flags.push('--delay', `${waitSeconds}s`);
  } else if (isZero(waitSeconds)) {
    flags.push('--max-delay', '0');
  } else {
    flags.push('--delay', `${waitSeconds}s`, '--max-delay', `${waitSeconds}s`, '--jitter', 'none');
  }

  if (!truth('warning_on_retry', get('warning_on_retry', 'true'))) flags.push('--ci-annotations', 'none');
  const continueOnError = truth('continue_on_error', get('continue_on_error', 'false'));

  for (const preset of String(presets || '').split(/[\s,]+/).filter(Boolean)) {
    flags.push('--preset', preset);
  }
  for (const [flag, text] of [['--retry-if', retryIf], ['--stop-if', stopIf], ['--fail-if', failIf]]) {
    for (const line of lines(text)) flags.push(flag, line);
  }
  if (budget !== '') flags.push('--budget', budget);
  if (name !== '') flags.push('--name', name);
  if (trim(onRetry) !== '') {
    if (os === 'Windows') {
      // retry runs --on-retry with cmd /d /s /c on Windows, which takes one
      // line: the lines go into a batch file, which it runs.
      flags.push('--on-retry', `"${hookFile}"`);
    } else {
      flags.push('--on-retry', onRetry);
    }
  }
  // Further flags last, so that they can override the ones above.
  for (const line of lines(get('args'))) flags.push(line.trim());
  return { flags, continueOnError };
}

// windowsHook is the batch file of on_retry_command on Windows.
function windowsHook(onRetry) {
  return `@echo off\r\n${String(onRetry).replace(/\n$/, '').replace(/\r?\n/g, '\r\n')}\r\n`;
}

module.exports = { BadInput, retryFlags, windowsHook, truth, lines };
