import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, expect, vi } from 'vitest';
import { hashPassword } from '#server/features/auth/passwords.ts';
import { createStaff } from '#server/features/staff/staff.service.ts';
import { offers } from '#shared/catalog.ts';
import { buildTestApp, testDatabaseUrl, type TestApp } from '#test/app.ts';
import { post, staffCookie, type TestCustomer } from '#test/factories.ts';
import {
  killServers,
  serverTestTimeout,
  startServer,
  type StartedServer,
} from '#test/spawn-server.ts';

/**
 * What the fault suites (payments.faults.test.ts, stripe.faults.test.ts) share: the server bundle,
 * child servers that kill themselves at a FAULT_KILL_AT point, the server that recovers them, the
 * staff who act on them, and the questions asked of the ledger. The suites differ in the gateway
 * they run against and what they ask of it, so those stay in each suite.
 */

const GRACE_SECONDS = 1;
const providerSecret = 'JBSWY3DPEHPK3PXP';
const opsSecret = 'KVKFKRCPNZQUYMLX';

/** How one fault is injected: a kill at a named point, or a kill `afterMs` after the request leaves. */
export type FaultHow = { point: string; env?: Record<string, string> } | { afterMs: number };

export interface FaultHarnessOptions {
  /** Names the bundle's folder, so suites running side by side never share one. */
  bundleName: string;
  /** The suite's staff: `provider@<domain>` ("Dr. <name>") and `ops@<domain>` ("Ops <name>"). */
  staff: { domain: string; name: string; password: string };
  /**
   * Run after the bundle is built and before the in-process app: starts what the suite runs
   * against and answers the environment the app and every child server get on top of their own
   * (Stripe mode's keys, say).
   */
  start?: () => Promise<Record<string, string>>;
  /** Run last, after the servers and the app are gone: stops what `start` started. */
  stop?: () => Promise<void>;
}

export interface FaultHarness {
  /** The in-process app (its database is the one the child servers use). */
  readonly t: TestApp;
  /** A provider's session cookie, licensed in OR. */
  readonly providerCookie: string;
  /** An operations session cookie. */
  readonly opsCookie: string;
  db(): TestApp['app']['db'];
  crash(how: FaultHow, act: (server: StartedServer) => Promise<unknown>): Promise<void>;
  recover(done: () => Promise<boolean>): Promise<StartedServer>;
  stop(server: StartedServer): Promise<void>;
  call(server: StartedServer, path: string, body: unknown, cookie?: string): Promise<Answer>;
  openLedgerRows(): Promise<number>;
  expectBoundedRuns(): Promise<void>;
  withSleepInCart(customer: TestCustomer): Promise<TestCustomer>;
  crashEach(
    points: readonly string[],
    act: (server: StartedServer, i: number) => Promise<unknown>,
  ): Promise<void>;
  crashRenewal(point: string): Promise<void>;
  recoverLedger(): Promise<StartedServer>;
  recoverCheckouts(customers: readonly TestCustomer[]): Promise<StartedServer>;
  recoverRenewals(subscriptionIds: readonly number[]): Promise<StartedServer>;
  placeOrders(buyers: readonly TestCustomer[], body: () => PostBody): Promise<number[]>;
  addSleep(server: StartedServer, customer: TestCustomer): Promise<Answer>;
  seenByOps(server: StartedServer, query: string): Promise<Answer>;
  approve(server: StartedServer, visitId: number, prescription: unknown): Promise<Answer>;
  refund(server: StartedServer, orderId: number, amountCents: number): Promise<Answer>;
  ordersOf(customerId: number): Promise<CustomerOrder[]>;
  confirmationsOf(email: string, orderNumber: string): Promise<{ id: number }[]>;
  visitOf(visitId: number): Promise<{ status: string; order_id: number | null }>;
  orderHolding(
    chargeId: string,
  ): Promise<{ id: number; status: string; payment_status: string } | undefined>;
  visitOrder(
    orderId: number,
  ): Promise<{ status: string; payment_status: string; charge_id: string | null }>;
  prescriptionsOf(visitId: number): Promise<{ id: number }[]>;
  refundBooks(orderId: number): Promise<RefundBooks>;
  renewalOrders(
    subscriptionId: number,
  ): Promise<{ payment_status: string; charge_id: string | null }[]>;
  nextBillingDate(subscriptionId: number): Promise<string>;
}

