// The action's post stage.
'use strict';

const { post, runStage } = require('./host');

runStage(post);
