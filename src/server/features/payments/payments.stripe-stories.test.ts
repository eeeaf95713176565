import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStaff } from '#server/db/seed-demo.ts';
import { runBilling } from '#server/features/billing/billing.service.ts';
import { RECONCILE_JOB } from '#server/features/payments/payments.jobs.ts';
import { ledgerForOrder } from '#server/features/payments/payments.service.ts';
import { accountsApi } from '#shared/accounts.ts';
import { cartApi } from '#shared/cart.ts';
import { offers } from '#shared/catalog.ts';
import { checkoutApi } from '#shared/checkout.ts';
import { operationsApi, type StaffOrderDetail } from '#shared/operations.ts';
import { reviewsApi } from '#shared/reviews.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import {
  buildPlaceOrder,
  insertCustomer,
  staffCookie,
  type TestCustomer,
} from '#test/factories.ts';
import { startFakeStripe, stripeEnv, type FakeStripe } from '#test/stripe/fake-stripe.ts';
import { submittedEdVisit } from '#test/visits.ts';

/**
 * Issue 28, "Must show 1", in one place: every way money moves in Stripe mode, each told by the
 * three records that must agree (our payment ledger, the order, the audit log) and by Stripe's
 * own (the fake's PaymentIntent and Charge, read with the official SDK). The app takes Stripe's
 * webhooks on a loopback port, as it would in production; the clock moves for the renewal and the
 * hold that outlives a week.
 */
const provider = demoStaff.find((s) => s.role === 'provider')!;
const ops = demoStaff.find((s) => s.role === 'operations')!;
const DAY = 24 * 60 * 60 * 1000;
const prescription = {
  drug: 'sildenafil',
  dosage: '50mg',
  quantity: 6,
  refills: 2,
  valid_until: '2027-11-21',
  directions: 'Take one tablet about an hour before, no more than once a day.',
};

