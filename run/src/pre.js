// The action's pre stage.
'use strict';

const { pre, runStage } = require('./host');

runStage(pre);
