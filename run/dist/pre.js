"use strict";

// src/pre.js
var { pre, runStage } = require("./host");
runStage(pre);