/** One of a customer's orders, as the place-order checks read it. */
export interface CustomerOrder {
  id: number;
  order_number: string;
  payment_status: string;
  charge_id: string | null;
}

/** What our side says was refunded of an order: the order, its reservation, the ledger, the audit log. */
export interface RefundBooks {
  order: number;
  reserved: number;
  ledger: number;
  audit: number;
}

/** The place-order faults: a kill at each step, then at a few moments of a timing sweep. */
export function checkoutCases(): { how: FaultHow; label: string }[] {
  const points = [
    'checkout:after-pending',
    'checkout:before-charge',
    'checkout:after-charge',
    'checkout:after-commit',
  ];
  const sweep = [10, 40, 120];
  return [
    ...points.map((point) => ({ how: { point }, label: point })),
    ...sweep.map((afterMs) => ({ how: { afterMs }, label: `after ${afterMs} ms` })),
  ];
}

/** What the provider prescribes when approving a visit in the approval faults. */
export function approvalPrescription() {
  const validUntil = new Date(Date.now() + 180 * 86_400_000).toISOString().slice(0, 10);
  return {
    drug: 'sildenafil',
    dosage: '50mg',
    quantity: 6,
    refills: 2,
    valid_until: validUntil,
    directions: 'Take one tablet about an hour before, no more than once a day.',
  };
}

/** A request body the in-process app accepts. */
type PostBody = Parameters<typeof post>[2];

/** What a child server answered to `call`. */
export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * Sets up a fault suite inside its `describe`: registers the hooks that build the server as
 * `npm start` runs it (bundled by the build's own script, inside the project so the bundle finds
 * node_modules), build the in-process app on the suite's database, create and log in its staff,
 * and clean all of it up. Answers the helpers the suite's tests use; `t` and the cookies can be
 * read once `beforeAll` has run.
 */
