// Bundles src/ into dist/, which the runner runs: host.js holds the code,
// pre.js, main.js and post.js each run one stage of it, and attempt.js is
// loaded by each attempt before the retried action's main.
import { build } from 'esbuild';

const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', legalComments: 'none', logLevel: 'warning' };
await build({ ...common, entryPoints: ['src/host.js', 'src/attempt.js'], outdir: 'dist' });
await build({ ...common, entryPoints: ['src/pre.js', 'src/main.js', 'src/post.js'], outdir: 'dist', external: ['./host'] });
