// The part of GitHub's expression language that a retried action's metadata
// uses outside the runner: input defaults such as ${{ github.token }}, and
// pre-if and post-if conditions. The language is
// https://docs.github.com/en/actions/reference/workflows-and-actions/expressions
// A context this host does not have (secrets, steps, matrix, ...) or a
// function it cannot run (hashFiles) is an Undecidable error that names it.
'use strict';

// Undecidable is thrown for an expression this host cannot evaluate.
class Undecidable extends Error {}

// Context is a named context (github, runner) whose properties this host
// knows one by one: reading another is Undecidable, not an empty string.
class Context {
  constructor(name, values) {
    this.name = name;
    this.values = new Map(Object.entries(values).map(([k, v]) => [k.toLowerCase(), v]));
  }

  get(key) {
    const v = this.values.get(key.toLowerCase());
    return typeof v === 'function' ? v() : v;
  }
}

const TOKEN = /\s*(?:(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|0x[0-9a-fA-F]+)|('(?:[^']|'')*')|(&&|\|\||==|!=|<=|>=|[<>!()[\].,*])|([A-Za-z_][A-Za-z0-9_-]*))/y;

function tokenize(text) {
  const tokens = [];
  TOKEN.lastIndex = 0;
  let pos = 0;
  while (pos < text.length) {
    if (/^\s*$/.test(text.slice(pos))) {
      break;
    }
    TOKEN.lastIndex = pos;
    const m = TOKEN.exec(text);
    if (!m) {
      throw new Undecidable(`unexpected "${text.slice(pos).trim().slice(0, 20)}" in ${text.trim()}`);
    }
    pos = TOKEN.lastIndex;
    if (m[1] !== undefined) {
      tokens.push({ kind: 'value', value: Number(m[1]) });
    } else if (m[2] !== undefined) {
      tokens.push({ kind: 'value', value: m[2].slice(1, -1).replace(/''/g, "'") });
    } else if (m[3] !== undefined) {
      tokens.push({ kind: 'op', value: m[3] });
    } else {
      const word = m[4];
      const lower = word.toLowerCase();
      if (lower === 'true' || lower === 'false') {
        tokens.push({ kind: 'value', value: lower === 'true' });
      } else if (lower === 'null') {
        tokens.push({ kind: 'value', value: null });
      } else {
        tokens.push({ kind: 'name', value: word });
      }
    }
  }
  return tokens;
}

// truthy is an expression value's truth, as GitHub has it.
function truthy(v) {
  return !(v === false || v === null || v === undefined || v === '' || v === 0 || Number.isNaN(v));
}

function toNumber(v) {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return v.trim() === '' ? 0 : Number(v.trim());
  return NaN;
}

// toText is a value as it is written into a string.
function toText(v) {
  if (v instanceof Context) {
    throw new Undecidable(`the whole ${v.name} context is not known outside the runner`);
  }
  if (v === null || v === undefined) return '';
  if (typeof v === 'boolean' || typeof v === 'number') return String(v);
  if (typeof v === 'string') return v;
  return JSON.stringify(v, null, 2);
}

function equal(a, b) {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  if (typeof a === typeof b && typeof a !== 'string') {
    if (typeof a === 'object' && a !== null && b !== null) return a === b;
    if (a === null || b === null) return a === b;
    return a === b;
  }
  if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
  return toNumber(a) === toNumber(b);
}

