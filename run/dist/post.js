"use strict";

// src/post.js
var { post, runStage } = require("./host");
runStage(post);
