"use strict";

// src/pre.js
var { pre } = require("./host");
pre().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`::error title=retry::${String(err && err.stack ? err.stack : err).replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A")}
`);
    process.exit(1);
  }
);
