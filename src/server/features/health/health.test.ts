import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs, urlOf } from '#test/contract.ts';
import { cartApi } from '#shared/cart.ts';
import { catalogApi } from '#shared/catalog.ts';

/** Issue 15: readiness beside liveness, and one request id from the proxy to the answer. */
describe(`/readyz and X-Request-Id (${testDialect})`, () => {
  let t: TestApp;
  let behindProxy: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    behindProxy = await buildTestApp({ env: { TRUST_PROXY: 'true' } });
  });
  afterAll(async () => {
    await behindProxy.close();
    await t.close();
  });

  /** A URL under the API's prefix that no endpoint declares: its 404 is what these tests read. */
  const unknownCall = '/lapi/no-such-call';
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

  it('/readyz: ready once the database answers and has every migration', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ status: 'ready', database: 'ok', migrations: 'applied' });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('/readyz: not ready (503) while a migration this build knows is missing, ready again after', async () => {
    const [last] = (
      await sql<{ name: string; timestamp: string }>`
        select name, timestamp from kysely_migration order by name desc limit 1`.execute(
        behindProxy.app.db,
      )
    ).rows;
    expect(last).toBeDefined();
    await sql`delete from kysely_migration where name = ${last!.name}`.execute(behindProxy.app.db);
    const notReady = await behindProxy.app.inject({ method: 'GET', url: '/readyz' });
    expect(notReady.statusCode).toBe(503);
    expect(notReady.json()).toMatchObject({
      status: 'FAILURE',
      message: 'The database is missing 1 migration(s) this version needs.',
    });
    // Liveness is a different question: the instance and its database still answer.
    expect((await behindProxy.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    await sql`insert into kysely_migration (name, timestamp) values (${last!.name}, ${last!.timestamp})`.execute(
      behindProxy.app.db,
    );
    expect((await behindProxy.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('every answer carries its request id, the one its error body and log line name', async () => {
    const answers = await Promise.all([
      t.app.inject({ method: 'GET', url: '/healthz' }),
      callAs(t.app, catalogApi.products, undefined),
      t.app.inject({ method: 'GET', url: unknownCall }),
      callAs(t.app, cartApi.cart, {}),
    ]);
    const ids = answers.map((answer) => answer.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
    // The 404 and the 401 say the same id in their bodies.
    expect(answers[2]!.json<{ requestId: string }>().requestId).toBe(ids[2]);
    expect(answers[3]!.json<{ requestId: string }>().requestId).toBe(ids[3]);
    expect(t.logs()).toContain(`"id":"${ids[2]}"`);
  });

  it("a proxy's X-Request-Id is kept only behind a trusted proxy, and only if it looks like an id", async () => {
    const sent = 'f3b2c1d0-trace-4a5b-9c8d-0123456789ab';
    const trusted = await behindProxy.app.inject({
      method: 'GET',
      url: unknownCall,
      headers: { 'x-request-id': sent },
    });
    expect(trusted.headers['x-request-id']).toBe(sent);
    expect(trusted.json<{ requestId: string }>().requestId).toBe(sent);

    const direct = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': sent },
    });
    expect(direct.headers['x-request-id']).toMatch(UUID);

    for (const bad of ['short', 'a'.repeat(129), 'evil"id<script>', 'id with spaces 1234'])
      expect(
        (
          await behindProxy.app.inject({
            method: 'GET',
            url: '/healthz',
            headers: { 'x-request-id': bad },
          })
        ).headers['x-request-id'],
      ).toMatch(UUID);
  });

  it("each request's log line names the client's address: the socket's, or behind a trusted proxy the one it forwards", async () => {
    const lineFor = (app: TestApp, id: string) =>
      app
        .logs()
        .split('\n')
        .filter((line) => line.includes(`"id":"${id}"`))
        .map((line) => JSON.parse(line) as { msg: string; req: Record<string, unknown> })
        .find((line) => line.msg === 'request completed');

    // Straight from a client: the socket's address, whatever X-Forwarded-For claims.
    const direct = await callAs(t.app, catalogApi.products, undefined, undefined, {
      remoteAddress: '198.51.100.20',
      headers: { 'x-forwarded-for': '203.0.113.7' },
    });
    expect(lineFor(t, String(direct.headers['x-request-id']))?.req).toMatchObject({
      method: 'GET',
      url: urlOf(catalogApi.products),
      remoteAddress: '198.51.100.20',
    });

    // Behind nginx, which writes the address it saw in X-Forwarded-For (deploy/nginx/pairwell.conf).
    const proxied = await callAs(behindProxy.app, catalogApi.products, undefined, undefined, {
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '198.51.100.21' },
    });
    expect(lineFor(behindProxy, String(proxied.headers['x-request-id']))?.req).toMatchObject({
      remoteAddress: '198.51.100.21',
    });
  });
});
