// The step's outputs from retry's JSON report, with the values and words of
// the root action's .github/action/outputs.sh (whose flaky_exit and
// exhausted_exit inputs are --flaky-exit and --exhausted-exit in args here).
'use strict';

const WHAT = {
  exhausted: 'gave up after',
  permanent: 'stopped by a permanent failure after',
  deadline: 'ran out of time after',
  cancelled: 'cancelled after',
  budget: 'stopped by the retry budget after',
};

function result(a) {
  if (a.timed_out) return 'timed out';
  if (a.signal) return `killed by ${a.signal}`;
  return `exit ${a.exit_code}`;
}

// code is the step's exit_code, as nick-fields/retry has it: the last
// attempt's exit status, where retry's own may be --flaky-exit's or
// --exhausted-exit's (given in args): 124 for a timeout, 1 for an exit 0
// that --fail-if failed, 128+N for a signal.
function code(r, last) {
  if (r.outcome === 'succeeded') return 0;
  if ((r.outcome === 'exhausted' || r.outcome === 'budget') && last !== null &&
    !last.timed_out && !last.signal && last.exit_code !== undefined && last.exit_code !== null) {
    return last.exit_code === 0 ? 1 : last.exit_code;
  }
  return r.exit_code;
}

// reportOutputs returns outcome, total_attempts, exit_code, flaky and
// exit_error of the report R (parsed JSON).
function reportOutputs(r) {
  const attempts = r.attempts || [];
  const n = r.attempts_total !== undefined ? r.attempts_total : attempts.length;
  const last = attempts.length > 0 ? attempts[attempts.length - 1] : null;
  const what = WHAT[r.outcome] || `${r.outcome} after`;
  const plural = `${n} attempt${n === 1 ? '' : 's'}`;
  let error;
  if (last === null) error = `${r.outcome} before any attempt: exit ${r.exit_code}`;
  else if (r.outcome === 'succeeded') error = `passed on attempt ${last.attempt} after a failed attempt (--flaky-exit): exit ${r.exit_code}`;
  else if (r.outcome === 'failed') error = `run ${last.attempt} failed: ${result(last)} (${last.reason})`;
  else if (r.outcome === 'cancelled') error = `${what} ${plural}: ${result(last)}`;
  else error = `${what} ${plural}: ${result(last)} (${last.reason})`;
  const flaky = r.flaky !== undefined && r.flaky !== null ? r.flaky : r.outcome === 'succeeded' && n > 1;
  return {
    outcome: r.outcome,
    total_attempts: String(n),
    exit_code: String(code(r, last)),
    flaky: String(flaky),
    exit_error: error.replace(/[\r\n]+/g, ' '),
  };
}

module.exports = { reportOutputs };