describe(`money in Stripe mode: the ledger, the order, the audit log and Stripe agree (${testDialect})`, () => {
  let fake: FakeStripe;
  let stripe: Stripe;
  let t: TestApp;

  beforeAll(async () => {
    fake = await startFakeStripe();
    stripe = new Stripe(fake.secretKey, { host: fake.host, port: fake.port, protocol: 'http' });
    t = await buildTestApp({ env: { SEED_DEMO: 'true', ...stripeEnv(fake) } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    fake.setWebhookEndpoint(`http://127.0.0.1:${port}/lapi/webhooks/stripe`);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  /** Our clock and Stripe's move together. */
  async function advance(ms: number): Promise<void> {
    t.clock.advance(ms);
    await fake.advanceClock(ms / 1000);
  }

  /** A customer with Stripe's plain test card on file, saved through a SetupIntent. */
  async function customerWithCard(): Promise<TestCustomer> {
    const customer = await insertCustomer(t.app);
    const saved = await callAs(
      t.app,
      accountsApi.paymentMethodUpdate,
      { payment_method: 'pm_card_visa', consent: true },
      customer.cookie,
    );
    expect(saved.statusCode, saved.body).toBe(200);
    return customer;
  }

  /** One product in the cart, paid at checkout with a card typed in Stripe's form. */
  async function storeOrder(
    customer: TestCustomer,
    product: number = offers.sleep.oneTime,
  ): Promise<number> {
    await callAs(t.app, cartApi.addProduct, { product_id: product, quantity: 1 }, customer.cookie);
    const placed = await callAs(
      t.app,
      checkoutApi.placeOrder,
      {
        ...buildPlaceOrder(),
        payment: { method: 'payment_method', payment_method: 'pm_card_visa' },
      },
      customer.cookie,
    );
    expect(placed.statusCode, placed.body).toBe(200);
    await fake.whenDelivered();
    return placed.json<{ data: { orders_id: number } }>().data.orders_id;
  }

  /** A submitted ED visit held on the card on file: the visit and its order. */
  async function heldVisit(): Promise<{ visitId: number; orderId: number }> {
    const customer = await customerWithCard();
    const { visitId, orderNumber } = await submittedEdVisit(t.app, customer, 'OR', {
      savedCard: true,
    });
    const order = await t.app.db
      .selectFrom('orders')
      .select('id')
      .where('order_number', '=', orderNumber)
      .executeTakeFirstOrThrow();
    await fake.whenDelivered();
    return { visitId, orderId: order.id };
  }

  /** The provider approves the visit with the prescription above; Stripe's events delivered. */
  async function approve(visitId: number): Promise<void> {
    const approved = await callAs(
      t.app,
      reviewsApi.approve,
      { visit_id: visitId, prescription },
      await staffCookie(t, provider),
    );
    expect(approved.statusCode, approved.body).toBe(200);
    await fake.whenDelivered();
  }

  /** The PaymentIntent an order points at. */
  async function paymentOf(orderId: number): Promise<string> {
    const { charge_id: id } = await t.app.db
      .selectFrom('orders')
      .select('charge_id')
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    if (!id) throw new Error(`order ${orderId} has no payment`);
    return id;
  }

  /**
   * What each record says about an order: the ledger as `operation purpose status amount`, the
   * order's payment, the audit log's actions on the order (and its visit), and Stripe's view of
   * the payment the order points at.
   */
  async function records(orderId: number, visitId?: number) {
    const ledger = (await ledgerForOrder(t.app.ctx, orderId)).map(
      (call) => `${call.operation} ${call.purpose} ${call.status} ${call.amountCents}`,
    );
    const order = await t.app.db
      .selectFrom('orders')
      .select(['status', 'payment_status', 'total_cents', 'refund_cents', 'charge_id'])
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    const audit = await t.app.db
      .selectFrom('audit_log')
      .innerJoin('staff_users', 'staff_users.id', 'audit_log.staff_id')
      .select(['staff_users.name', 'audit_log.action', 'audit_log.subject_type'])
      .where((eb) =>
        eb.or([
          eb.and([eb('subject_type', '=', 'order'), eb('subject_id', '=', String(orderId))]),
          eb.and([eb('subject_type', '=', 'visit'), eb('subject_id', '=', String(visitId ?? -1))]),
        ]),
      )
      .orderBy('audit_log.id')
      .execute();
    const intent = order.charge_id
      ? await stripe.paymentIntents.retrieve(order.charge_id, { expand: ['latest_charge'] })
      : null;
    const charge = intent?.latest_charge as Stripe.Charge | null | undefined;
    return {
      ledger,
      order: {
        status: order.status,
        payment_status: order.payment_status,
        total_cents: order.total_cents,
        refund_cents: order.refund_cents,
      },
      audit: audit.map((entry) => `${entry.name}: ${entry.action} ${entry.subject_type}`),
      stripe: intent
        ? {
            status: intent.status,
            amount_received: intent.amount_received,
            amount_refunded: charge?.amount_refunded ?? 0,
            disputed: charge?.disputed ?? false,
          }
        : null,
    };
  }

  async function staffView(orderId: number): Promise<StaffOrderDetail> {
    const answer = await callAs(
      t.app,
      operationsApi.order,
      { order_id: orderId },
      await staffCookie(t, ops),
    );
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<{ data: { order: StaffOrderDetail } }>().data.order;
  }

  it('a store order: charged once, paid, nobody on staff involved', async () => {
    const customer = await customerWithCard();
    const orderId = await storeOrder(customer);
    const { order } = await records(orderId);
    expect(await records(orderId)).toEqual({
      ledger: [`charge checkout succeeded ${order.total_cents}`],
      order: { ...order, status: 'PROCESSING', payment_status: 'paid', refund_cents: 0 },
      audit: [],
      stripe: {
        status: 'succeeded',
        amount_received: order.total_cents,
        amount_refunded: 0,
        disputed: false,
      },
    });
  });

  it('a subscription renewal: charged off-session with the card on file when its month is up', async () => {
    const customer = await customerWithCard();
    await storeOrder(customer, offers.sleep.monthly);
    await advance(31 * DAY);
    await runBilling(t.app.ctx);
    await fake.whenDelivered();
    const renewal = await t.app.db
      .selectFrom('orders')
      .select(['id', 'total_cents'])
      .where('customer_id', '=', customer.customerId)
      .where('kind', '=', 'renewal')
      .executeTakeFirstOrThrow();
    expect(await records(renewal.id)).toEqual({
      ledger: [`charge renewal succeeded ${renewal.total_cents}`],
      order: expect.objectContaining({ payment_status: 'paid', refund_cents: 0 }) as object,
      audit: [],
      stripe: {
        status: 'succeeded',
        amount_received: renewal.total_cents,
        amount_refunded: 0,
        disputed: false,
      },
    });
  });

  it("a visit's hold: authorised at checkout, captured on the provider's approval", async () => {
    const { visitId, orderId } = await heldVisit();
    const held = await records(orderId, visitId);
    const amount = held.order.total_cents;
    expect(held).toMatchObject({
      ledger: [`authorize visit succeeded ${amount}`],
      order: { payment_status: 'authorized' },
      audit: [],
      stripe: { status: 'requires_capture', amount_received: 0 },
    });
    await approve(visitId);
    expect(await records(orderId, visitId)).toEqual({
      ledger: [`authorize visit succeeded ${amount}`, `capture approval succeeded ${amount}`],
      order: { ...held.order, status: 'PROCESSING', payment_status: 'paid' },
      audit: [`${provider.name}: approve visit`],
      stripe: { status: 'succeeded', amount_received: amount, amount_refunded: 0, disputed: false },
    });
  });

  it("a visit's hold: cancelled at Stripe on the provider's decline, nothing charged", async () => {
    const { visitId, orderId } = await heldVisit();
    const held = (await records(orderId, visitId)).order;
    const amount = held.total_cents;
    const declined = await callAs(
      t.app,
      reviewsApi.decline,
      {
        visit_id: visitId,
        reason: 'A treatment by mouth is not safe with the heart medicine you take.',
      },
      await staffCookie(t, provider),
    );
    expect(declined.statusCode, declined.body).toBe(200);
    await fake.whenDelivered();
    expect(await records(orderId, visitId)).toEqual({
      ledger: [`authorize visit succeeded ${amount}`, `release decline succeeded ${amount}`],
      order: { ...held, status: 'DECLINED', payment_status: 'voided' },
      audit: [`${provider.name}: decline visit`],
      // Stripe shows a released hold as its uncaptured charge refunded in full: nothing was taken.
      stripe: {
        status: 'canceled',
        amount_received: 0,
        amount_refunded: amount,
        disputed: false,
      },
    });
  });

  it('a hold older than a week: renewed on day 6, and the renewed one captured at an approval on day 8', async () => {
    const { visitId, orderId } = await heldVisit();
    const first = await records(orderId, visitId);
    const amount = first.order.total_cents;
    const firstHold = await paymentOf(orderId);

    await advance(6 * DAY + 60 * 60 * 1000);
    await t.app.ctx.jobs.drain(RECONCILE_JOB);
    await advance(2 * DAY);
    // Stripe has let the first hold go by now (7 days); it was released on day 6 in any case.
    expect((await stripe.paymentIntents.retrieve(firstHold)).status).toBe('canceled');
    await approve(visitId);
    const after = await records(orderId, visitId);
    expect(after).toEqual({
      ledger: [
        `authorize visit succeeded ${amount}`,
        `authorize hold_renewal succeeded ${amount}`,
        `release release_orphan succeeded ${amount}`,
        `capture approval succeeded ${amount}`,
      ],
      order: { ...first.order, status: 'PROCESSING', payment_status: 'paid' },
      audit: [`${provider.name}: approve visit`],
      stripe: { status: 'succeeded', amount_received: amount, amount_refunded: 0, disputed: false },
    });
  });

  it('a refund from the console, then one made in Stripe’s Dashboard, arriving by webhook', async () => {
    const customer = await customerWithCard();
    const orderId = await storeOrder(customer);
    const total = (await records(orderId)).order.total_cents;
    const refunded = await callAs(
      t.app,
      operationsApi.refund,
      { order_id: orderId, amount_cents: 300, reason: 'One bottle arrived damaged' },
      await staffCookie(t, ops),
    );
    expect(refunded.statusCode, refunded.body).toBe(200);
    await fake.whenDelivered();
    expect(await records(orderId)).toEqual({
      ledger: [`charge checkout succeeded ${total}`, 'refund refund succeeded 300'],
      order: expect.objectContaining({
        payment_status: 'partially_refunded',
        refund_cents: 300,
      }) as object,
      audit: [`${ops.name}: refund order`],
      stripe: {
        status: 'succeeded',
        amount_received: total,
        amount_refunded: 300,
        disputed: false,
      },
    });

    const paymentIntent = await paymentOf(orderId);
    await fake.refundFromDashboard(paymentIntent, 500);
    await fake.whenDelivered();
    expect(await records(orderId)).toEqual({
      ledger: [
        `charge checkout succeeded ${total}`,
        'refund refund succeeded 300',
        'refund dashboard_refund succeeded 500',
      ],
      order: expect.objectContaining({
        payment_status: 'partially_refunded',
        refund_cents: 800,
      }) as object,
      audit: [`${ops.name}: refund order`, 'Stripe: dashboard_refund order'],
      stripe: {
        status: 'succeeded',
        amount_received: total,
        amount_refunded: 800,
        disputed: false,
      },
    });
  });

  it('a dispute by webhook: on the order for operations, with its deadline, and in the audit log', async () => {
    const customer = await customerWithCard();
    const orderId = await storeOrder(customer);
    const total = (await records(orderId)).order.total_cents;
    const paymentIntent = await paymentOf(orderId);
    const disputeId = await fake.openDispute(paymentIntent);
    await fake.whenDelivered();
    expect(await records(orderId)).toEqual({
      // The money stays charged on our books while the dispute is open; Stripe holds it back.
      ledger: [`charge checkout succeeded ${total}`],
      order: expect.objectContaining({ payment_status: 'paid', refund_cents: 0 }) as object,
      audit: ['Stripe: dispute_created order'],
      stripe: { status: 'succeeded', amount_received: total, amount_refunded: 0, disputed: true },
    });
    const dispute = fake.events.find(
      (event) =>
        event.type === 'charge.dispute.created' &&
        (event.data.object as { id: string }).id === disputeId,
    )?.data.object as Stripe.Dispute;
    expect((await staffView(orderId)).disputes).toEqual([
      expect.objectContaining({
        dispute_id: disputeId,
        status: 'needs_response',
        amount_cents: total,
        evidence_due_by: new Date((dispute.evidence_details.due_by ?? 0) * 1000).toISOString(),
      }),
    ]);
    // Every event Stripe sent was taken (2xx), none of them twice.
    const sent = fake.deliveries.filter((delivery) => delivery.status !== 200);
    expect(sent).toEqual([]);
  });

  it('every payment above (and these two) asked Stripe with the ledger’s own idempotency key', async () => {
    await storeOrder(await customerWithCard());
    await heldVisit();
    const calls = await t.app.db
      .selectFrom('payment_ledger')
      .select(['idempotency_key', 'gateway_ref', 'operation'])
      .where('status', '=', 'succeeded')
      .where('gateway_ref', 'like', 'pi_%')
      .where('operation', 'in', ['charge', 'authorize'])
      .execute();
    expect(calls.length).toBeGreaterThanOrEqual(2);
    for (const call of calls) {
      const intent = await stripe.paymentIntents.retrieve(call.gateway_ref ?? '');
      expect(intent.metadata.idempotency_key).toBe(call.idempotency_key);
    }
  });
});
