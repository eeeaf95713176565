import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulatorGateway, type PaymentGateway } from '#server/adapters/payments.ts';
import { demoStaff } from '#server/db/seed-demo.ts';
import { cartApi } from '#shared/cart.ts';
import { offers } from '#shared/catalog.ts';
import { checkoutApi } from '#shared/checkout.ts';
import { operationsApi, type StaffOrderDetail } from '#shared/operations.ts';
import { buildSecondInstance, buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import { buildPlaceOrder, insertCustomer, staffCookie } from '#test/factories.ts';
import { finisherRegistry, RECONCILE_JOB } from './payments.jobs.ts';
import { recordCall } from './payments.service.ts';

const ops = demoStaff.find((s) => s.role === 'operations')!;

/** Logs the operations demo account in on `app` with the next fresh authenticator code. */
const opsCookie = (t: TestApp, app: FastifyInstance) => staffCookie(t, ops, { app });

/** A paid store order of one $24.99 bottle: its id and the charge's id at the gateway. */
async function paidOrder(app: FastifyInstance): Promise<{ orderId: number; chargeId: string }> {
  const customer = await insertCustomer(app);
  await callAs(
    app,
    cartApi.addProduct,
    { product_id: offers.sleep.oneTime, quantity: 1 },
    customer.cookie,
  );
  const placed = await callAs(app, checkoutApi.placeOrder, buildPlaceOrder(), customer.cookie);
  expect(placed.statusCode, placed.body).toBe(200);
  const orderId = placed.json<{ data: { orders_id: number } }>().data.orders_id;
  const order = await app.db
    .selectFrom('orders')
    .select('charge_id')
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  return { orderId, chargeId: order.charge_id ?? '' };
}

/** What the gateway, the order, the ledger and the audit log each say was refunded. */
async function refundAccounts(app: FastifyInstance, orderId: number, chargeId: string) {
  const gateway = await app.db
    .selectFrom('simulator_refunds')
    .select(['amount_cents'])
    .where('charge_id', '=', chargeId)
    .execute();
  const order = await app.db
    .selectFrom('orders')
    .select(['refund_cents', 'refund_reserved_cents', 'payment_status', 'status'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  const ledger = await app.db
    .selectFrom('payment_ledger')
    .select(['amount_cents', 'status', 'gateway_ref'])
    .where('order_id', '=', orderId)
    .where('operation', '=', 'refund')
    .execute();
  const audit = await app.db
    .selectFrom('audit_log')
    .select('id')
    .where('action', '=', 'refund')
    .where('subject_type', '=', 'order')
    .where('subject_id', '=', String(orderId))
    .execute();
  const succeeded = ledger.filter((r) => r.status === 'succeeded');
  return {
    gatewayCents: gateway.reduce((sum, r) => sum + r.amount_cents, 0),
    gatewayCount: gateway.length,
    orderCents: order.refund_cents,
    reservedCents: order.refund_reserved_cents,
    ledgerCents: succeeded.reduce((sum, r) => sum + r.amount_cents, 0),
    ledgerSucceeded: succeeded.length,
    ledgerStarted: ledger.filter((r) => r.status === 'started').length,
    auditEntries: audit.length,
    paymentStatus: order.payment_status,
    status: order.status,
  };
}

describe(`refunds on two instances (${testDialect})`, () => {
  let t: TestApp;
  let second: FastifyInstance;
  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
    second = await buildSecondInstance(t);
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  it('12 concurrent partial refunds across two instances never exceed the capture; gateway, order, ledger and audit agree', async () => {
    const { orderId, chargeId } = await paidOrder(t.app);
    const cookies = [await opsCookie(t, t.app), await opsCookie(t, second)];
    const apps = [t.app, second];
    // 12 × $7.00 asked of a $24.99 charge: three fit, the rest must be refused.
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        callAs(
          apps[i % 2]!,
          operationsApi.refund,
          { order_id: orderId, amount_cents: 700, reason: 'Arrived damaged' },
          cookies[i % 2],
        ),
      ),
    );
    const ok = answers.filter((a) => a.statusCode === 200);
    expect(ok).toHaveLength(3);
    for (const refused of answers.filter((a) => a.statusCode !== 200)) {
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'REFUND_TOO_LARGE' });
    }
    expect(await refundAccounts(t.app, orderId, chargeId)).toEqual({
      gatewayCents: 2100,
      gatewayCount: 3,
      orderCents: 2100,
      reservedCents: 0,
      ledgerCents: 2100,
      ledgerSucceeded: 3,
      ledgerStarted: 0,
      auditEntries: 3,
      paymentStatus: 'partially_refunded',
      status: 'PROCESSING',
    });

    // What is left ($3.99) refunds once, from either side, and the order is then Refunded.
    const rest = await Promise.all(
      apps.map((app, i) =>
        callAs(
          app,
          operationsApi.refund,
          { order_id: orderId, amount_cents: 399, reason: 'Arrived damaged' },
          cookies[i],
        ),
      ),
    );
    const [won, lost] = [...rest].sort((a, b) => a.statusCode - b.statusCode);
    expect(won?.statusCode).toBe(200);
    // Refused as too much while the other was in flight, or as already Refunded after it.
    expect([400, 409]).toContain(lost?.statusCode);
    const accounts = await refundAccounts(t.app, orderId, chargeId);
    expect(accounts).toMatchObject({
      gatewayCents: 2499,
      orderCents: 2499,
      ledgerCents: 2499,
      reservedCents: 0,
      auditEntries: 4,
      paymentStatus: 'refunded',
      status: 'REFUNDED',
    });
    // One receipt to the customer per refund the gateway made, whichever instance made it.
    const { order_number: orderNumber } = await t.app.db
      .selectFrom('orders')
      .select('order_number')
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    const receipts = await t.app.db
      .selectFrom('outbox_messages')
      .select('id')
      .where('subject', '=', `Your Pairwell refund for order ${orderNumber}`)
      .execute();
    expect(receipts).toHaveLength(4);
  });

  it('a refund larger than what is left is refused with the amount left, and reserves nothing', async () => {
    const { orderId, chargeId } = await paidOrder(t.app);
    const cookie = await opsCookie(t, t.app);
    const response = await callAs(
      t.app,
      operationsApi.refund,
      { order_id: orderId, amount_cents: 2500, reason: 'Arrived damaged' },
      cookie,
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: 'At most $24.99 can be refunded.' });
    expect(await refundAccounts(t.app, orderId, chargeId)).toMatchObject({
      gatewayCount: 0,
      orderCents: 0,
      reservedCents: 0,
      ledgerSucceeded: 0,
      auditEntries: 0,
    });
  });
});

