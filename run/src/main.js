// The action's main stage.
'use strict';

const { main } = require('./host');

main().then(
  (code) => { process.exitCode = code; },
  (err) => {
    process.stderr.write(`::error title=retry::${String(err && err.stack ? err.stack : err).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}\n`);
    process.exitCode = 1;
  },
);
