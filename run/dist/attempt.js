// Built from ../src by build.mjs; the bundled packages' licences are in licenses.txt.
"use strict";

// src/attempt.js
var fs = require("node:fs");
var path = require("node:path");
var base = process.env.RETRY_RUN_FILES;
var attempt = process.env.RETRY_ATTEMPT || "1";
if (base && process.env.RETRY_RUN_FILES_ATTEMPT !== attempt) {
  const dir = path.join(base, attempt);
  fs.mkdirSync(dir, { recursive: true });
  for (const name of ["OUTPUT", "ENV", "PATH", "STEP_SUMMARY", "STATE"]) {
    const file = path.join(dir, name.toLowerCase());
    fs.closeSync(fs.openSync(file, "a"));
    process.env[`GITHUB_${name}`] = file;
  }
  process.env.RETRY_RUN_FILES_ATTEMPT = attempt;
}
