// The action's main stage.
'use strict';

const { main, runStage } = require('./host');

runStage(main);
