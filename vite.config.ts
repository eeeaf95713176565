import fs from 'node:fs';
import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const pkg = JSON.parse(fs.readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};
const buildId = `${pkg.version}+${Date.now().toString(36)}`;

/** Writes /version.json, which the new-version banner compares with the running build. */
function versionFile(): Plugin {
  return {
    name: 'pairwell-version-file',
    apply: 'build',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'version.json',
        source: JSON.stringify({ version: buildId }),
      });
    },
  };
}

export default defineConfig({
  root: 'src/client',
  publicDir: path.resolve('public'),
  plugins: [react(), tailwindcss(), versionFile()],
  define: {
    __APP_BUILD__: JSON.stringify(buildId),
  },
  build: {
    outDir: path.resolve('dist/client'),
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: true,
    target: 'es2022',
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // zod and the module that configures it share one chunk, so the configuration runs
              // before any other chunk builds a schema (see src/client/lib/zod-config.ts).
              name: 'zod',
              test: /node_modules[\\/]zod[\\/]|src[\\/]client[\\/]lib[\\/]zod-config\.ts$/,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/lapi': 'http://localhost:3000',
      '/healthz': 'http://localhost:3000',
      '/dev': 'http://localhost:3000',
    },
  },
});
