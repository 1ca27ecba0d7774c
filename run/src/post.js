// The action's post stage.
'use strict';

const { post } = require('./host');

post().then(
  (code) => { process.exitCode = code; },
  (err) => {
    process.stderr.write(`::error title=retry::${String(err && err.stack ? err.stack : err).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}\n`);
    process.exitCode = 1;
  },
);
