// A retried action's inputs: the with input, read as a YAML mapping, and
// the action's defaults, turned into INPUT_* variables as the runner sets
// them.
'use strict';

const { parseYAML } = require('./meta');
const { interpolate, Undecidable } = require('./expr');

// inputVariable is the environment variable of input NAME, as the runner
// names it: upper case, spaces to _, dashes kept.
function inputVariable(name) {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;
}

// parseWith reads the with input, a YAML mapping of input names to values
// kept as written; empty is no inputs. It throws on anything else.
function parseWith(text) {
  if (String(text || '').trim() === '') {
    return new Map();
  }
  let value;
  try {
    value = parseYAML(text);
  } catch (err) {
    throw new Error(`with is not YAML: ${err.message.split('\n')[0]}`);
  }
  if (value === null || value === undefined) {
    return new Map();
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new Error('with must be a YAML mapping of inputs to values, such as "node-version: 20"');
  }
  const inputs = new Map();
  for (const [name, v] of Object.entries(value)) {
    if (v !== null && typeof v === 'object') {
      throw new Error(`with: ${name} must be a string, not a ${Array.isArray(v) ? 'list' : 'mapping'} (write a list as lines in a | block)`);
    }
    inputs.set(name, v === null ? '' : v);
  }
  return inputs;
}

// actionInputs returns the INPUT_* variables of a retried action whose
// declared inputs are DECLARED (from readMeta) given WITH (from parseWith),
// defaults' expressions evaluated in CTX. It returns the variables, the
// problems that must fail the step, and warnings.
function actionInputs(declared, withInputs, ctx) {
  const env = {};
  const problems = [];
  const warnings = [];
  const given = new Map();
  for (const [name, value] of withInputs) {
    given.set(name.toLowerCase(), { name, value });
  }
  const known = new Set(declared.map((i) => i.name.toLowerCase()));
  const unexpected = [...withInputs.keys()].filter((n) => !known.has(n.toLowerCase()));
  if (unexpected.length > 0) {
    warnings.push(`with has input${unexpected.length > 1 ? 's' : ''} that the action does not declare, passed on as the runner does: ${unexpected.join(', ')}`);
    for (const name of unexpected) {
      env[inputVariable(name)] = withInputs.get(name);
    }
  }
  for (const input of declared) {
    const found = given.get(input.name.toLowerCase());
    if (found !== undefined) {
      env[inputVariable(input.name)] = found.value;
      continue;
    }
    if (input.default === undefined) {
      if (input.required) {
        problems.push(`input ${input.name} is required by the action and not in with`);
      }
      continue;
    }
    try {
      env[inputVariable(input.name)] = interpolate(input.default, ctx);
    } catch (err) {
      if (!(err instanceof Undecidable)) {
        throw err;
      }
      problems.push(`the default of input ${input.name}, ${input.default.trim()}, cannot be resolved outside the runner (${err.message}): give ${input.name} in with`);
    }
  }
  return { env, problems, warnings };
}

module.exports = { inputVariable, parseWith, actionInputs };