function compare(a, b) {
  if (typeof a === 'string' && typeof b === 'string') {
    const x = a.toLowerCase();
    const y = b.toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const x = toNumber(a);
  const y = toNumber(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return NaN;
  return x < y ? -1 : x > y ? 1 : 0;
}

// evaluate returns the value of the expression TEXT (without ${{ }}).
// ctx.lookup(name) returns the value of the context NAME (github, runner,
// env ...) or throws Undecidable; ctx.status, when there is one, holds the
// booleans success, failure and cancelled.
function evaluate(text, ctx) {
  const tokens = tokenize(text);
  let i = 0;
  const peek = () => tokens[i];
  const isOp = (op) => tokens[i] && tokens[i].kind === 'op' && tokens[i].value === op;
  const expect = (op) => {
    if (!isOp(op)) {
      throw new Undecidable(`expected "${op}" in ${text.trim()}`);
    }
    i++;
  };

  function or() {
    let v = and();
    while (isOp('||')) {
      i++;
      const r = and();
      v = truthy(v) ? v : r;
    }
    return v;
  }
  function and() {
    let v = eq();
    while (isOp('&&')) {
      i++;
      const r = eq();
      v = truthy(v) ? r : v;
    }
    return v;
  }
  function eq() {
    let v = rel();
    while (isOp('==') || isOp('!=')) {
      const op = tokens[i++].value;
      const r = rel();
      v = op === '==' ? equal(v, r) : !equal(v, r);
    }
    return v;
  }
  function rel() {
    let v = not();
    while (isOp('<') || isOp('<=') || isOp('>') || isOp('>=')) {
      const op = tokens[i++].value;
      const c = compare(v, not());
      v = op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
    }
    return v;
  }
  function not() {
    if (isOp('!')) {
      i++;
      return !truthy(not());
    }
    return postfix();
  }
  function postfix() {
    let v = primary();
    for (;;) {
      if (isOp('.')) {
        i++;
        const t = tokens[i++];
        if (!t || (t.kind !== 'name' && !(t.kind === 'op' && t.value === '*'))) {
          throw new Undecidable(`a property name must follow "." in ${text.trim()}`);
        }
        v = member(v, t.value);
      } else if (isOp('[')) {
        i++;
        const key = or();
        expect(']');
        v = member(v, key);
      } else {
        return v;
      }
    }
  }
  function member(v, key) {
    if (v instanceof Context) {
      const found = v.get(String(key));
      if (found === undefined) {
        throw new Undecidable(`${v.name}.${key} is not known outside the runner`);
      }
      return found;
    }
    if (v === null || v === undefined || typeof v !== 'object') return null;
    if (Array.isArray(v)) {
      const n = toNumber(key);
      return Number.isInteger(n) && n >= 0 && n < v.length ? v[n] : null;
    }
    const want = String(key).toLowerCase();
    for (const k of Object.keys(v)) {
      if (k.toLowerCase() === want) return v[k];
    }
    return null;
  }
  function primary() {
    const t = peek();
    if (!t) {
      throw new Undecidable(`${text.trim()} ends too soon`);
    }
    i++;
    if (t.kind === 'value') return t.value;
    if (t.kind === 'op' && t.value === '(') {
      const v = or();
      expect(')');
      return v;
    }
    if (t.kind !== 'name') {
      throw new Undecidable(`unexpected "${t.value}" in ${text.trim()}`);
    }
    if (isOp('(')) {
      i++;
      const args = [];
      if (!isOp(')')) {
        args.push(or());
        while (isOp(',')) {
          i++;
          args.push(or());
        }
      }
      expect(')');
      return call(t.value, args);
    }
    return ctx.lookup(t.value.toLowerCase());
  }
  function call(name, args) {
    const status = (what) => {
      if (!ctx.status) {
        throw new Undecidable(`${name}() has no meaning here`);
      }
      return ctx.status[what];
    };
    const s = (v) => toText(v).toLowerCase();
    switch (name.toLowerCase()) {
      case 'always':
        return true;
      case 'success':
        return status('success');
      case 'failure':
        return status('failure');
      case 'cancelled':
        return status('cancelled');
      case 'contains':
        if (Array.isArray(args[0])) return args[0].some((x) => equal(x, args[1]));
        return s(args[0]).includes(s(args[1]));
      case 'startswith':
        return s(args[0]).startsWith(s(args[1]));
      case 'endswith':
        return s(args[0]).endsWith(s(args[1]));
      case 'format':
        return toText(args[0]).replace(/\{\{|\}\}|\{(\d+)\}/g, (m, n) =>
          m === '{{' ? '{' : m === '}}' ? '}' : toText(args[Number(n) + 1]));
      case 'join':
        return Array.isArray(args[0]) ? args[0].map(toText).join(args.length > 1 ? toText(args[1]) : ',') : toText(args[0]);
      case 'tojson':
        if (args[0] instanceof Context) toText(args[0]);
        return JSON.stringify(args[0] === undefined ? null : args[0], null, 2);
      case 'fromjson':
        return JSON.parse(toText(args[0]));
      default:
        throw new Undecidable(`${name}() is not a function this host runs`);
    }
  }

  const v = or();
  if (i < tokens.length) {
    throw new Undecidable(`unexpected "${tokens[i].value}" in ${text.trim()}`);
  }
  return v;
}

const EXPRESSION = /\$\{\{([\s\S]*?)\}\}/g;

// interpolate replaces each ${{ }} of TEXT with its value as a string.
function interpolate(text, ctx) {
  return String(text).replace(EXPRESSION, (_, inner) => toText(evaluate(inner, ctx)));
}

// usesStatus reports whether a condition calls one of the status functions,
// without which GitHub evaluates it as success() && (condition).
function usesStatus(condition) {
  return /\b(success|failure|cancelled|always)\s*\(/i.test(condition.replace(/'(?:[^']|'')*'/g, "''"));
}

// condition evaluates a pre-if or post-if CONDITION as GitHub does: with
// ${{ }} or without, and success() && (CONDITION) when it calls no status
// function. An empty condition is success().
function condition(text, ctx) {
  let c = String(text || '').trim();
  const whole = /^\$\{\{([\s\S]*)\}\}$/.exec(c);
  if (whole) c = whole[1].trim();
  if (c === '') c = 'success()';
  if (!usesStatus(c)) c = `success() && (${c})`;
  return truthy(evaluate(c, ctx));
}

module.exports = { Undecidable, Context, evaluate, interpolate, condition, truthy, toText, usesStatus };
