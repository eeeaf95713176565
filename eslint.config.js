import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Import boundaries of STYLE.md: shared imports only zod; client and server never import each other. */
const restrict = (patterns) => ['error', { patterns }];

export default tseslint.config(
  {
    ignores: [
      'dist',
      'data',
      'coverage',
      'test-results',
      'playwright-report',
      'bench/node_modules',
      'public',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': restrict([
        { regex: '^(#server/|.*/server/)', message: 'The client never imports server code.' },
      ]),
    },
  },
  {
    files: ['src/server/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict([
        { regex: '^(#client/|.*/client/)', message: 'The server never imports client code.' },
      ]),
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict([
        {
          regex: '^(#server/|#client/|.*/server/|.*/client/)',
          message: 'shared imports only zod.',
        },
        {
          group: ['node:*', 'react', 'react-*', 'date-fns', 'kysely', 'fastify'],
          message: 'shared imports only zod.',
        },
      ]),
    },
  },
  {
    // Only *.queries.ts and db/ touch the database (STYLE.md).
    files: ['src/server/features/**/*.routes.ts'],
    rules: {
      'no-restricted-imports': restrict([
        { regex: '\\.queries\\.ts$', message: 'Routes call services; services call queries.' },
        { regex: '^(#client/|.*/client/)', message: 'The server never imports client code.' },
      ]),
    },
  },
  {
    files: ['scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
    rules: { 'no-console': 'off' },
  },
  {
    files: ['deploy/**/*.mjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
      },
    },
    rules: { 'no-console': 'off' },
  },
);
