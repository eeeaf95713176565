import path from 'node:path';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Import boundaries of STYLE.md: shared imports only zod; client and server never import each other. */
const restrict = (patterns) => ['error', { patterns }];

/**
 * The client's zones, in the manner of Bulletproof React: `components/` and `lib/` are below every
 * feature and import none; the app (router, boot, the site's frame in `layout/`, tests, which
 * compose pages as the router does) may import any; and a feature imports another only when it
 * is named here, with the reason. Everything else a second feature needs belongs in `components/`
 * or `lib/`.
 */
export const featureImports = {
  // The member area's Home shows the visits, the partner card and the account's sessions; sign-up
  // records the click and merges the visitor's cart, as log-in does.
  accounts: ['auth', 'cart', 'clicks', 'partners', 'visits'],
  // Logging in merges the visitor's cart into the account's; a reset records the click.
  auth: ['cart', 'clicks'],
  // The cart page sits in the member area's frame, knows who is logged in, and prices the catalogue.
  cart: ['accounts', 'auth', 'catalog'],
  // A product adds itself to the cart; an unknown product is the not-found page.
  catalog: ['cart', 'errors'],
  // Checkout signs up or logs in on the way, reads the cart, the account's addresses, the partner's
  // shared address and the placed order, and records the click.
  checkout: ['accounts', 'auth', 'cart', 'clicks', 'orders', 'partners'],
  // The console's pages sit in the staff frame.
  dashboard: ['staff'],
  // The customer's messages sit in the member area's frame.
  messages: ['accounts'],
  // The operations console: the staff frame, and the message thread it shares with the provider's.
  operations: ['messages', 'staff'],
  // Orders sit in the member area's frame, add to the cart again at the catalogue's prices, and
  // show the visit behind them and the visits still to finish.
  orders: ['accounts', 'cart', 'catalog', 'visits'],
  outbox: ['staff'],
  // Operations' Pharmacy queue (issue 29) sits in the staff frame.
  pharmacy: ['staff'],
  // The partner page sits in the member area's frame; gifts offer the catalogue's supplements.
  partners: ['accounts', 'catalog'],
  // A visit's or a refill's receipt (issue 29) is printed on the orders' receipt sheet.
  receipts: ['orders'],
  // A renewal's screens sit in the online visit's frame and its questions (issue 29).
  renewals: ['visits'],
  // The provider's console: the staff frame and the message thread.
  reviews: ['messages', 'staff'],
  // The console's home composes the operations and provider views; staff log-in reuses auth's
  // one-time links and unlock offer.
  staff: ['auth', 'operations', 'reviews'],
  // Subscriptions sit in the member area's frame and refresh its data after a change. A refill
  // plan's card carries the requests between visits about its prescription (issue 29).
  subscriptions: ['accounts', 'treatment-requests'],
  // A visit signs up or logs in on the way, reads the account, and ends in an order.
  visits: ['accounts', 'auth', 'errors', 'orders'],
};

const clientRoot = path.resolve('src/client');

/** Where an import lands under src/client (alias or relative), or null for a package or elsewhere. */
function clientTarget(file, source) {
  if (source.startsWith('#client/')) return path.join(clientRoot, source.slice('#client/'.length));
  if (source.startsWith('.')) return path.resolve(path.dirname(file), source);
  return null;
}

/** 'components', 'lib', a feature's name, or 'app' for the rest of src/client. */
function zoneOf(file) {
  const [top, feature] = path.relative(clientRoot, file).split(path.sep);
  if (top === 'features' && feature) return { kind: 'feature', name: feature };
  if (top === 'components' || top === 'lib') return { kind: 'shared', name: top };
  return { kind: 'app', name: top };
}

const clientZones = {
  meta: {
    type: 'problem',
    docs: {
      description: "The client's zones: what components/, lib/ and each feature may import.",
    },
    schema: [],
  },
  create(context) {
    const file = path.resolve(context.filename);
    if (path.relative(clientRoot, file).startsWith('..')) return {};
    const from = zoneOf(file);
    // A test composes pages of several features, as the router does.
    if (from.kind === 'app' || /\.test\.tsx?$/.test(file)) return {};
    const check = (node) => {
      const source = node.source;
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const target = clientTarget(file, source.value);
      if (!target) return;
      const to = zoneOf(target);
      if (to.kind !== 'feature' || to.name === from.name) return;
      if (from.kind === 'shared')
        context.report({
          node: source,
          message: `src/client/${from.name}/ imports no feature (here ${to.name}): move what both need into components/ or lib/, or compose it in the app (router, layout/).`,
        });
      else if (!(featureImports[from.name] ?? []).includes(to.name))
        context.report({
          node: source,
          message: `The ${from.name} feature may not import the ${to.name} feature: move what both need into components/ or lib/, or add the pair to featureImports in eslint.config.js with its reason.`,
        });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

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
      // Code that must fail lint, linted on purpose by scripts/client-lint.test.ts.
      'scripts/lint-fixtures',
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
    plugins: { 'react-hooks': reactHooks, local: { rules: { 'client-zones': clientZones } } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': restrict([
        { regex: '^(#server/|.*/server/)', message: 'The client never imports server code.' },
      ]),
      'local/client-zones': 'error',
    },
  },
  {
    // Writes live beside the reads: each feature's `<feature>.api.ts` owns its mutations, their
    // invalidation and the server's message; a component calls the hook and renders.
    files: ['src/client/**/*.{ts,tsx}'],
    ignores: ['src/client/**/*.api.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "ImportDeclaration[source.value='@tanstack/react-query'] > ImportSpecifier[imported.name='useMutation']",
          message:
            "useMutation belongs in the feature's <feature>.api.ts: write a hook there (e.g. useCancelSubscription) that owns the invalidation and the server's message, and call it here.",
        },
      ],
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
