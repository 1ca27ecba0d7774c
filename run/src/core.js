// The runner's side of a JavaScript action, written with Node's built-ins:
// workflow commands on stderr, and the files GITHUB_OUTPUT, GITHUB_STATE and
// the like, in the formats of
// https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands
'use strict';

const fs = require('node:fs');
const crypto = require('node:crypto');

// escapeData escapes a workflow command's message, as the runner reads it.
function escapeData(s) {
  return String(s).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

// annotate writes a workflow command that GitHub shows as an annotation.
function annotate(level, message) {
  process.stderr.write(`::${level} title=retry::${escapeData(message)}\n`);
}

// fileLine formats NAME and VALUE for GITHUB_OUTPUT, GITHUB_ENV or
// GITHUB_STATE: NAME=VALUE, or a heredoc block when VALUE has a line break.
function fileLine(name, value) {
  value = String(value);
  if (!/[\r\n]/.test(value)) {
    return `${name}=${value}\n`;
  }
  let delimiter;
  do {
    delimiter = `ghadelimiter_${crypto.randomUUID()}`;
  } while (value.includes(delimiter));
  return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
}

// appendFileCommand appends NAME=VALUE to the file that the environment
// variable VARIABLE names; it does nothing when the variable is unset.
function appendFileCommand(variable, name, value) {
  const file = process.env[variable];
  if (file) {
    fs.appendFileSync(file, fileLine(name, value));
  }
}

// setOutput sets an output of this step.
function setOutput(name, value) {
  appendFileCommand('GITHUB_OUTPUT', name, value);
}

// saveState keeps NAME=VALUE for this action's later stages, which read it
// as STATE_NAME.
function saveState(name, value) {
  appendFileCommand('GITHUB_STATE', name, value);
}

// parseFileCommands reads the NAME=VALUE lines and NAME<<DELIMITER blocks of
// a GITHUB_OUTPUT, GITHUB_ENV or GITHUB_STATE file, in their order, as the
// runner does: a line is NAME=VALUE when its first = comes before any <<.
function parseFileCommands(text) {
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (lines.length > 0 && lines[lines.length - 1] === '') {
    lines.pop();
  }
  const pairs = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line === '') {
      continue;
    }
    const eq = line.indexOf('=');
    const heredoc = line.indexOf('<<');
    if (eq >= 0 && (heredoc < 0 || eq < heredoc)) {
      const name = line.slice(0, eq);
      if (name === '') {
        throw new Error(`a line with no name: "${line}"`);
      }
      pairs.push([name, line.slice(eq + 1)]);
      continue;
    }
    if (heredoc <= 0) {
      throw new Error(`a line that is neither NAME=VALUE nor NAME<<DELIMITER: "${line}"`);
    }
    const name = line.slice(0, heredoc);
    const delimiter = line.slice(heredoc + 2);
    if (delimiter === '') {
      throw new Error(`${name}: a heredoc with no delimiter`);
    }
    const value = [];
    let closed = false;
    for (i++; i < lines.length; i++) {
      if (lines[i] === delimiter) {
        closed = true;
        break;
      }
      value.push(lines[i]);
    }
    if (!closed) {
      throw new Error(`${name}: no line ends the heredoc ${delimiter}`);
    }
    pairs.push([name, value.join('\n')]);
  }
  return pairs;
}

// readFileCommands reads FILE as parseFileCommands does; a missing file
// has none.
function readFileCommands(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if (err.code === 'ENOENT') {
      return [];
    }
    throw err;
  }
  return parseFileCommands(text);
}

// outputsJSON is the JSON object of the outputs a GITHUB_OUTPUT file sets,
// the last value of a name winning, as it does for the runner.
function outputsJSON(text) {
  const outputs = {};
  for (const [name, value] of parseFileCommands(text)) {
    outputs[name] = value;
  }
  return JSON.stringify(outputs);
}

module.exports = {
  escapeData,
  annotate,
  fileLine,
  setOutput,
  saveState,
  parseFileCommands,
  readFileCommands,
  outputsJSON,
};
