import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorReporter } from '#server/adapters/error-reporter.ts';
import { demoStaff } from '#server/db/seed-demo.ts';
import {
  authorize,
  capture,
  ledgerForOrder,
  outcomeOf,
  settleCall,
} from '#server/features/payments/payments.service.ts';
import { cartApi } from '#shared/cart.ts';
import { offers } from '#shared/catalog.ts';
import { checkoutApi } from '#shared/checkout.ts';
import { operationsApi, type StaffOrderDetail } from '#shared/operations.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import {
  buildPlaceOrder,
  insertCustomer,
  staffCookie,
  type TestCustomer,
} from '#test/factories.ts';
import { startFakeStripe, stripeEnv, type FakeStripe } from '#test/stripe/fake-stripe.ts';

/**
 * Issue 28, the processor's view on the staff order page: the Stripe payment behind an order, its
 * page in Stripe's Dashboard, Radar's risk level of its charge and why a capture of it failed,
 * asked of Stripe (the fake of test/stripe/) when the page is read. A Stripe that cannot answer
 * leaves the rest of the order readable.
 */

const ops = demoStaff.find((s) => s.role === 'operations')!;
const DAY_SECONDS = 24 * 60 * 60;

describe(`the processor's view of an order (Stripe, ${testDialect})`, () => {
  let fake: FakeStripe;
  let t: TestApp;
  const reported: unknown[] = [];
  const reporter: ErrorReporter = { report: (error) => void reported.push(error) };

  beforeAll(async () => {
    fake = await startFakeStripe();
    t = await buildTestApp({
      env: {
        SEED_DEMO: 'true',
        ...stripeEnv(fake),
      },
      errorReporter: reporter,
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  /** A store order paid at checkout with this card from the Payment Element; its PaymentIntent. */
  async function paidOrder(
    paymentMethod: string,
  ): Promise<{ customer: TestCustomer; orderId: number; paymentIntent: string }> {
    const customer = await insertCustomer(t.app);
    await callAs(
      t.app,
      cartApi.addProduct,
      { product_id: offers.sleep.oneTime, quantity: 1 },
      customer.cookie,
    );
    const placed = await callAs(
      t.app,
      checkoutApi.placeOrder,
      buildPlaceOrder({
        payment: { method: 'payment_method' as const, payment_method: paymentMethod },
      }),
      customer.cookie,
    );
    expect(placed.statusCode, placed.body).toBe(200);
    const orderId = placed.json<{ data: { orders_id: number } }>().data.orders_id;
    const charge = (await ledgerForOrder(t.app.ctx, orderId)).find(
      (call) => call.operation === 'charge' && call.status === 'succeeded',
    );
    expect(charge?.gatewayRef).toMatch(/^pi_/);
    return { customer, orderId, paymentIntent: charge?.gatewayRef ?? '' };
  }

  async function staffDetail(orderId: number): Promise<StaffOrderDetail> {
    const cookie = await staffCookie(t, ops);
    const answer = await callAs(t.app, operationsApi.order, { order_id: orderId }, cookie);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<{ data: { order: StaffOrderDetail } }>().data.order;
  }

  it("shows a store order's Stripe payment, linked to Stripe's Dashboard, with Radar's risk level", async () => {
    const { orderId, paymentIntent } = await paidOrder('pm_card_visa');
    const order = await staffDetail(orderId);
    expect(order.processor).toEqual({
      payment_id: paymentIntent,
      // The fake's key is a test key: the payment's page is under /test/.
      dashboard_url: `https://dashboard.stripe.com/test/payments/${paymentIntent}`,
      risk_level: 'normal',
      capture_failure: null,
      unavailable: false,
    });
  });

  it("shows the elevated-risk test card's payment as elevated", async () => {
    const { orderId, paymentIntent } = await paidOrder('pm_card_riskLevelElevated');
    const order = await staffDetail(orderId);
    expect(order.processor).toMatchObject({ payment_id: paymentIntent, risk_level: 'elevated' });
  });

  it('says why a hold on the order could not be captured', async () => {
    const { customer, orderId } = await paidOrder('pm_card_visa');
    const card = await t.app.db
      .selectFrom('payment_methods')
      .select('gateway_token')
      .where('customer_id', '=', customer.customerId)
      .executeTakeFirstOrThrow();
    const hold = {
      purpose: 'visit',
      idempotencyKey: `hold:${orderId}`,
      amountCents: 2000,
      orderId,
    };
    const held = await authorize(t.app.ctx, hold, card.gateway_token);
    await settleCall(t.app.ctx, hold.idempotencyKey, outcomeOf(held));
    if (!held.ok) throw new Error(`the hold was refused: ${held.message}`);
    // Past the card networks' 7 days, Stripe cancels the uncaptured payment.
    await fake.advanceClock(8 * DAY_SECONDS);
    const take = {
      purpose: 'approval',
      idempotencyKey: `capture:${orderId}`,
      amountCents: 2000,
      orderId,
      sourceRef: held.authorizationId,
    };
    const taken = await capture(t.app.ctx, take);
    await settleCall(t.app.ctx, take.idempotencyKey, outcomeOf(taken));
    expect(taken.ok).toBe(false);

    const order = await staffDetail(orderId);
    expect(order.processor).toMatchObject({
      payment_id: held.authorizationId,
      risk_level: 'normal',
      capture_failure: 'The authorisation has expired or was released.',
      unavailable: false,
    });
  });

  it('still shows the order when Stripe cannot be reached, and says the processor could not be asked', async () => {
    const { orderId, paymentIntent } = await paidOrder('pm_card_visa');
    reported.length = 0;
    // The answer is cut before its body: the SDK gives up at once rather than retrying.
    fake.dropNextResponse({
      method: 'GET',
      path: new RegExp(`^/v1/payment_intents/${paymentIntent}$`),
    });
    const order = await staffDetail(orderId);
    expect(order.order_status).toBe('PROCESSING');
    expect(order.processor).toEqual({
      payment_id: paymentIntent,
      dashboard_url: null,
      risk_level: null,
      capture_failure: null,
      unavailable: true,
    });
    expect(reported).toHaveLength(1);
    expect(String(reported[0])).toMatch(/Stripe retrieve payment did not answer/);

    // Stripe back: the next read shows it all again.
    expect((await staffDetail(orderId)).processor).toMatchObject({
      risk_level: 'normal',
      unavailable: false,
    });
  });
});

describe(`the processor's view of an order (simulator, ${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
  });
  afterAll(() => t.close());

  it('has nothing to show for a payment the simulator took', async () => {
    const customer = await insertCustomer(t.app);
    await callAs(
      t.app,
      cartApi.addProduct,
      { product_id: offers.sleep.oneTime, quantity: 1 },
      customer.cookie,
    );
    const placed = await callAs(t.app, checkoutApi.placeOrder, buildPlaceOrder(), customer.cookie);
    expect(placed.statusCode, placed.body).toBe(200);
    const orderId = placed.json<{ data: { orders_id: number } }>().data.orders_id;
    const cookie = await staffCookie(t, ops);
    const answer = await callAs(t.app, operationsApi.order, { order_id: orderId }, cookie);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json<{ data: { order: StaffOrderDetail } }>().data.order.processor).toBeNull();
  });
});
