'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { inputVariable, parseWith, actionInputs } = require('../src/inputs');
const { makeContext } = require('../src/context');

test('inputVariable names an input as the runner does', () => {
  for (const [name, want] of [
    ['token', 'INPUT_TOKEN'],
    ['node-version', 'INPUT_NODE-VERSION'],
    ['Node Version', 'INPUT_NODE_VERSION'],
    ['a b  c', 'INPUT_A_B__C'],
    ['cache_dependency_path', 'INPUT_CACHE_DEPENDENCY_PATH'],
  ]) {
    assert.equal(inputVariable(name), want, name);
  }
});

test('parseWith keeps every value as written', () => {
  const got = parseWith('node-version: 1.10\ncache: npm\non: yes\nempty:\nlines: |\n  a\n  b\n');
  assert.deepEqual(Object.fromEntries(got), { 'node-version': '1.10', cache: 'npm', on: 'yes', empty: '', lines: 'a\nb\n' });
  assert.equal(parseWith('').size, 0);
  assert.equal(parseWith('  \n').size, 0);
  assert.throws(() => parseWith('- a\n- b\n'), /with must be a YAML mapping/);
  assert.throws(() => parseWith('just text'), /with must be a YAML mapping/);
  assert.throws(() => parseWith('a: [1, 2]\n'), /with: a must be a string, not a list/);
  assert.throws(() => parseWith('a: {b: 1}\n'), /not a mapping/);
  assert.throws(() => parseWith('a: "unclosed\n'), /with is not YAML/);
});

function context(extra = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inputs-test-'));
  const event = path.join(dir, 'event.json');
  fs.writeFileSync(event, JSON.stringify({ pull_request: { head: { sha: 'abc123' } }, number: 7 }));
  return makeContext({
    env: {
      GITHUB_REPOSITORY: 'octo/hello',
      GITHUB_SHA: 'deadbeef',
      GITHUB_EVENT_PATH: event,
      GITHUB_SERVER_URL: 'https://github.com',
      RUNNER_TEMP: '/tmp/runner',
      RUNNER_OS: 'Linux',
      ...extra,
    },
    token: 'the-token',
    action: { path: '/actions/x', repository: 'o/x', ref: 'v1' },
  });
}

test('actionInputs: with first, then defaults, expressions resolved', () => {
  const declared = [
    { name: 'token', required: false, default: '${{ github.token }}' },
    { name: 'repo', required: false, default: '${{ github.repository }}' },
    { name: 'dir', required: false, default: '${{ runner.temp }}/cache' },
    { name: 'sha', required: false, default: '${{ github.event.pull_request.head.sha || github.sha }}' },
    { name: 'url', required: false, default: "${{ format('{0}/{1}', github.server_url, github.repository) }}" },
    { name: 'Node Version', required: true },
    { name: 'plain', required: false, default: 'x' },
    { name: 'none', required: false },
  ];
  const got = actionInputs(declared, new Map([['node version', '20'], ['extra', 'e']]), context());
  assert.deepEqual(got.problems, []);
  assert.deepEqual(got.env, {
    INPUT_TOKEN: 'the-token',
    INPUT_REPO: 'octo/hello',
    INPUT_DIR: '/tmp/runner/cache',
    INPUT_SHA: 'abc123',
    INPUT_URL: 'https://github.com/octo/hello',
    INPUT_NODE_VERSION: '20',
    INPUT_PLAIN: 'x',
    INPUT_EXTRA: 'e',
  });
  assert.match(got.warnings[0], /does not declare.*: extra/);
});

test('actionInputs: a missing required input and an unresolvable default are problems', () => {
  const declared = [
    { name: 'api-key', required: true },
    { name: 'secret', required: false, default: '${{ secrets.NPM_TOKEN }}' },
    { name: 'step', required: false, default: '${{ steps.x.outputs.y }}' },
    { name: 'weird', required: false, default: '${{ github.no_such_thing }}' },
    { name: 'files', required: false, default: "${{ hashFiles('**/x') }}" },
    { name: 'given', required: false, default: '${{ secrets.X }}' },
  ];
  const got = actionInputs(declared, new Map([['given', 'y']]), context());
  assert.equal(got.problems.length, 5);
  assert.match(got.problems[0], /^input api-key is required by the action and not in with$/);
  assert.match(got.problems[1], /default of input secret, \$\{\{ secrets.NPM_TOKEN \}\}, cannot be resolved .*the secrets context/);
  assert.match(got.problems[2], /the steps context/);
  assert.match(got.problems[3], /github.no_such_thing is not known/);
  assert.match(got.problems[4], /hashFiles\(\) is not a function/);
  assert.equal(got.env.INPUT_GIVEN, 'y');
});

test('actionInputs: an empty token makes github.token unresolvable', () => {
  const ctx = makeContext({ env: {}, token: '', action: {} });
  const got = actionInputs([{ name: 'token', required: false, default: '${{ github.token }}' }], new Map(), ctx);
  assert.match(got.problems[0], /github_token input is empty/);
});
