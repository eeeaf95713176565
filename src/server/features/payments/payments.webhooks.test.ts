import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStripeGateway } from '#server/adapters/stripe.ts';
import type { PaymentGateway } from '#server/adapters/payments.ts';
import { demoStaff } from '#server/db/seed-demo.ts';
import { upsertCard } from '#server/features/accounts/accounts.queries.ts';
import { cartApi } from '#shared/cart.ts';
import { offers } from '#shared/catalog.ts';
import { checkoutApi } from '#shared/checkout.ts';
import { operationsApi, type StaffOrderDetail } from '#shared/operations.ts';
import { ordersApi, type Order } from '#shared/orders.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import {
  buildPlaceOrder,
  insertCustomer,
  staffCookie,
  type TestCustomer,
} from '#test/factories.ts';
import { startFakeStripe, type FakeStripe } from '#test/stripe/fake-stripe.ts';
import { ledgerForOrder } from './payments.service.ts';

/**
 * Stripe's webhooks (issue 28) against the fake Stripe API of test/stripe/: the fake delivers its
 * signed events to the app listening on a loopback port, as Stripe would. Repeated and reordered
 * deliveries take the fake's own events and sign them with its secret, as Stripe's retries do.
 */

const [, ops] = demoStaff;
const WEBHOOK = '/lapi/webhooks/stripe';

