"use strict";

// src/main.js
var { main, runStage } = require("./host");
runStage(main);