describe(`the payment reconciler (${testDialect})`, () => {
  let t: TestApp;
  /** The simulator, with a process that dies once right after the gateway made a refund. */
  const simulator: { gateway?: PaymentGateway; dieAfterRefund: number } = { dieAfterRefund: 0 };
  beforeAll(async () => {
    const dying: PaymentGateway = {
      cardEntry: 'fields',
      confirmWithCustomer: (request, now) => simulator.gateway!.confirmWithCustomer(request, now),
      tokenize: (card, now) => simulator.gateway!.tokenize(card, now),
      charge: (request, now) => simulator.gateway!.charge(request, now),
      authorize: (request, now) => simulator.gateway!.authorize(request, now),
      capture: (request, now) => simulator.gateway!.capture(request, now),
      release: (request, now) => simulator.gateway!.release(request, now),
      find: (query) => simulator.gateway!.find(query),
      async refund(request, now) {
        const result = await simulator.gateway!.refund(request, now);
        if (simulator.dieAfterRefund > 0) {
          simulator.dieAfterRefund--;
          throw new Error('the process died right after the gateway refunded');
        }
        return result;
      },
    };
    t = await buildTestApp({ env: { SEED_DEMO: 'true' }, payments: dying });
    simulator.gateway = createSimulatorGateway(t.app.db);
  });
  afterAll(() => t.close());

  it('finishes a refund the gateway made but the server never recorded: once, with its audit entry, and the reservation moves', async () => {
    const { orderId, chargeId } = await paidOrder(t.app);
    const cookie = await opsCookie(t, t.app);
    simulator.dieAfterRefund = 1;
    const died = await callAs(
      t.app,
      operationsApi.refund,
      { order_id: orderId, amount_cents: 1000, reason: 'Arrived damaged' },
      cookie,
    );
    expect(died.statusCode).toBe(500);
    expect(await refundAccounts(t.app, orderId, chargeId)).toMatchObject({
      gatewayCents: 1000,
      orderCents: 0,
      reservedCents: 1000,
      ledgerStarted: 1,
    });
    // Meanwhile the reservation holds: what is left is $14.99, not $24.99.
    const tooMuch = await callAs(
      t.app,
      operationsApi.refund,
      { order_id: orderId, amount_cents: 1500, reason: 'Arrived damaged' },
      cookie,
    );
    expect(tooMuch.json()).toMatchObject({ message: 'At most $14.99 can be refunded.' });

    // Within the grace period the reconciler leaves it to the request; after it, it finishes it.
    await t.app.ctx.jobs.drain(RECONCILE_JOB);
    expect((await refundAccounts(t.app, orderId, chargeId)).ledgerStarted).toBe(1);
    t.clock.advance(t.env.RECONCILE_GRACE_SECONDS * 1000 + 1000);
    await t.app.ctx.jobs.drain(RECONCILE_JOB);
    await t.app.ctx.jobs.drain(RECONCILE_JOB);
    expect(await refundAccounts(t.app, orderId, chargeId)).toMatchObject({
      gatewayCents: 1000,
      gatewayCount: 1,
      orderCents: 1000,
      reservedCents: 0,
      ledgerCents: 1000,
      ledgerStarted: 0,
      auditEntries: 1,
      paymentStatus: 'partially_refunded',
    });
    const detail = await callAs(t.app, operationsApi.order, { order_id: orderId }, cookie);
    expect(detail.json<{ data: { order: StaffOrderDetail } }>().data.order.refund_cents).toBe(1000);
  });

  it('a cancellation refunds what is left once and cancels the order, audited once', async () => {
    const { orderId, chargeId } = await paidOrder(t.app);
    const cookie = await opsCookie(t, t.app);
    const answers = await Promise.all(
      [0, 1, 2].map(() => callAs(t.app, operationsApi.cancel, { order_id: orderId }, cookie)),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    const gateway = await t.app.db
      .selectFrom('simulator_refunds')
      .select('amount_cents')
      .where('charge_id', '=', chargeId)
      .execute();
    expect(gateway).toEqual([{ amount_cents: 2499 }]);
    const order = await t.app.db
      .selectFrom('orders')
      .select(['status', 'payment_status', 'refund_cents', 'refund_reserved_cents'])
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    expect(order).toEqual({
      status: 'CANCELLED',
      payment_status: 'refunded',
      refund_cents: 2499,
      refund_reserved_cents: 0,
    });
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select('action')
      .where('subject_id', '=', String(orderId))
      .where('action', '=', 'cancel')
      .execute();
    expect(audit).toHaveLength(1);
  });
});

describe(`the reconciler's finishers (${testDialect})`, () => {
  let t: TestApp;
  const reports: unknown[] = [];
  beforeAll(async () => {
    t = await buildTestApp({ errorReporter: { report: (error) => reports.push(error) } });
  });
  afterAll(() => t.close());

  it('a call whose purpose no feature registered is reported each time it is taken and stays started', async () => {
    await recordCall(t.app.ctx, 'charge', {
      purpose: 'gift_wrap',
      idempotencyKey: 'gift-wrap:1',
      amountCents: 500,
    });
    t.clock.advance(t.env.RECONCILE_GRACE_SECONDS * 1000 + 1000);
    await t.app.ctx.jobs.drain(RECONCILE_JOB);
    expect(reports.map(String)).toEqual([
      expect.stringContaining('No finisher is registered for the ledger purpose "gift_wrap"'),
    ]);
    const call = await t.app.db
      .selectFrom('payment_ledger')
      .select('status')
      .where('idempotency_key', '=', 'gift-wrap:1')
      .executeTakeFirstOrThrow();
    expect(call.status).toBe('started');
    // Its lease runs out and the next run takes it, and says so, again.
    t.clock.advance(10 * 60_000);
    await t.app.ctx.jobs.drain(RECONCILE_JOB);
    expect(reports).toHaveLength(2);
  });

  it('two features naming the same purpose stop the start', () => {
    const finish = async () => undefined;
    expect(() => finisherRegistry([{ refund: finish }, { refund: finish }])).toThrow(
      'Two finishers are registered for the ledger purpose "refund".',
    );
    expect(() => finisherRegistry([{ auto_refund: finish }])).toThrow('"auto_refund"');
  });
});
