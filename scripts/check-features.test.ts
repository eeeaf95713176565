import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Runs the feature check on a made-up tree (a folder ends in '/'; a file is its path, empty, or
 * `[path, its text]`); resolves to its output and whether it passed.
 */
function check(tree: (string | [string, string])[]): { passed: boolean; output: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'features-'));
  for (const entry of tree) {
    const [name, text] = typeof entry === 'string' ? [entry, ''] : entry;
    const full = path.join(root, name);
    if (name.endsWith('/')) fs.mkdirSync(full, { recursive: true });
    else {
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, text);
    }
  }
  try {
    const output = execFileSync('node', ['scripts/check-features.mjs', root], { encoding: 'utf8' });
    return { passed: true, output };
  } catch (error) {
    return { passed: false, output: String((error as { stderr: unknown }).stderr) };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const allowed = [
  'src/server/features/billing/',
  'src/server/features/payments/',
  'src/server/features/coupons/',
  'src/server/features/health/',
  'src/server/features/dev-outbox/',
  'src/server/features/member/',
  'src/client/features/static-pages/',
  'src/client/features/errors/',
  'src/client/features/consent/',
  // A contract file named for no feature, whose owner the check names.
  'src/shared/session.ts',
];

describe('the feature-folder check', () => {
  it('passes when each feature has a server folder, a client folder and a shared contract', () => {
    const result = check([
      ...allowed,
      'src/server/features/cart/',
      'src/client/features/cart/',
      'src/shared/cart.ts',
    ]);
    expect(result).toMatchObject({ passed: true });
  });

  it('fails for a server feature with no client counterpart, naming it', () => {
    const result = check([...allowed, 'src/server/features/messaging/', 'src/shared/messaging.ts']);
    expect(result.passed).toBe(false);
    expect(result.output).toContain(
      'src/server/features/messaging/ has no src/client/features/messaging/',
    );
  });

  it('fails for a feature whose contract is not in shared under its name', () => {
    const result = check([
      ...allowed,
      'src/server/features/visits/',
      'src/client/features/visits/',
    ]);
    expect(result.passed).toBe(false);
    expect(result.output).toContain('feature visits has no contract in src/shared/visits.ts');
  });

  it('fails when the allow-list names a folder that is gone, so it stays short', () => {
    const result = check(allowed.filter((entry) => !entry.includes('billing')));
    expect(result.passed).toBe(false);
    expect(result.output).toContain('src/server/features/billing/');
  });
});

/**
 * A feature with both halves and a contract declaring `endpoints` as its `<name>Api`; the ones in
 * `apiOnly` say why no screen calls them.
 */
const feature = (
  name: string,
  endpoints: string[],
  apiOnly: string[] = [],
): (string | [string, string])[] => [
  `src/server/features/${name}/`,
  `src/client/features/${name}/`,
  [
    `src/shared/${name}.ts`,
    `export const ${name}Api = {\n${endpoints
      .map((e) =>
        apiOnly.includes(e)
          ? `  ${e}: endpoint({\n    path: '/${e}',\n    apiOnly: 'for clients of the API',\n  }),\n`
          : `  ${e}: endpoint({ path: '/${e}' }),\n`,
      )
      .join('')}};\n`,
  ],
];

describe('the contract check', () => {
  const shop = [
    ...allowed,
    ...feature('cart', ['cart', 'couponCode']),
    ...feature('catalog', ['products']),
    ...feature('orders', ['ordersDetails', 'orderCreate'], ['orderCreate']),
    ...feature('accounts', ['basics', 'patientData']),
    ['src/shared/session.ts', 'export const sessionApi = {\n  verify: endpoint({}),\n};\n'],
    // The member frame serves what it composes (the allow-list's reason).
    [
      'src/server/features/member/member.routes.ts',
      'route(app, accountsApi.basics, {}, h);\nroute(app, accountsApi.patientData, {}, h);\nroute(\n  app,\n  ordersApi.ordersDetails,\n  {},\n  h,\n);\n',
    ],
    // session.ts is auth's contract.
    ...feature('auth', []),
    ['src/server/features/auth/auth.routes.ts', 'route(app, sessionApi.verify, {}, h);\n'],
    ['src/client/features/auth/session.api.ts', 'call(sessionApi.verify);\n'],
    ['src/server/features/cart/cart.routes.ts', 'route(app, cartApi.cart, {}, h);\n'],
    [
      'src/client/features/cart/cart.api.ts',
      'call(cartApi.cart, { body });\ncallWithMessage(cartApi.couponCode, { body });\n',
    ],
    ['src/client/features/catalog/catalog.api.ts', 'call(catalogApi.products);\n'],
    ['src/client/features/orders/orders.api.ts', 'call(ordersApi.ordersDetails);\n'],
    [
      'src/client/features/accounts/accounts.api.ts',
      'call(accountsApi.basics);\ncall(accountsApi.patientData);\n',
    ],
  ] satisfies (string | [string, string])[];

  it('fails on an endpoint no screen calls unless it says why (apiOnly), and on an API-only one a screen calls', () => {
    const withoutScreen = check([
      ...shop.filter((entry) => !(Array.isArray(entry) && entry[0].endsWith('catalog.api.ts'))),
    ]);
    expect(withoutScreen.passed).toBe(false);
    expect(withoutScreen.output).toContain(
      'catalogApi.products is called by no screen: delete it, or say why it stays (apiOnly)',
    );
    const calledAnyway = check([
      ...shop,
      ['src/client/features/orders/place.ts', 'call(ordersApi.orderCreate, { body });\n'],
    ]);
    expect(calledAnyway.passed).toBe(false);
    expect(calledAnyway.output).toContain(
      'ordersApi.orderCreate is marked apiOnly, but the client names it',
    );
  });

  it('passes when each endpoint is served and called by the feature that declares it, frames and named contract owners included', () => {
    const result = check(shop);
    expect(result.output).toContain(
      'each of 6 contracts is served and called by its own feature; 1 of 8 endpoints are API-only',
    );
    expect(result.passed).toBe(true);
  });

  it('fails on an endpoint served by another feature, naming it and the file', () => {
    const result = check([
      ...shop,
      [
        'src/server/features/coupons/coupons.routes.ts',
        'route(\n  app,\n  cartApi.couponCode,\n  {},\n  h,\n);\n',
      ],
    ]);
    expect(result.passed).toBe(false);
    expect(result.output).toContain(
      'cartApi.couponCode is declared by cart but served by coupons (src/server/features/coupons/coupons.routes.ts)',
    );
  });

  it('fails on an endpoint called by another client feature, or by code outside every feature', () => {
    const result = check([
      ...shop,
      [
        'src/client/features/orders/components/buy-again.tsx',
        'await call(catalogApi.products, { signal });\n',
      ],
      ['src/client/lib/prefetch.ts', 'callWithMessage(cartApi.cart);\n'],
    ]);
    expect(result.passed).toBe(false);
    expect(result.output).toContain(
      'catalogApi.products is declared by catalog but called by orders (src/client/features/orders/components/buy-again.tsx)',
    );
    expect(result.output).toContain(
      'cartApi.cart is declared by cart but called outside every feature (src/client/lib/prefetch.ts)',
    );
  });

  it('fails when a frame no longer serves what the allow-list says, so the list stays true', () => {
    const result = check(
      shop.map((entry) =>
        Array.isArray(entry) && entry[0] === 'src/server/features/member/member.routes.ts'
          ? ([entry[0], 'route(app, accountsApi.basics, {}, h);\n'] as [string, string])
          : entry,
      ),
    );
    expect(result.passed).toBe(false);
    expect(result.output).toContain(
      'frames list accountsApi.patientData for member, which no longer serves it',
    );
  });
});
