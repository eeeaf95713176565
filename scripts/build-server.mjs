// Bundles the server (src/server/main.ts) into dist/server/main.js for `npm start`.
// Our own code is bundled; packages stay in node_modules.
import fs from 'node:fs';
import { build } from 'esbuild';

await build({
  entryPoints: ['src/server/main.ts', 'src/server/db/cli.ts'],
  outdir: 'dist/server',
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
  'dist/server/common-passwords.txt',
);
