// Where a retried action's files are: a directory of the workspace, or a
// remote action's ref, fetched as its tarball from the GitHub API
// (https://docs.github.com/en/rest/repos/contents#download-a-repository-archive-tar)
// with the github_token input and kept per ref in the runner's tool cache.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const NAME = '[A-Za-z0-9_.-]+';
const REMOTE = new RegExp(`^(${NAME})/(${NAME})((?:/[^@]+)?)@(.+)$`);

// parseActionRef reads the action input: ./PATH in the workspace, or
// OWNER/REPO[/PATH]@REF. It throws when the input is neither.
function parseActionRef(text) {
  const s = String(text || '').trim();
  if (s === '') {
    throw new Error('action is required: OWNER/REPO[/PATH]@REF, or ./PATH in the workspace');
  }
  if (s.startsWith('docker://')) {
    throw new Error(`action ${s} is a Docker image, which retry does not retry: retry the docker run command with b0a38808/retry`);
  }
  if (s.startsWith('./') || s.startsWith('.\\') || s === '.') {
    return { local: s, where: s };
  }
  const m = REMOTE.exec(s);
  if (!m || m[1] === '.' || m[1] === '..' || m[2] === '.' || m[2] === '..') {
    throw new Error(`action must be OWNER/REPO[/PATH]@REF or ./PATH, not "${s}"`);
  }
  const sub = m[3].replace(/^\//, '').replace(/\/$/, '');
  if (sub.split('/').includes('..')) {
    throw new Error(`action ${s}: its path leaves the repository`);
  }
  return { owner: m[1], repo: m[2], path: sub, ref: m[4], where: s, repository: `${m[1]}/${m[2]}` };
}

// HTTPError is a failed request to the GitHub API.
class HTTPError extends Error {}

// download fetches the tarball of REF into FILE.
async function download(ref, token, file, env) {
  const api = (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, '');
  const refPath = ref.ref.split('/').map(encodeURIComponent).join('/');
  const url = `${api}/repos/${ref.owner}/${ref.repo}/tarball/${refPath}`;
  const headers = {
    'User-Agent': 'b0a38808-retry-run',
    Accept: 'application/vnd.github+json',
    'X-GitHub-Api-Version': '2022-11-28',
  };
  if (token) {
    headers.Authorization = `Bearer ${token}`;
  }
  let res;
  try {
    res = await fetch(url, { headers, redirect: 'follow' });
  } catch (err) {
    throw new HTTPError(`could not fetch ${ref.where} from ${url}: ${err.cause ? err.cause.message : err.message}`);
  }
  if (res.status === 404) {
    throw new HTTPError(`${ref.where}: ${ref.repository} has no ref ${ref.ref}, or the github_token cannot read the repository (${url}: HTTP 404)`);
  }
  if (res.status === 401) {
    throw new HTTPError(`${ref.where}: the github_token was refused (${url}: HTTP 401)`);
  }
  if (!res.ok) {
    const body = (await res.text()).replace(/\s+/g, ' ').slice(0, 200);
    throw new HTTPError(`${ref.where}: ${url}: HTTP ${res.status}${body ? `: ${body}` : ''}`);
  }
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
}

// fetchAction returns the directory of the remote action REF: from the tool
// cache, or downloaded into it.
async function fetchAction(ref, token, env) {
  const cacheRoot = env.RUNNER_TOOL_CACHE || env.RUNNER_TEMP || require('node:os').tmpdir();
  const safe = (s) => encodeURIComponent(s);
  const top = path.join(cacheRoot, 'retry-actions', safe(ref.owner), safe(ref.repo), safe(ref.ref));
  const done = `${top}.complete`;
  if (!(fs.existsSync(done) && fs.existsSync(top))) {
    fs.mkdirSync(path.dirname(top), { recursive: true });
    const work = fs.mkdtempSync(path.join(path.dirname(top), '.download-'));
    try {
      const tarball = path.join(work, 'action.tar.gz');
      await download(ref, token, tarball, env);
      const x = path.join(work, 'x');
      fs.mkdirSync(x);
      // Relative names only: GNU tar reads C:\... as a remote host.
      const tar = spawnSync('tar', ['-xzf', path.join('..', 'action.tar.gz')], { cwd: x, encoding: 'utf8' });
      if (tar.error || tar.status !== 0) {
        throw new Error(`${ref.where}: could not extract its tarball: ${tar.error ? tar.error.message : tar.stderr.trim()}`);
      }
      const entries = fs.readdirSync(x);
      if (entries.length !== 1) {
        throw new Error(`${ref.where}: its tarball does not hold one directory`);
      }
      // Into place by a rename, so that another job never sees half an action.
      fs.rmSync(top, { recursive: true, force: true });
      fs.renameSync(path.join(x, entries[0]), top);
      fs.writeFileSync(done, '');
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  }
  return ref.path ? path.join(top, ...ref.path.split('/')) : top;
}

// actionDir returns the directory of the action REF (from parseActionRef).
async function actionDir(ref, token, env) {
  if (ref.local !== undefined) {
    return path.resolve(env.GITHUB_WORKSPACE || process.cwd(), ref.local);
  }
  return fetchAction(ref, token, env);
}

module.exports = { parseActionRef, actionDir, HTTPError };
