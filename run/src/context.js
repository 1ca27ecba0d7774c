// The expression contexts of a retried action, made from what the runner
// gives every step: its GITHUB_* and RUNNER_* variables, the event file at
// GITHUB_EVENT_PATH, and the token input. The whole github context is never
// passed through the environment, where one variable is capped at 128 KiB.
'use strict';

const fs = require('node:fs');
const { Context, Undecidable } = require('./expr');

// The github context's properties that the runner also sets as GITHUB_NAME;
// https://docs.github.com/en/actions/reference/workflows-and-actions/variables
const GITHUB_VARIABLES = [
  'action', 'actor', 'actor_id', 'api_url', 'base_ref', 'event_name', 'event_path',
  'graphql_url', 'head_ref', 'job', 'path', 'ref', 'ref_name', 'ref_protected', 'ref_type',
  'repository', 'repository_id', 'repository_owner', 'repository_owner_id', 'retention_days',
  'run_attempt', 'run_id', 'run_number', 'server_url', 'sha', 'triggering_actor',
  'workflow', 'workflow_ref', 'workflow_sha', 'workspace',
];

const RUNNER_VARIABLES = ['arch', 'debug', 'environment', 'name', 'os', 'temp', 'tool_cache'];

// makeContext returns the lookup of evaluate for a retried action: env is
// the step's environment, token the github_token input, action the retried
// action's path, repository and ref, status the result so far (or none).
function makeContext({ env, token, action = {}, status }) {
  let event;
  const github = {
    token: () => {
      if (!token) {
        throw new Undecidable('github.token: the github_token input is empty');
      }
      return token;
    },
    event: () => {
      if (event === undefined) {
        if (!env.GITHUB_EVENT_PATH) {
          throw new Undecidable('github.event: GITHUB_EVENT_PATH is not set');
        }
        try {
          event = JSON.parse(fs.readFileSync(env.GITHUB_EVENT_PATH, 'utf8'));
        } catch (err) {
          throw new Undecidable(`github.event: ${err.message}`);
        }
      }
      return event;
    },
    action_path: action.path,
    action_repository: action.repository || '',
    action_ref: action.ref || '',
  };
  for (const name of GITHUB_VARIABLES) {
    const value = env[`GITHUB_${name.toUpperCase()}`];
    if (value !== undefined && !(name in github)) {
      github[name] = value;
    }
  }
  const runner = {};
  for (const name of RUNNER_VARIABLES) {
    const value = env[`RUNNER_${name.toUpperCase()}`];
    if (value !== undefined) {
      runner[name] = value;
    }
  }
  const contexts = {
    github: new Context('github', github),
    runner: new Context('runner', runner),
    env: { ...env },
  };
  return {
    status,
    lookup(name) {
      if (name in contexts) {
        return contexts[name];
      }
      throw new Undecidable(`the ${name} context is not known outside the runner`);
    },
  };
}

module.exports = { makeContext };
