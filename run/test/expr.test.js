'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { condition, evaluate, interpolate, Undecidable } = require('../src/expr');
const { makeContext } = require('../src/context');

const ok = { success: true, failure: false, cancelled: false };
const failed = { success: false, failure: true, cancelled: false };

function ctx(status, env = { RUNNER_OS: 'Linux', RUNNER_ARCH: 'X64', GITHUB_EVENT_NAME: 'push' }) {
  return makeContext({ env, token: 't', action: {}, status });
}

test('condition decides pre-if and post-if as GitHub does', () => {
  const cases = [
    ['always()', ok, true],
    ['always()', failed, true],
    ['${{ always() }}', failed, true],
    ['success()', ok, true],
    ['success()', failed, false],
    ['failure()', failed, true],
    ['failure()', ok, false],
    ['cancelled()', ok, false],
    ['', ok, true],
    ['', failed, false],
    ["runner.os == 'Linux'", ok, true],
    ["runner.os == 'linux'", ok, true],
    ["runner.os == 'Linux'", failed, false],
    ["runner.os != 'Windows'", ok, true],
    ["runner.os == 'Windows'", ok, false],
    ["always() && runner.os == 'Windows'", failed, false],
    ["failure() || runner.os == 'macOS'", failed, true],
    ["!cancelled() && runner.os == 'Linux'", failed, true],
    ["${{ runner.os == 'Linux' && runner.arch == 'X64' }}", ok, true],
    ["github.event_name == 'push'", ok, true],
    ["(success() || failure()) && !(runner.os == 'Windows')", failed, true],
    ["contains('Linux macOS', runner.os)", ok, true],
  ];
  for (const [text, status, want] of cases) {
    assert.equal(condition(text, ctx(status)), want, `${text} (${JSON.stringify(status)})`);
  }
});

test('condition: what it cannot know is Undecidable, naming it', () => {
  for (const [text, want] of [
    ["steps.x.outcome == 'success'", /the steps context/],
    ["job.status == 'success'", /the job context/],
    ["hashFiles('x') != ''", /hashFiles\(\)/],
    ['runner.os ==', /unexpected "\)"/],
    ['runner.os @ 1', /unexpected/],
    ['github.job_status', /github.job_status is not known/],
  ]) {
    assert.throws(() => condition(text, ctx(ok)), (err) => err instanceof Undecidable && want.test(err.message), text);
  }
});

test('evaluate follows GitHub comparisons and logic', () => {
  const c = ctx(ok);
  assert.equal(evaluate("'a' == 'A'", c), true);
  assert.equal(evaluate("1 == '1'", c), true);
  assert.equal(evaluate("'' == 0", c), true);
  assert.equal(evaluate('null == 0', c), true);
  assert.equal(evaluate("'x' || 'y'", c), 'x');
  assert.equal(evaluate("'' || 'y'", c), 'y');
  assert.equal(evaluate("'x' && ''", c), '');
  assert.equal(evaluate("'it''s'", c), "it's");
  assert.equal(evaluate('2 > 10', c), false);
  assert.equal(evaluate("startsWith('refs/tags/v1', 'refs/tags/')", c), true);
  assert.equal(evaluate("fromJSON('{\"a\": [1, 2]}').a[1]", c), 2);
  assert.equal(evaluate("join(fromJSON('[\"a\",\"b\"]'), '-')", c), 'a-b');
});

test('interpolate writes each expression into the text', () => {
  const c = makeContext({ env: { RUNNER_TEMP: '/t', GITHUB_REPOSITORY: 'o/r' }, token: 'tok', action: {} });
  assert.equal(interpolate('${{ runner.temp }}/x-${{ github.repository }}', c), '/t/x-o/r');
  assert.equal(interpolate('${{github.token}}', c), 'tok');
  assert.equal(interpolate('plain', c), 'plain');
  assert.equal(interpolate("${{ env.NOT_SET || 'fallback' }}", c), 'fallback');
  assert.equal(interpolate('${{ true }}', c), 'true');
  assert.throws(() => interpolate('${{ toJSON(github) }}', c), /whole github context/);
  assert.throws(() => interpolate('${{ success() }}', c), /success\(\) has no meaning here/);
});
