// Bundles src/ into dist/, which the runner runs: host.js holds the code,
// pre.js, main.js and post.js each run one stage of it, and attempt.js is
// loaded by each attempt before the retried action's main. licenses.txt
// carries the notices of the packages bundled into host.js.
import { readFileSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', legalComments: 'none', logLevel: 'warning' };
const banner = { js: '// Built from ../src by build.mjs; the bundled packages\' licences are in licenses.txt.' };
await build({ ...common, banner, entryPoints: ['src/host.js', 'src/attempt.js'], outdir: 'dist' });
await build({ ...common, entryPoints: ['src/pre.js', 'src/main.js', 'src/post.js'], outdir: 'dist', external: ['./host'] });

let notices = '';
for (const name of ['yaml']) {
  const { version, license } = JSON.parse(readFileSync(`node_modules/${name}/package.json`, 'utf8'));
  notices += `${name} ${version} (${license})\n\n${readFileSync(`node_modules/${name}/LICENSE`, 'utf8').trim()}\n`;
}
writeFileSync('dist/licenses.txt', notices);
