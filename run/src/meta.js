// A retried action's metadata (action.yml or action.yaml), read and
// checked: which actions this host runs, and which it refuses and why.
// The keys are those of
// https://docs.github.com/en/actions/reference/workflows-and-actions/metadata-syntax
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');

// RUNTIMES are the runs.using values this host runs, with the node that
// runs it.
const RUNTIMES = ['node20', 'node24'];

// parseYAML reads TEXT with every scalar a string, as the runner reads
// inputs: `1.10` stays 1.10, `on` stays on.
function parseYAML(text) {
  return YAML.parse(text, { schema: 'failsafe' });
}

// readMeta reads the metadata of the action in DIR. It throws an Error whose
// message says what is wrong, for an action this host does not run too.
function readMeta(dir, where) {
  let file;
  let text;
  for (const name of ['action.yml', 'action.yaml']) {
    try {
      text = fs.readFileSync(path.join(dir, name), 'utf8');
      file = name;
      break;
    } catch (err) {
      if (err.code !== 'ENOENT' && err.code !== 'ENOTDIR') {
        throw err;
      }
    }
  }
  if (file === undefined) {
    throw new Error(`${where} has no action.yml or action.yaml: it is not an action`);
  }
  let meta;
  try {
    meta = parseYAML(text);
  } catch (err) {
    throw new Error(`${where}/${file}: ${err.message.split('\n')[0]}`);
  }
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) {
    throw new Error(`${where}/${file} is not a YAML mapping`);
  }
  const runs = meta.runs;
  if (runs === null || typeof runs !== 'object' || typeof runs.using !== 'string') {
    throw new Error(`${where}/${file} has no runs.using`);
  }
  const using = runs.using.trim().toLowerCase();
  if (using === 'composite') {
    throw new Error(`${where} is a composite action, which retry cannot retry: the \${{ }} expressions of its steps need GitHub's runner to evaluate them; retry the commands of its steps with b0a38808/retry, a step each`);
  }
  if (using === 'docker') {
    throw new Error(`${where} is a Docker action, which retry does not retry: its image and the \${{ }} in its runs.args need the runner's Docker support; retry the docker run command with b0a38808/retry`);
  }
  if (!RUNTIMES.includes(using)) {
    throw new Error(`${where} runs with ${runs.using}: retry runs JavaScript actions of ${RUNTIMES.join(' or ')}`);
  }
  if (typeof runs.main !== 'string' || runs.main.trim() === '') {
    throw new Error(`${where}/${file} has no runs.main`);
  }
  const inputs = [];
  const declared = meta.inputs && typeof meta.inputs === 'object' ? meta.inputs : {};
  for (const [name, spec] of Object.entries(declared)) {
    const s = spec && typeof spec === 'object' ? spec : {};
    inputs.push({
      name,
      required: typeof s.required === 'string' && s.required.trim().toLowerCase() === 'true',
      default: typeof s.default === 'string' ? s.default : undefined,
    });
  }
  const str = (v) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
  return {
    file,
    using,
    main: runs.main.trim(),
    pre: str(runs.pre),
    preIf: str(runs['pre-if']),
    post: str(runs.post),
    postIf: str(runs['post-if']),
    inputs,
  };
}

module.exports = { readMeta, parseYAML, RUNTIMES };
