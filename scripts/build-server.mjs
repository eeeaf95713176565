// Bundles the server (src/server/main.ts) into dist/server/main.js for `npm start`.
// Our own code is bundled; packages stay in node_modules.
// `node scripts/build-server.mjs DIR` bundles into DIR instead (the fault-injection tests run that
// bundle); DIR must lie inside the project, so the bundle finds node_modules.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const outdir = process.argv[2] ?? 'dist/server';

await build({
  entryPoints: ['src/server/main.ts', 'src/server/db/cli.ts'],
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
  outExtension: { '.js': '.js' },
  entryNames: '[name]',
});

// Data files the server reads at run time, next to the bundle.
fs.copyFileSync(
  'src/server/features/auth/common-passwords.txt',
  path.join(outdir, 'common-passwords.txt'),
);
