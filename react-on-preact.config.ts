// The browser bundle renders with Preact through its React compatibility layer (decision 009):
// the code is written against React's API and types, and every import of React or React DOM,
// ours or a library's, resolves to Preact. The build and the component tests use the same list.
import type { Alias } from 'vite';

export const reactOnPreact: Alias[] = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
];

/**
 * Libraries that import React (every installed package that depends on it): the component tests run them through Vite (not Node's loader), so the
 * aliases above reach their imports too and the tests render with what ships.
 */
export const reactLibraries = [
  /@testing-library\/react/,
  /@tanstack\/react-query/,
  /react-router/,
  /@radix-ui\//,
  /react-hook-form/,
  /@hookform\/resolvers/,
  /@sentry\/react/,
  // The dialog's scroll lock and its helpers.
  /react-remove-scroll/,
  /react-style-singleton/,
  /use-callback-ref/,
  /use-sidecar/,
];
