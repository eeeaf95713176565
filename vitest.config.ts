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
    setupFiles: ['test/setup.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    restoreMocks: true,
    unstubGlobals: true,
    server: { deps: { inline: reactLibraries } },
    /*
     * Two projects (issue 27, the suite's time). The server's tests build their own app, database
     * and clock in each file and share nothing through modules, so a worker runs one file after
     * another in one module graph (`isolate: false`): the app's ~400 modules are imported once a
     * worker, not once a file, which took two thirds of the suite's time. The client's tests keep
     * a fresh module graph and window each: their modules hold the page's state (the toasts, the
     * analytics layer, the visit's answers), as a browser tab does.
     */
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: [
            'src/server/**/*.test.ts',
            'src/shared/**/*.test.ts',
            'test/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'client', include: ['src/client/**/*.test.{ts,tsx}'] },
      },
    ],
  },
});