describe(`Stripe webhooks (${testDialect})`, () => {
  let fake: FakeStripe;
  let gateway: PaymentGateway;
  let t: TestApp;

  beforeAll(async () => {
    fake = await startFakeStripe();
    gateway = createStripeGateway({
      secretKey: fake.secretKey,
      apiBase: fake.url,
      statementDescriptorSuffix: 'PAIRWELL',
    });
    t = await buildTestApp({
      env: { SEED_DEMO: 'true' },
      stripe: {
        gateway,
        webhookSecret: fake.webhookSecret,
        secretKey: fake.secretKey,
        publishableKey: fake.publishableKey,
        apiBase: fake.url,
      },
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    fake.setWebhookEndpoint(`http://127.0.0.1:${port}${WEBHOOK}`);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  /** A customer whose card on file is a Stripe card, saved as the gateway saves one. */
  async function stripeCustomer(): Promise<TestCustomer> {
    const customer = await insertCustomer(t.app);
    const saved = await gateway.tokenize(
      { paymentMethodId: 'pm_card_visa', email: customer.email },
      t.clock.now(),
    );
    if (!saved.ok) throw new Error(`the card was not saved: ${saved.code}`);
    await upsertCard(
      t.app.db,
      customer.customerId,
      { gatewayToken: saved.token, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 },
      t.clock.now().toISOString(),
    );
    return customer;
  }

  /** A store order paid through checkout with the saved Stripe card; its id and PaymentIntent. */
  async function paidOrder(customer: TestCustomer) {
    await callAs(
      t.app,
      cartApi.addProduct,
      { product_id: offers.sleep.oneTime, quantity: 2 },
      customer.cookie,
    );
    const placed = await callAs(
      t.app,
      checkoutApi.placeOrder,
      { ...buildPlaceOrder(), payment: { method: 'saved' } },
      customer.cookie,
    );
    expect(placed.statusCode, placed.body).toBe(200);
    const { orders_id: orderId, order_number: orderNumber } = placed.json<{
      data: { orders_id: number; order_number: string };
    }>().data;
    const charge = (await ledgerForOrder(t.app.ctx, orderId)).find(
      (call) => call.operation === 'charge' && call.status === 'succeeded',
    );
    if (!charge?.gatewayRef) throw new Error('the order has no settled charge');
    expect(charge.gatewayRef).toMatch(/^pi_/);
    await fake.whenDelivered();
    return { orderId, orderNumber, paymentIntent: charge.gatewayRef, total: charge.amountCents };
  }

  /** Delivers one of the fake's events again, signed with its secret, as Stripe retries. */
  function redeliver(event: Stripe.Event, secret = fake.webhookSecret, body?: string) {
    const payload = JSON.stringify(event, null, 2);
    return t.app.inject({
      method: 'POST',
      url: WEBHOOK,
      payload: body ?? payload,
      headers: {
        'content-type': 'application/json',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }),
      },
    });
  }

  function eventsOf(type: string, objectId: string): Stripe.Event[] {
    return fake.events.filter(
      (event) => event.type === type && (event.data.object as { id: string }).id === objectId,
    );
  }

  const lastEvent = () => {
    const event = fake.events.at(-1);
    if (!event) throw new Error('the fake made no event');
    return event;
  };

  async function staffView(orderId: number): Promise<StaffOrderDetail> {
    const cookie = await staffCookie(t, ops!);
    const answer = await callAs(t.app, operationsApi.order, { order_id: orderId }, cookie);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<{ data: { order: StaffOrderDetail } }>().data.order;
  }

  async function customerOrder(customer: TestCustomer, orderNumber: string): Promise<Order> {
    const answer = await callAs(
      t.app,
      ordersApi.order,
      { leads_id: customer.leadsId, order_number: orderNumber },
      customer.cookie,
    );
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<{ data: { order: Order } }>().data.order;
  }

  function auditOf(orderId: number) {
    return t.app.db
      .selectFrom('audit_log')
      .innerJoin('staff_users', 'staff_users.id', 'audit_log.staff_id')
      .select(['staff_users.name', 'audit_log.action', 'audit_log.customer_id'])
      .where('audit_log.subject_type', '=', 'order')
      .where('audit_log.subject_id', '=', String(orderId))
      .orderBy('audit_log.id')
      .execute();
  }

  const eventRows = () =>
    t.app.db.selectFrom('stripe_events').select(['id', 'handled_at']).orderBy('id').execute();

  it('refuses a delivery whose signature is missing, forged or over another body with 400, and changes nothing', async () => {
    const customer = await stripeCustomer();
    const { orderId, paymentIntent } = await paidOrder(customer);
    fake.setWebhookEndpoint(null);
    const refundId = await fake.refundFromDashboard(paymentIntent, 500);
    const refunded = lastRefundedEvent();
    const before = { events: await eventRows(), ledger: await ledgerForOrder(t.app.ctx, orderId) };

    const unsigned = await t.app.inject({
      method: 'POST',
      url: WEBHOOK,
      payload: JSON.stringify(refunded),
      headers: { 'content-type': 'application/json' },
    });
    const forged = await redeliver(refunded, 'whsec_not_the_endpoints_secret');
    const tampered = await redeliver(
      refunded,
      fake.webhookSecret,
      JSON.stringify({ ...refunded, id: 'evt_tampered' }, null, 2),
    );
    for (const answer of [unsigned, forged, tampered]) {
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({
        message:
          "The Stripe-Signature header is missing or does not match this endpoint's signing secret.",
      });
    }
    expect(await eventRows()).toEqual(before.events);
    expect(await ledgerForOrder(t.app.ctx, orderId)).toEqual(before.ledger);

    // Signed as Stripe signs it, the same event is taken (and the refund recorded once).
    expect((await redeliver(refunded)).statusCode).toBe(200);
    const dashboard = (await ledgerForOrder(t.app.ctx, orderId)).filter(
      (call) => call.purpose === 'dashboard_refund',
    );
    expect(dashboard.map((call) => call.gatewayRef)).toEqual([refundId]);
  });

  it('shows a refund made in the dashboard on the order, in the ledger and the audit log, once however often it is delivered', async () => {
    const customer = await stripeCustomer();
    const { orderId, orderNumber, paymentIntent, total } = await paidOrder(customer);
    fake.setWebhookEndpoint(endpoint());

    // A refund staff make through the console also reaches Stripe and comes back as
    // charge.refunded: the ledger knows it, so it is not counted again.
    const cookie = await staffCookie(t, ops!);
    const staffRefund = await callAs(
      t.app,
      operationsApi.refund,
      { order_id: orderId, amount_cents: 300, reason: 'Damaged in the post' },
      cookie,
    );
    expect(staffRefund.statusCode, staffRefund.body).toBe(200);
    await fake.whenDelivered();

    const refundId = await fake.refundFromDashboard(paymentIntent, 700);
    await fake.whenDelivered();
    const refunded = lastRefundedEvent();
    // Stripe delivering it again (it retries until it hears a 2xx, and may send one twice).
    expect((await redeliver(refunded)).statusCode).toBe(200);
    expect((await redeliver(refunded)).statusCode).toBe(200);

    const ledger = await ledgerForOrder(t.app.ctx, orderId);
    expect(
      ledger
        .filter((call) => call.operation === 'refund')
        .map(({ purpose, idempotencyKey, status, amountCents, gatewayRef }) => ({
          purpose,
          idempotencyKey,
          status,
          amountCents,
          gatewayRef,
        })),
    ).toEqual([
      expect.objectContaining({ purpose: 'refund', status: 'succeeded', amountCents: 300 }),
      {
        purpose: 'dashboard_refund',
        idempotencyKey: `stripe-refund:${refundId}`,
        status: 'succeeded',
        amountCents: 700,
        gatewayRef: refundId,
      },
    ]);

    const order = await customerOrder(customer, orderNumber);
    expect(order.refund_cents).toBe(1000);
    expect(order.payments).toEqual([
      expect.objectContaining({ kind: 'paid', amount_cents: total }),
      expect.objectContaining({ kind: 'refunded', amount_cents: 300 }),
      expect.objectContaining({ kind: 'refunded', amount_cents: 700 }),
    ]);
    const view = await staffView(orderId);
    expect(view).toMatchObject({ refund_cents: 1000, payment_status: 'partially_refunded' });

    expect(await auditOf(orderId)).toEqual(
      expect.arrayContaining([
        { name: ops!.name, action: 'refund', customer_id: customer.customerId },
        { name: 'Stripe', action: 'dashboard_refund', customer_id: customer.customerId },
      ]),
    );
    expect(
      (await auditOf(orderId)).filter((entry) => entry.action === 'dashboard_refund'),
    ).toHaveLength(1);
    // The event is written down once, handled.
    const rows = (await eventRows()).filter((row) => row.id === refunded.id);
    expect(rows).toEqual([{ id: refunded.id, handled_at: expect.any(String) }]);
  });

  it('answers 503 when Stripe cannot be asked about an event, leaves it unhandled, and handles it when delivered again', async () => {
    const customer = await stripeCustomer();
    const { orderId, paymentIntent } = await paidOrder(customer);
    fake.setWebhookEndpoint(null);
    const refundId = await fake.refundFromDashboard(paymentIntent, 300);
    const refunded = lastRefundedEvent();

    // The app's read of the payment's refunds is cut off mid-answer, as a network fault would.
    fake.dropNextResponse({ method: 'GET', path: /^\/v1\/refunds/ });
    const first = await redeliver(refunded);
    expect(first.statusCode).toBe(503);
    expect(first.headers['retry-after']).toBe('60');
    expect((await eventRows()).find((row) => row.id === refunded.id)?.handled_at).toBeNull();
    const dashboard = async () =>
      (await ledgerForOrder(t.app.ctx, orderId)).filter(
        (call) => call.purpose === 'dashboard_refund',
      );
    expect(await dashboard()).toEqual([]);

    // Stripe's retry finds Stripe answering: the refund is recorded, once.
    expect((await redeliver(refunded)).statusCode).toBe(200);
    expect((await dashboard()).map((call) => call.gatewayRef)).toEqual([refundId]);
    expect((await eventRows()).find((row) => row.id === refunded.id)?.handled_at).not.toBeNull();
  });

  it('records a dispute and its close, right however the events arrive, and shows it to operations', async () => {
    const customer = await stripeCustomer();
    const inOrder = await paidOrder(customer);
    fake.setWebhookEndpoint(endpoint());
    const disputeId = await fake.openDispute(inOrder.paymentIntent);
    await fake.whenDelivered();
    const opened = await staffView(inOrder.orderId);
    const created = eventsOf('charge.dispute.created', disputeId)[0];
    const dueBy = (created?.data.object as Stripe.Dispute).evidence_details.due_by ?? 0;
    expect(opened.disputes).toEqual([
      {
        dispute_id: disputeId,
        payment_ref: inOrder.paymentIntent,
        amount_cents: inOrder.total,
        reason: 'fraudulent',
        status: 'needs_response',
        evidence_due_by: new Date(dueBy * 1000).toISOString(),
        opened_at: expect.any(String),
        closed_at: null,
      },
    ]);
    await fake.closeDispute(disputeId, 'won');
    await fake.whenDelivered();
    expect((await staffView(inOrder.orderId)).disputes).toEqual([
      expect.objectContaining({
        status: 'won',
        evidence_due_by: null,
        closed_at: expect.any(String),
      }),
    ]);
    expect((await auditOf(inOrder.orderId)).map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['dispute_created', 'dispute_closed']),
    );

    // Out of order: the close arrives before the opening.
    const late = await paidOrder(customer);
    fake.setWebhookEndpoint(null);
    const lateId = await fake.openDispute(late.paymentIntent);
    await fake.advanceClock(60);
    await fake.closeDispute(lateId, 'lost');
    const [closed] = eventsOf('charge.dispute.closed', lateId);
    const [opening] = eventsOf('charge.dispute.created', lateId);
    if (!closed || !opening) throw new Error('the fake made no dispute events');
    expect((await redeliver(closed)).statusCode).toBe(200);
    expect((await redeliver(opening)).statusCode).toBe(200);
    expect((await staffView(late.orderId)).disputes).toEqual([
      expect.objectContaining({
        dispute_id: lateId,
        status: 'lost',
        evidence_due_by: null,
        closed_at: expect.any(String),
      }),
    ]);
    expect(
      (await auditOf(late.orderId))
        .filter((entry) => entry.name === 'Stripe')
        .map((entry) => entry.action),
    ).toEqual(['dispute_closed', 'dispute_created']);
  });

  it('flags an early fraud warning on the order, with an audit entry', async () => {
    const customer = await stripeCustomer();
    const { orderId, paymentIntent } = await paidOrder(customer);
    fake.setWebhookEndpoint(endpoint());
    await fake.earlyFraudWarning(paymentIntent);
    await fake.whenDelivered();
    const warning = lastEvent();
    expect(warning.type).toBe('radar.early_fraud_warning.created');
    expect((await redeliver(warning)).statusCode).toBe(200);
    expect((await staffView(orderId)).fraud_warnings).toEqual([
      {
        warning_id: (warning.data.object as Stripe.Radar.EarlyFraudWarning).id,
        payment_ref: paymentIntent,
        fraud_type: 'made_with_stolen_card',
        actionable: true,
        warned_at: expect.any(String),
      },
    ]);
    expect(
      (await auditOf(orderId)).filter((entry) => entry.action === 'early_fraud_warning'),
    ).toEqual([
      { name: 'Stripe', action: 'early_fraud_warning', customer_id: customer.customerId },
    ]);
  });

  it('acknowledges every event it was sent, the unknown ones and payment outcomes it already has included', async () => {
    await fake.whenDelivered();
    // The fake sent customer.created, payment_method.attached, setup_intent.succeeded,
    // payment_intent.succeeded, charge.dispute.funds_withdrawn… while the endpoint was set.
    const delivered = new Set(fake.deliveries.map((delivery) => delivery.eventId));
    const types = new Set(
      fake.events.filter((event) => delivered.has(event.id)).map((event) => event.type),
    );
    expect([...types]).toEqual(
      expect.arrayContaining([
        'customer.created',
        'setup_intent.succeeded',
        'payment_intent.succeeded',
        'charge.dispute.funds_withdrawn',
      ]),
    );
    expect(fake.deliveries.filter((delivery) => delivery.status !== 200)).toEqual([]);
    const rows = await eventRows();
    expect(rows.filter((row) => row.handled_at === null)).toEqual([]);
    const handled = new Set(rows.map((row) => row.id));
    expect([...delivered].filter((id) => !handled.has(id))).toEqual([]);

    // A made-up type is acknowledged too.
    const unknown = { ...lastEvent(), id: 'evt_unknown_type', type: 'climate.order.created' };
    expect((await redeliver(unknown as unknown as Stripe.Event)).statusCode).toBe(200);
    expect(
      await t.app.db
        .selectFrom('stripe_events')
        .select(['type', 'handled_at'])
        .where('id', '=', 'evt_unknown_type')
        .execute(),
    ).toEqual([{ type: 'climate.order.created', handled_at: expect.any(String) }]);
  });

  function endpoint(): string {
    const { port } = t.app.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}${WEBHOOK}`;
  }

  function lastRefundedEvent(): Stripe.Event {
    const event = fake.events.filter((e) => e.type === 'charge.refunded').at(-1);
    if (!event) throw new Error('no charge.refunded event');
    return event;
  }
});
