import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { urlOf } from '#test/contract.ts';
import { insertCustomer } from '#test/factories.ts';
import { catalogApi } from '#shared/catalog.ts';
import { securityHeaders } from './app.ts';
import { CATALOG_CHECK_MS } from './features/catalog/catalog.version.ts';

/** A URL under the API's prefix that no endpoint declares: what the 404 and error tests send. */
const unknownCall = '/lapi/nope';

const preCompressedScript = `console.log(${JSON.stringify('y'.repeat(4000))});`;

describe(`the application shell (${testDialect})`, () => {
  let t: TestApp;
  let buildDir: string;

  beforeAll(async () => {
    // A stand-in for `vite build` output: what matters here is how the server serves it.
    buildDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pairwell-build-'));
    const clientDir = path.join(buildDir, 'client');
    fs.mkdirSync(path.join(clientDir, 'assets'), { recursive: true });
    fs.writeFileSync(
      path.join(clientDir, 'index.html'),
      '<!doctype html><html><head><title>Pairwell</title><meta property="og:title" content="Pairwell" /><!--runtime-config--><script type="module" crossorigin src="/assets/index-abc123.js"></script><link rel="modulepreload" crossorigin href="/assets/chunk-def456.js"></head><body><div id="root"></div></body></html>',
    );
    // And for `vite build --ssr` (decision 011): prerenders `/` and product pages, and fails on
    // /privacy, as a prerender that throws would.
    fs.mkdirSync(path.join(buildDir, 'ssr'));
    fs.writeFileSync(
      path.join(buildDir, 'ssr', 'prerender.js'),
      `export const prerenderedRoutes = ['/', '/shop/:slug', '/privacy'];
      export const prerenderable = (pathname, catalog) =>
        pathname === '/' || pathname === '/privacy' ||
        catalog.lines.some((line) => pathname === '/shop/' + line.slug);
      export async function renderPage(pathname, catalog, config) {
        globalThis.prerenderCalls = (globalThis.prerenderCalls ?? 0) + 1;
        if (pathname === '/privacy') throw new Error('the prerender failed');
        return {
          markup: '<main>prerendered ' + pathname + ', ' + catalog.lines.length + ' lines, visits ' +
            config.features.onlineVisit + '</main>',
          title: pathname === '/' ? undefined : 'Sleep & <rest> "now" $& $1',
        };
      }`,
    );
    fs.writeFileSync(
      path.join(clientDir, 'assets', 'index-abc123.js'),
      `console.log(${JSON.stringify('x'.repeat(4000))});`,
    );
    // A script as the build leaves it: beside itself, brotli- and gzip-compressed (vite.config.ts).
    // The stand-ins' bytes differ from what compressing the script would give, so a test can tell
    // which file went out.
    fs.writeFileSync(path.join(clientDir, 'assets', 'chunk-def456.js'), preCompressedScript);
    fs.writeFileSync(
      path.join(clientDir, 'assets', 'chunk-def456.js.br'),
      brotliCompressSync('console.log("from the .br file");'),
    );
    fs.writeFileSync(
      path.join(clientDir, 'assets', 'chunk-def456.js.gz'),
      gzipSync('console.log("from the .gz file");'),
    );
    fs.writeFileSync(path.join(clientDir, 'version.json'), '{"version":"1"}');
    t = await buildTestApp({
      clientDir,
      env: { FEATURE_ONLINE_VISIT: 'false', SENTRY_DSN: 'https://key@o1.ingest.example.io/1' },
    });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(buildDir, { recursive: true, force: true });
  });

  it('GET /healthz answers 200 when the database answers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('unknown /lapi paths answer a JSON 404 in the one error body shape', async () => {
    for (const [method, url] of [
      ['GET', unknownCall],
      ['POST', unknownCall],
      ['GET', '/lapi'],
      // A declared endpoint's URL, by a method it does not answer.
      ['DELETE', urlOf(catalogApi.products)],
    ] as const) {
      const response = await t.app.inject({ method, url });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.headers['content-type']).toContain('application/json');
      expect(response.json()).toMatchObject({
        status: 'FAILURE',
        code: 'NOT_FOUND',
        message: 'Not found',
      });
      expect(response.json<{ requestId: string }>().requestId).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('every other path is the app shell: index.html carrying the runtime configuration', async () => {
    for (const url of ['/', '/faq', '/orders', '/shop/sleep-gummies', '/anything/else?x=1']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
      const config = /<script id="runtime-config" type="application\/json">(.*?)<\/script>/.exec(
        response.body,
      )?.[1];
      expect(JSON.parse(config ?? 'null')).toMatchObject({
        features: { login: true, onlineVisit: false },
        versionCheck: false,
        sentryDsn: 'https://key@o1.ingest.example.io/1',
      });
    }
  });

  it('the home and product pages ask the browser for the picture they lead with, at once', async () => {
    const preloads = async (url: string) =>
      [
        ...(await t.app.inject({ method: 'GET', url })).body.matchAll(
          /<link rel="preload" as="image" href="([^"]+)" fetchpriority="high" \/>/g,
        ),
      ].map((match) => match[1]);
    expect(await preloads('/')).toEqual(['/images/supp-bundle.webp']);
    expect(await preloads('/shop/sleep-gummies')).toEqual(['/images/supp-sleep.webp']);
    expect(await preloads('/shop/biotin-gummies?ref=mail')).toEqual(['/images/supp-biotin.webp']);
    for (const url of ['/shop/no-such-product', '/shop', '/orders', '/faq', '/shop/%3Cb%3E'])
      expect(await preloads(url), url).toEqual([]);
  });

  it('prerenders the pages it can, with their title and the data they were rendered from', async () => {
    const home = await t.app.inject({ method: 'GET', url: '/' });
    const lineCount = JSON.parse(
      /<script id="page-data" type="application\/json">(.*?)<\/script>/.exec(home.body)?.[1] ??
        'null',
    ) as { catalog: { lines: { slug: string }[] } };
    expect(lineCount.catalog.lines.map((line) => line.slug)).toContain('sleep-gummies');
    expect(home.body).toContain(
      `<div id="root"><main>prerendered /, ${lineCount.catalog.lines.length} lines, visits false</main></div>`,
    );
    expect(home.body).toContain('<title>Pairwell</title>');
    // It paints before the app's code is asked for: the entry and its modules are the deferred
    // entry, which the early-input script loads after the first paint.
    expect(home.body).toContain('<meta name="deferred-entry" content="/assets/index-abc123.js" />');
    expect(home.body).toContain(
      '<meta name="deferred-entry-preload" content="/assets/chunk-def456.js" />',
    );
    expect(home.body).not.toContain('<script type="module"');
    expect(home.body).not.toContain('modulepreload');

    const product = await t.app.inject({ method: 'GET', url: '/shop/sleep-gummies?ref=mail' });
    expect(product.body).toContain('<main>prerendered /shop/sleep-gummies,');
    expect(product.body).toContain('<title>Sleep &amp; &lt;rest&gt; "now" $&amp; $1</title>');
    expect(product.body).toContain(
      '<meta property="og:title" content="Sleep &amp; &lt;rest> &quot;now&quot; $&amp; $1"',
    );

    // Not prerendered (a member's page, an unknown product) or the prerender failed: the browser
    // renders it.
    for (const url of ['/orders', '/shop/no-such-gummies', '/privacy']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain('<div id="root"></div>');
      expect(response.body, url).not.toContain('page-data');
      expect(response.body, url).toContain('<title>Pairwell</title>');
      expect(response.body, url).toContain(
        '<script type="module" crossorigin src="/assets/index-abc123.js"></script>',
      );
    }
  });

  it('keeps each page, compressed, after its first render; a failed render is not kept', async () => {
    const renders = () => (globalThis as { prerenderCalls?: number }).prerenderCalls ?? 0;
    const get = (url: string, encoding?: string) =>
      t.app.inject({
        method: 'GET',
        url,
        headers: encoding ? { 'accept-encoding': encoding } : {},
      });
    const first = await get('/shop/biotin-gummies');
    const before = renders();
    const br = await get('/shop/biotin-gummies?ref=mail', 'br, gzip');
    const gzip = await get('/shop/biotin-gummies', 'gzip');
    expect(renders()).toBe(before);
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(first.body);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString('utf8')).toBe(first.body);
    for (const response of [first, br, gzip]) {
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
    // The prerender of /privacy throws: each visit tries it again.
    await get('/privacy');
    const afterOne = renders();
    await get('/privacy');
    expect(renders()).toBe(afterOne + 1);
  });

  it("no kept page or catalogue answer carries a customer's data: a customer gets a visitor's bytes", async () => {
    const customer = await insertCustomer(t.app, {
      first_name: 'Quintessa',
      last_name: 'Vandermeer',
    });
    // Pages no test drew before, so the customer's own visit is the one that is kept.
    for (const url of [
      '/subscriptions',
      '/messages',
      urlOf(catalogApi.products),
      urlOf(catalogApi.product, { slug: 'biotin-gummies' }),
    ]) {
      const theirs = await t.app.inject({
        method: 'GET',
        url,
        headers: { cookie: customer.cookie },
      });
      const visitor = await t.app.inject({ method: 'GET', url });
      expect(theirs.statusCode, url).toBe(200);
      expect(theirs.rawPayload.equals(visitor.rawPayload), url).toBe(true);
      for (const theirOwn of ['Quintessa', 'Vandermeer', customer.email, customer.leadsId])
        expect(theirs.body, url).not.toContain(theirOwn);
    }
  });

  it('draws a kept page again once the catalogue changes, and only then', async () => {
    const renders = () => (globalThis as { prerenderCalls?: number }).prerenderCalls ?? 0;
    const home = () => t.app.inject({ method: 'GET', url: '/' });
    await home();
    const kept = renders();
    await home();
    expect(renders()).toBe(kept);
    // Any write to the catalogue raises its version, even one that leaves a value as it was.
    await t.app.db
      .updateTable('product_lines')
      .set((eb) => ({ summary: eb.ref('summary') }))
      .where('slug', '=', 'sleep-gummies')
      .execute();
    await home();
    expect(renders()).toBe(kept);
    t.clock.advance(CATALOG_CHECK_MS);
    // The first visit after the second starts the version's read; a visit after it draws anew.
    for (let tries = 0; tries < 100 && renders() === kept; tries++) {
      await home();
      await setImmediate();
    }
    expect(renders()).toBe(kept + 1);
    await home();
    expect(renders()).toBe(kept + 1);
  });

  it('a page form sent before the page was interactive goes back to the page, its fields unread', async () => {
    for (const [url, location] of [
      ['/login', '/login'],
      ['/shop/sleep-gummies?x=1', '/shop/sleep-gummies'],
      ['//evil.example/x', '/evil.example/x'],
    ] as const) {
      const response = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'email=canary%40example.com&password=canary-form-password',
      });
      expect(response.statusCode, url).toBe(303);
      expect(response.headers.location, url).toBe(location);
    }
    expect(t.logs()).not.toContain('canary-form-password');
  });

  it('hashed assets are cached as immutable and compressed; version.json is never cached', async () => {
    const asset = await t.app.inject({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-encoding']).toBe('gzip');
    const version = await t.app.inject({ method: 'GET', url: '/version.json' });
    expect(version.headers['cache-control']).toBe('no-store');
    expect(version.json()).toEqual({ version: '1' });
  });

  it('a script compressed at build time goes out as that file, never compressed again', async () => {
    const as = async (acceptEncoding: string | undefined) =>
      t.app.inject({
        method: 'GET',
        url: '/assets/chunk-def456.js',
        headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
      });
    const brotli = await as('gzip, deflate, br, zstd');
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toMatch(/javascript/);
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(
      'console.log("from the .br file");',
    );
    const gzip = await as('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe('console.log("from the .gz file");');
    const plain = await as(undefined);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(preCompressedScript);
    expect(plain.headers['content-type']).toBe(brotli.headers['content-type']);
    // The compressed files are not files of the site in their own right.
    for (const suffix of ['.br', '.gz']) {
      const direct = await t.app.inject({ method: 'GET', url: `/assets/chunk-def456.js${suffix}` });
      expect(direct.statusCode, suffix).toBe(404);
    }
  });

  it('a missing file is a 404, not the web app', async () => {
    for (const url of ['/assets/missing-123.js', '/images/nope.webp', '/favicon.ico']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body).not.toContain('runtime-config');
    }
  });

  it('sends a real Content-Security-Policy and the other security headers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("connect-src 'self' https://o1.ingest.example.io");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    // The same headers on an API answer, a missing page's and an error's.
    for (const [method, url] of [
      ['GET', urlOf(catalogApi.products)],
      ['GET', '/assets/missing-123.js'],
      ['POST', unknownCall],
    ] as const) {
      const other = await t.app.inject({ method, url });
      expect(other.headers['content-security-policy'], url).toBe(csp);
      expect(other.headers['x-content-type-options'], url).toBe('nosniff');
      expect(other.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(other.headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it('without GTM_ID no answer lets a tag manager in, and the page says there is none', async () => {
    for (const url of ['/', '/shop/sleep-gummies', '/cart', '/dashboard']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.headers['content-security-policy'], url).not.toContain('google');
      expect(response.body, url).toContain('"gtmId":null');
    }
  });

  it('computes HSTS and upgrade-insecure-requests into the headers in production only', () => {
    const production = securityHeaders({ ...t.app.ctx.env, NODE_ENV: 'production' });
    expect(production['strict-transport-security']).toMatch(/^max-age=\d+; includeSubDomains$/);
    expect(production['content-security-policy']).toContain('upgrade-insecure-requests');
    expect(securityHeaders(t.app.ctx.env)['strict-transport-security']).toBeUndefined();
  });

  it('bad JSON answers 400 in the error body shape, never a 500', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: unknownCall,
      headers: { 'content-type': 'application/json' },
      payload: '{"broken":',
    });
    expect(response.statusCode).toBeLessThan(500);
    expect(response.json()).toMatchObject({ status: 'FAILURE' });
  });

  it('refuses a state-changing request from another site', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: urlOf(catalogApi.products),
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'CROSS_SITE' });
    const fetchSite = await t.app.inject({
      method: 'POST',
      url: urlOf(catalogApi.products),
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(fetchSite.statusCode).toBe(403);
  });

  it('serves the API reference page, and the OpenAPI document beside it', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/lapi/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('swagger-ui');
    // Its scripts come from this origin, so the page's Content-Security-Policy holds.
    expect(page.body).not.toMatch(/src="https?:/);
    const response = await t.app.inject({ method: 'GET', url: '/lapi/docs/json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      // The document's own spelling of a path parameter is `{slug}`, not the contract's `:slug`.
      expect.arrayContaining([
        urlOf(catalogApi.products),
        '/lapi/products/{slug}',
        '/healthz',
        '/readyz',
      ]),
    );
    expect(Object.keys(doc.paths).filter((path) => path.startsWith('/lapi/docs'))).toEqual([]);
    const yaml = await t.app.inject({ method: 'GET', url: '/lapi/docs/yaml' });
    expect(yaml.body).toMatch(/^openapi: 3\./);
  });

  it('logs requests without query strings, cookies or secrets', async () => {
    await t.app.inject({
      method: 'GET',
      url: '/reset-password?id=canary-reset-token-123',
      headers: { cookie: 'pw_session=canary-session-456' },
    });
    t.app.log.info(
      { password: 'canary-password-789', user: { ccnum: '4242424242424242' } },
      'test line',
    );
    const logs = t.logs();
    expect(logs).toContain('/reset-password?…');
    expect(logs).toContain('test line');
    // One line for the request, when it was answered: its path, status and time.
    const lines = logs
      .split('\n')
      .filter((line) => line.includes('/reset-password'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: 'request completed',
      req: { method: 'GET', url: '/reset-password?…' },
      res: { statusCode: 200 },
    });
    expect(lines[0]?.responseTime).toEqual(expect.any(Number));
    for (const secret of [
      'canary-reset-token-123',
      'canary-session-456',
      'canary-password-789',
      '4242424242424242',
    ]) {
      expect(logs).not.toContain(secret);
    }
  });
});

