// The action's main stage. It exits as soon as it is done: an idle
// connection of fetch's would otherwise keep node running for seconds.
'use strict';

const { main } = require('./host');

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`::error title=retry::${String(err && err.stack ? err.stack : err).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}\n`);
    process.exit(1);
  },
);
