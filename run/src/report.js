// The step's outputs from retry's JSON report, worded as the root action's
// .github/action/outputs.sh words them.
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

// reportOutputs returns outcome, total_attempts, exit_code and exit_error
// of the report R (parsed JSON).
function reportOutputs(r) {
  const attempts = r.attempts || [];
  const n = r.attempts_total !== undefined ? r.attempts_total : attempts.length;
  const last = attempts.length > 0 ? attempts[attempts.length - 1] : null;
  const what = WHAT[r.outcome] || `${r.outcome} after`;
  const plural = `${n} attempt${n === 1 ? '' : 's'}`;
  let error;
  if (last === null) error = `${r.outcome} before any attempt: exit ${r.exit_code}`;
  else if (r.outcome === 'failed') error = `run ${last.attempt} failed: ${result(last)} (${last.reason})`;
  else if (r.outcome === 'cancelled') error = `${what} ${plural}: ${result(last)}`;
  else error = `${what} ${plural}: ${result(last)} (${last.reason})`;
  return {
    outcome: r.outcome,
    total_attempts: String(n),
    exit_code: String(r.exit_code),
    exit_error: error.replace(/[\r\n]+/g, ' '),
  };
}

module.exports = { reportOutputs };