export function useFaultHarness(options: FaultHarnessOptions): FaultHarness {
  const bundleDir = path.resolve(
    'node_modules/.cache',
    `${options.bundleName}-${crypto.randomBytes(4).toString('hex')}`,
  );
  let t: TestApp | undefined;
  let extraEnv: Record<string, string> = {};
  let databaseUrl: string | undefined;
  let providerCookie = '';
  let opsCookie = '';
  // The running test's signal: aborted when it times out, which kills the servers it is waiting on.
  let testSignal: AbortSignal | undefined;

  const app = (): TestApp => {
    if (!t) throw new Error('the fault harness is read before its beforeAll has run');
    return t;
  };
  const db = () => app().app.db;

  beforeAll(async () => {
    execFileSync(process.execPath, ['scripts/build-server.mjs', bundleDir], { stdio: 'inherit' });
    extraEnv = (await options.start?.()) ?? {};
    t = await buildTestApp({ env: extraEnv });
    t.clock.set(new Date());
    databaseUrl = schemaUrl(t);
    ({ providerCookie, opsCookie } = await createStaffPair(t, options.staff));
  }, serverTestTimeout);
  afterAll(async () => {
    await killServers();
    await t?.close();
    await options.stop?.();
    fs.rmSync(bundleDir, { recursive: true, force: true });
  });
  beforeEach(({ signal }) => {
    testSignal = signal;
    // These tests talk to the servers they started, over loopback.
    vi.unstubAllGlobals();
  });

  /**
   * Starts a server and waits until it says it is listening, however long that takes on a busy
   * machine; with `mayDie`, a server killed on the way is fine.
   */
  function serve(env: Record<string, string>, mayDie = false): Promise<StartedServer> {
    return startServer(
      [path.join(bundleDir, 'main.js')],
      {
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        DATA_DIR: app().dataDir,
        BILLING_INTERVAL_SECONDS: '0',
        RECONCILE_INTERVAL_SECONDS: '0',
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        ...extraEnv,
        ...env,
      },
      { mayDie, signal: testSignal },
    );
  }

  /**
   * Starts a server that kills itself at `point` (or, for a timing sweep, is killed `afterMs` after
   * the request leaves), makes the request, and waits for the process to be gone.
   */
  async function crash(
    how: FaultHow,
    act: (server: StartedServer) => Promise<unknown>,
  ): Promise<void> {
    const server = await serve(
      'point' in how ? { FAULT_KILL_AT: how.point, ...how.env } : {},
      'point' in how && how.env !== undefined,
    );
    if ('afterMs' in how) {
      // The timing sweep: the kill is the fault injected, `afterMs` after the request leaves.
      setTimeout(() => server.child.kill('SIGKILL'), how.afterMs);
      await act(server).catch(() => undefined);
    } else {
      const answered = await act(server).then(
        (response) => response,
        () => 'died',
      );
      if (answered !== 'died') {
        // A request that finished without reaching the point: nothing was tested.
        server.child.kill('SIGKILL');
        throw new Error(
          `the server never reached ${how.point}; it answered ${JSON.stringify(answered)}: ${server.stderr()}`,
        );
      }
    }
    expect((await server.ended).signal).toBe('SIGKILL');
  }

  /** A server without the hook that reconciles (and bills) every second, until `done`. */
  async function recover(done: () => Promise<boolean>): Promise<StartedServer> {
    const server = await serve({
      RECONCILE_INTERVAL_SECONDS: '1',
      RECONCILE_GRACE_SECONDS: String(GRACE_SECONDS),
      BILLING_INTERVAL_SECONDS: '1',
    });
    // Asked again until it is so, with no deadline of its own (runs every second take longer on a
    // busy machine); a server that dies will never reconcile, so that ends the wait.
    try {
      while (!(await done())) {
        if (server.hasEnded()) throw new Error('the server ended');
        await delay(200, undefined, { signal: testSignal });
      }
    } catch (error) {
      const why = `not reconciled (${String(error)}); the server said: ${server.stderr()}`;
      // After the test's timeout the error goes nowhere: say it here.
      if (testSignal?.aborted) process.stderr.write(`${why}\n`);
      throw new Error(why, { cause: error });
    }
    return server;
  }

  /** Asks a server to shut down and waits until it has. */
  async function stop(server: StartedServer): Promise<void> {
    server.child.kill('SIGTERM');
    await server.ended;
  }

  /** Posts JSON to a child server, as the given session if any. */
  async function call(
    server: StartedServer,
    route: string,
    body: unknown,
    cookie?: string,
  ): Promise<Answer> {
    const response = await fetch(`${server.url}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  /** How many gateway calls are still written as started: none once recovery is done. */
  async function openLedgerRows(): Promise<number> {
    const rows = await db()
      .selectFrom('payment_ledger')
      .select('id')
      .where('status', '=', 'started')
      .execute();
    return rows.length;
  }

  /** Whether the customer's cart is still held by a checkout that has not finished. */
  async function cartClaimed(customerId: number): Promise<boolean> {
    const cart = await db()
      .selectFrom('carts')
      .select('checkout_key')
      .where('customer_id', '=', customerId)
      .executeTakeFirst();
    return Boolean(cart?.checkout_key);
  }

  /** No reconciled call took more than two reconciler runs. */
  async function expectBoundedRuns(): Promise<void> {
    const worst = await db()
      .selectFrom('payment_ledger')
      .select((eb) => eb.fn.max('reconcile_attempts').as('most'))
      .executeTakeFirstOrThrow();
    expect(Number(worst.most ?? 0)).toBeLessThanOrEqual(2);
  }

  /** Puts one sleep product in the customer's cart, through the in-process app. */
  async function withSleepInCart(customer: TestCustomer): Promise<TestCustomer> {
    await post(
      app().app,
      '/lapi/v2/ecom/add-product',
      { product_id: offers.sleep.oneTime, quantity: 1 },
      customer.cookie,
    );
    return customer;
  }

  /** Crashes one server for each point, side by side; `act` makes the request for point `i`. */
  async function crashEach(
    points: readonly string[],
    act: (server: StartedServer, i: number) => Promise<unknown>,
  ): Promise<void> {
    await Promise.all(points.map((point, i) => crash({ point }, (server) => act(server, i))));
  }

  /** The billing job, not a request, reaches the point: the server dies on its own. */
  function crashRenewal(point: string): Promise<void> {
    return crash({ point, env: { BILLING_INTERVAL_SECONDS: '1' } }, (server) =>
      server.ended.then(() => Promise.reject(new Error('the server died'))),
    );
  }

  /** Recovers until no gateway call is left started. */
  function recoverLedger(): Promise<StartedServer> {
    return recover(async () => (await openLedgerRows()) === 0);
  }

  /** Recovers until no gateway call is left started and no customer's cart is still claimed. */
  function recoverCheckouts(customers: readonly TestCustomer[]): Promise<StartedServer> {
    return recover(async () => {
      if ((await openLedgerRows()) > 0) return false;
      for (const c of customers) if (await cartClaimed(c.customerId)) return false;
      return true;
    });
  }

  /** Recovers until no gateway call is left started and every subscription's renewal is paid. */
  function recoverRenewals(subscriptionIds: readonly number[]): Promise<StartedServer> {
    const renewed = async (subscriptionId: number) => {
      const order = await db()
        .selectFrom('orders')
        .select(['payment_status'])
        .where('subscription_id', '=', subscriptionId)
        .executeTakeFirst();
      return order?.payment_status === 'paid';
    };
    return recover(async () => {
      if ((await openLedgerRows()) > 0) return false;
      for (const id of subscriptionIds) if (!(await renewed(id))) return false;
      return true;
    });
  }

  /** Each buyer places an order through the in-process app; answers the orders' ids. */
  async function placeOrders(
    buyers: readonly TestCustomer[],
    body: () => PostBody,
  ): Promise<number[]> {
    const orderIds: number[] = [];
    for (const b of buyers) {
      const placed = await post(app().app, '/lapi/v2/ecom/place-order', body(), b.cookie);
      expect(placed.statusCode, placed.body).toBe(200);
      orderIds.push(placed.json<{ data: { orders_id: number } }>().data.orders_id);
    }
    return orderIds;
  }

  /** Puts one sleep product in the customer's cart, through a child server. */
  function addSleep(server: StartedServer, customer: TestCustomer): Promise<Answer> {
    const product = { product_id: offers.sleep.oneTime, quantity: 1 };
    return call(server, '/lapi/v2/ecom/add-product', product, customer.cookie);
  }

  /** The orders operations find for `query`, through a child server. */
  function seenByOps(server: StartedServer, query: string): Promise<Answer> {
    return call(server, '/lapi/staff/orders/', { query }, opsCookie);
  }

  /** The provider approves a visit, through a child server. */
  function approve(server: StartedServer, visitId: number, prescription: unknown) {
    return call(
      server,
      '/lapi/staff/visits/approve/',
      { visit_id: visitId, prescription },
      providerCookie,
    );
  }

  /** Operations refund part of an order, through a child server. */
  function refund(server: StartedServer, orderId: number, amountCents: number) {
    const body = { order_id: orderId, amount_cents: amountCents, reason: 'Arrived damaged' };
    return call(server, '/lapi/staff/orders/refund/', body, opsCookie);
  }

  /** The customer's orders, with the charge each names. */
  function ordersOf(customerId: number): Promise<CustomerOrder[]> {
    return db()
      .selectFrom('orders')
      .select(['id', 'order_number', 'payment_status', 'charge_id'])
      .where('customer_id', '=', customerId)
      .execute();
  }

  /** The confirmations queued to `email` that name the order. */
  function confirmationsOf(email: string, orderNumber: string) {
    return db()
      .selectFrom('outbox_messages')
      .select('id')
      .where('recipient', '=', email)
      .where('subject', 'like', `%${orderNumber}%`)
      .execute();
  }

  /** A visit's status and the order it made. */
  function visitOf(visitId: number) {
    return db()
      .selectFrom('visits')
      .select(['status', 'order_id'])
      .where('id', '=', visitId)
      .executeTakeFirstOrThrow();
  }

  /** The order a hold (or charge) belongs to, if any. */
  function orderHolding(chargeId: string) {
    return db()
      .selectFrom('orders')
      .select(['id', 'status', 'payment_status'])
      .where('charge_id', '=', chargeId)
      .executeTakeFirst();
  }

  /** A visit's order, as the approval checks read it. */
  function visitOrder(orderId: number) {
    return db()
      .selectFrom('orders')
      .select(['status', 'payment_status', 'charge_id'])
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
  }

  /** The prescriptions written for a visit. */
  function prescriptionsOf(visitId: number) {
    return db().selectFrom('prescriptions').select('id').where('visit_id', '=', visitId).execute();
  }

  /** What our side has written of an order's refunds, for comparing with the gateway. */
  async function refundBooks(orderId: number): Promise<RefundBooks> {
    const order = await db()
      .selectFrom('orders')
      .select(['refund_cents', 'refund_reserved_cents'])
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    const ledger = await db()
      .selectFrom('payment_ledger')
      .select(['amount_cents'])
      .where('order_id', '=', orderId)
      .where('operation', '=', 'refund')
      .where('status', '=', 'succeeded')
      .execute();
    const audit = await db()
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'refund')
      .where('subject_id', '=', String(orderId))
      .execute();
    return {
      order: order.refund_cents,
      reserved: order.refund_reserved_cents,
      ledger: ledger.reduce((sum, r) => sum + r.amount_cents, 0),
      audit: audit.length,
    };
  }

  /** The orders a subscription's renewals made. */
  function renewalOrders(subscriptionId: number) {
    return db()
      .selectFrom('orders')
      .select(['payment_status', 'charge_id'])
      .where('subscription_id', '=', subscriptionId)
      .execute();
  }

  /** When the subscription bills next (YYYY-MM-DD). */
  async function nextBillingDate(subscriptionId: number): Promise<string> {
    const subscription = await db()
      .selectFrom('subscriptions')
      .select('next_billing_date')
      .where('id', '=', subscriptionId)
      .executeTakeFirstOrThrow();
    return subscription.next_billing_date;
  }

  return {
    get t() {
      return app();
    },
    get providerCookie() {
      return providerCookie;
    },
    get opsCookie() {
      return opsCookie;
    },
    db,
    crash,
    recover,
    stop,
    call,
    openLedgerRows,
    expectBoundedRuns,
    withSleepInCart,
    crashEach,
    crashRenewal,
    recoverLedger,
    recoverCheckouts,
    recoverRenewals,
    placeOrders,
    addSleep,
    seenByOps,
    approve,
    refund,
    ordersOf,
    confirmationsOf,
    visitOf,
    orderHolding,
    visitOrder,
    prescriptionsOf,
    refundBooks,
    renewalOrders,
    nextBillingDate,
  };
}

/** The suite's PostgreSQL schema as a connection URL for the child servers (none on SQLite). */
function schemaUrl(t: TestApp): string | undefined {
  if (!testDatabaseUrl || !t.pgSchema) return undefined;
  const url = new URL(testDatabaseUrl);
  url.searchParams.set('options', `-c search_path=${t.pgSchema}`);
  return url.toString();
}

/**
 * Creates the suite's provider and operations staff and logs them in through the in-process app
 * (its clock moves on a step per code); the sessions live in the database, so the child servers
 * honour them.
 */
async function createStaffPair(
  t: TestApp,
  staff: FaultHarnessOptions['staff'],
): Promise<{ providerCookie: string; opsCookie: string }> {
  const passwordHash = await hashPassword(staff.password);
  await createStaff(t.app.ctx, {
    email: `provider@${staff.domain}`,
    name: `Dr. ${staff.name}`,
    role: 'provider',
    passwordHash,
    totpSecret: providerSecret,
    licences: [{ state: 'OR', number: 'OR-TEST-1', expiresOn: '2099-12-31' }],
  });
  await createStaff(t.app.ctx, {
    email: `ops@${staff.domain}`,
    name: `Ops ${staff.name}`,
    role: 'operations',
    passwordHash,
    totpSecret: opsSecret,
  });
  const login = (email: string, totpSecret: string): Promise<string> =>
    staffCookie(t, { email, password: staff.password, totpSecret });
  return {
    providerCookie: await login(`provider@${staff.domain}`, providerSecret),
    opsCookie: await login(`ops@${staff.domain}`, opsSecret),
  };
}
