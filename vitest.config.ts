import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { reactLibraries, reactOnPreact } from './react-on-preact.config.ts';

export default defineConfig({
  plugins: [react()],
  define: { __APP_BUILD__: JSON.stringify('test') },
  resolve: {
    alias: [
      // Under Node's conditions these two resolve to CommonJS builds, whose require() calls pass
      // the aliases by; their ES module builds import React, and so get Preact.
      {
        find: /^react-router$/,
        replacement: path.resolve('node_modules/react-router/dist/development/index.mjs'),
      },
      {
        find: /^@testing-library\/react$/,
        replacement: path.resolve(
          'node_modules/@testing-library/react/dist/@testing-library/react.esm.js',
        ),
      },
      ...reactOnPreact,
    ],
    // The dialog's helpers publish ES modules only under `module`; CommonJS would require() React.
    mainFields: ['module', 'main'],
  },
  test: {
    root: path.resolve('.'),
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.ts', 'scripts/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    restoreMocks: true,
    unstubGlobals: true,
    server: { deps: { inline: reactLibraries } },
  },
});
