// Loaded with node --require before the retried action's main, in each
// attempt's process: it gives the attempt fresh GITHUB_OUTPUT, GITHUB_ENV,
// GITHUB_PATH, GITHUB_STEP_SUMMARY and GITHUB_STATE files, in a directory
// named by the attempt's number under RETRY_RUN_FILES. A node process that
// the attempt starts with the same --require keeps the attempt's files.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const base = process.env.RETRY_RUN_FILES;
const attempt = process.env.RETRY_ATTEMPT || '1';
if (base && process.env.RETRY_RUN_FILES_ATTEMPT !== attempt) {
  const dir = path.join(base, attempt);
  fs.mkdirSync(dir, { recursive: true });
  for (const name of ['OUTPUT', 'ENV', 'PATH', 'STEP_SUMMARY', 'STATE']) {
    const file = path.join(dir, name.toLowerCase());
    fs.closeSync(fs.openSync(file, 'a'));
    process.env[`GITHUB_${name}`] = file;
  }
  process.env.RETRY_RUN_FILES_ATTEMPT = attempt;
}