describe(`a tag manager switched on with GTM_ID (${testDialect})`, () => {
  let t: TestApp;
  let buildDir: string;

  beforeAll(async () => {
    buildDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pairwell-build-'));
    const clientDir = path.join(buildDir, 'client');
    fs.mkdirSync(clientDir, { recursive: true });
    fs.writeFileSync(
      path.join(clientDir, 'index.html'),
      '<!doctype html><html><head><title>Pairwell</title><!--runtime-config--><script type="module" crossorigin src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>',
    );
    t = await buildTestApp({ clientDir, env: { GTM_ID: 'GTM-ABC1234' } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(buildDir, { recursive: true, force: true });
  });

  const cspOf = async (url: string) =>
    String((await t.app.inject({ method: 'GET', url })).headers['content-security-policy']);

  it('the public pages may load it: Google Analytics 4 through Tag Manager, and no inline script', async () => {
    for (const url of [
      '/',
      '/shop',
      '/shop/sleep-gummies',
      '/cart',
      '/checkout/shipping',
      '/faq',
      '/login',
      '/signup?x=1',
    ]) {
      const csp = await cspOf(url);
      expect(csp, url).toContain("script-src 'self' https://*.googletagmanager.com;");
      expect(csp, url).toContain(
        "connect-src 'self' https://*.google-analytics.com https://*.analytics.google.com https://*.googletagmanager.com;",
      );
      expect(csp, url).toContain(
        "img-src 'self' data: blob: https://*.google-analytics.com https://*.googletagmanager.com;",
      );
      expect(csp, url).not.toMatch(/script-src[^;]*unsafe/);
    }
    const page = await t.app.inject({ method: 'GET', url: '/shop' });
    expect(page.body).toContain('"gtmId":"GTM-ABC1234"');
  });

  it('member, visit and staff pages, tokens’ pages and the API keep the strict policy', async () => {
    const strict = await cspOf(urlOf(catalogApi.products));
    expect(strict).toContain("script-src 'self';");
    expect(strict).not.toContain('google');
    for (const url of [
      '/dashboard',
      '/accounts',
      '/orders',
      '/messages',
      '/subscriptions',
      '/visit/hair',
      '/visit/ed/questions',
      '/staff',
      '/staff/login',
      '/reset-password',
      '/login/unlock',
      '/undo-email-change',
      '/logout',
      '/no-such-page',
    ])
      expect(await cspOf(url), url).toBe(strict);
  });
});
