import net from 'node:net';
import SQLite from 'better-sqlite3';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { CATALOG_CHECK_MS } from '#server/features/catalog/catalog.version.ts';
import { messages } from '#shared/wording.ts';
import { buildTestApp, testDatabaseUrl, testDialect, type TestApp } from './app.ts';
import { insertCustomer, post, type TestCustomer } from './factories.ts';
import { offers } from '#shared/catalog.ts';

/**
 * Issue 11, finding 11: while the database cannot be reached, calls answer 503 with Retry-After and
 * a clear message (not 500), and the app recovers on its own once the database is back.
 */

function expectUnavailable(response: LightMyRequestResponse) {
  const what = `${response.statusCode} ${response.body.slice(0, 200)}`;
  expect(response.statusCode, what).toBe(503);
  expect(Number(response.headers['retry-after']), what).toBeGreaterThan(0);
  expect(response.json(), what).toMatchObject({
    status: 'FAILURE',
    code: 'UNAVAILABLE',
    message: messages.serviceUnavailable,
  });
}

/** Calls `request` until it answers 200, a bounded number of times (the pool reconnects). */
async function eventually200(request: () => Promise<LightMyRequestResponse>) {
  let last: LightMyRequestResponse | undefined;
  for (let attempt = 0; attempt < 20; attempt++) {
    last = await request();
    if (last.statusCode === 200) return last;
  }
  throw new Error(`never answered 200; last: ${last?.statusCode} ${last?.body.slice(0, 200)}`);
}

/**
 * A TCP relay between the app and the shared PostgreSQL server, so the test can take "the
 * database" away from this one app (every connection cut, new ones refused) without stopping the
 * server other tests use.
 */
class Relay {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async open(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  /** The outage: every open connection is cut and the port refuses new ones. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    const closed = new Promise<void>((resolve) =>
      server ? server.close(() => resolve()) : resolve(),
    );
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }
}

describe.runIf(testDialect === 'postgres')('database outage on PostgreSQL', () => {
  let t: TestApp;
  let relay: Relay;
  let customer: TestCustomer;

  beforeAll(async () => {
    const target = new URL(testDatabaseUrl ?? '');
    relay = new Relay(target.hostname, Number(target.port || 5432));
    await relay.open();
    const viaRelay = new URL(testDatabaseUrl ?? '');
    viaRelay.hostname = '127.0.0.1';
    viaRelay.port = String(relay.port);
    t = await buildTestApp({ database: { databaseUrl: viaRelay.toString() } });
    customer = await insertCustomer(t.app);
  });
  afterAll(async () => {
    await relay.cut();
    // The schema is dropped over a direct connection, so the relay may stay shut.
    await t.close();
  });

  const products = () => t.app.inject({ method: 'GET', url: '/lapi/products/' });
  const addToCart = () =>
    post(
      t.app,
      '/lapi/v2/ecom/add-product',
      { product_id: offers.biotin.oneTime, quantity: 1 },
      customer.cookie,
    );
  const cart = () => post(t.app, '/lapi/v2/ecom/cart', {}, customer.cookie);

  it('answers 503 with Retry-After while the database is unreachable, and 200 once it is back', async () => {
    expect((await products()).statusCode).toBe(200);
    expect((await addToCart()).statusCode).toBe(200);

    await relay.cut();
    // The catalogue is kept in memory (decision 019): it is still served, also once its version
    // is due to be read again and cannot be.
    expect((await products()).statusCode).toBe(200);
    t.clock.advance(CATALOG_CHECK_MS);
    expect((await products()).statusCode).toBe(200);
    expect((await products()).statusCode).toBe(200);
    expectUnavailable(await cart());
    expectUnavailable(await addToCart());
    expect(t.logs()).not.toContain('"msg":"unexpected error"');
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(503);

    await relay.open();
    await eventually200(cart);
    await eventually200(addToCart);
  });
});

describe.runIf(testDialect === 'sqlite')('database unavailable on SQLite', () => {
  let t: TestApp;
  let customer: TestCustomer;
  let locker: SQLite.Database | undefined;

  beforeAll(async () => {
    t = await buildTestApp();
    customer = await insertCustomer(t.app);
    // A SQLite file is "unavailable" when another process holds its write lock past the busy
    // timeout (a backup, a stuck migration). Wait a tenth of a second here, not five.
    await sql`pragma busy_timeout = 100`.execute(t.app.db);
  });
  afterEach(() => {
    if (locker?.inTransaction) locker.exec('rollback');
    locker?.close();
    locker = undefined;
  });
  afterAll(() => t.close());

  const addToCart = () =>
    post(
      t.app,
      '/lapi/v2/ecom/add-product',
      { product_id: offers.biotin.oneTime, quantity: 1 },
      customer.cookie,
    );

  it('answers 503 with Retry-After while another process holds the write lock, and 200 after', async () => {
    expect((await addToCart()).statusCode).toBe(200);
    const file = t.app.dbHandle.file ?? '';
    locker = new SQLite(file);
    locker.exec('begin exclusive');
    expectUnavailable(await addToCart());
    expect(t.logs()).not.toContain('"msg":"unexpected error"');

    locker.exec('rollback');
    await eventually200(addToCart);
  });
});
