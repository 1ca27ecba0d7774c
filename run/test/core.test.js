'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const core = require('../src/core');

test('parseFileCommands reads NAME=VALUE lines and heredocs as the runner does', () => {
  const cases = [
    { name: 'one line', text: 'a=1\n', want: [['a', '1']] },
    { name: 'no final newline', text: 'a=1', want: [['a', '1']] },
    { name: 'CRLF', text: 'a=1\r\nb=2\r\n', want: [['a', '1'], ['b', '2']] },
    { name: 'value with = and <<', text: 'a=x=y<<z\n', want: [['a', 'x=y<<z']] },
    { name: 'empty value', text: 'a=\n', want: [['a', '']] },
    { name: 'blank lines skipped', text: '\na=1\n\n', want: [['a', '1']] },
    { name: 'heredoc', text: 'a<<EOF\nline 1\nline=2\nEOF\nb=3\n', want: [['a', 'line 1\nline=2'], ['b', '3']] },
    { name: 'empty heredoc', text: 'a<<EOF\nEOF\n', want: [['a', '']] },
    { name: 'heredoc with a blank line', text: 'a<<X\n\nX\n', want: [['a', '']] },
    { name: 'heredoc whose name has no =', text: 'tag<<ghadelimiter_1\nv1\nghadelimiter_1\n', want: [['tag', 'v1']] },
    { name: 'repeated name', text: 'a=1\na=2\n', want: [['a', '1'], ['a', '2']] },
  ];
  for (const c of cases) {
    assert.deepEqual(core.parseFileCommands(c.text), c.want, c.name);
  }
});

test('parseFileCommands refuses what the runner refuses', () => {
  for (const [text, want] of [
    ['no equals\n', /neither NAME=VALUE nor NAME<<DELIMITER/],
    ['a<<EOF\nline\n', /no line ends the heredoc EOF/],
    ['a<<\nx\n', /no delimiter/],
    ['=1\n', /no name/],
  ]) {
    assert.throws(() => core.parseFileCommands(text), want, JSON.stringify(text));
  }
});

test('outputsJSON keeps the last value of a name', () => {
  assert.equal(core.outputsJSON('a=1\nb<<E\nx\ny\nE\na=3\n'), '{"a":"3","b":"x\\ny"}');
  assert.equal(core.outputsJSON(''), '{}');
});

test('fileLine writes a heredoc for a value with a line break, read back the same', () => {
  assert.equal(core.fileLine('a', 'b'), 'a=b\n');
  for (const value of ['x\ny', 'x\r\ny\n', '\n']) {
    const [[name, got]] = core.parseFileCommands(core.fileLine('a', value));
    assert.equal(name, 'a');
    assert.equal(got, value.replace(/\r\n/g, '\n'));
  }
});

test('escapeData escapes what ends a workflow command', () => {
  assert.equal(core.escapeData('50%\r\nnext'), '50%25%0D%0Anext');
});
