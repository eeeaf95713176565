import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsApi } from '#shared/accounts.ts';
import { cartApi } from '#shared/cart.ts';
import { offers } from '#shared/catalog.ts';
import { checkoutApi } from '#shared/checkout.ts';
import { visitsApi } from '#shared/visits.ts';
import { RECONCILE_JOB } from '#server/features/payments/payments.jobs.ts';
import { ledgerForOrder } from '#server/features/payments/payments.service.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import { buildPlaceOrder, insertCustomer, type TestCustomer } from '#test/factories.ts';
import { startFakeStripe, stripeEnv, type FakeStripe } from '#test/stripe/fake-stripe.ts';
import { edVisitAtCheckout, visitCheckoutBody } from '#test/visits.ts';

/**
 * Issue 28: a payment the customer's bank asks them to confirm at the page (3-D Secure), with the
 * saved card that authenticates every payment (Stripe's 4000 0027 6000 3184). The order waits,
 * pending, while they confirm; the same request sent again finishes it, once; a failed
 * confirmation undoes the attempt; and one never confirmed is cancelled at Stripe by the
 * reconciler when the customer's time is up, so it can never move money later.
 */
describe(`3-D Secure on a payment at the page (${testDialect})`, () => {
  let fake: FakeStripe;
  let t: TestApp;

  beforeAll(async () => {
    fake = await startFakeStripe();
    t = await buildTestApp({
      env: {
        // A provider licensed in Oregon reviews the visit.
        SEED_DEMO: 'true',
        ...stripeEnv(fake),
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  /** A customer whose card on file authenticates every payment, saved through 3-D Secure. */
  async function customerWithCard(): Promise<TestCustomer> {
    const customer = await insertCustomer(t.app);
    const body = { payment_method: 'pm_card_authenticationRequired', consent: true } as const;
    const asked = await callAs(t.app, accountsApi.paymentMethodUpdate, body, customer.cookie);
    expect(asked.statusCode, asked.body).toBe(402);
    const setupIntent = secretOf(asked).split('_secret_')[0] ?? '';
    await fake.completeAuthentication(setupIntent, 'succeed');
    const saved = await callAs(
      t.app,
      accountsApi.paymentMethodUpdate,
      { ...body, setup_intent: setupIntent },
      customer.cookie,
    );
    expect(saved.statusCode, saved.body).toBe(200);
    return customer;
  }

  function secretOf(response: { json: <T>() => T }): string {
    return response.json<{ action: { client_secret: string } }>().action.client_secret;
  }

  async function ordersOf(customer: TestCustomer) {
    return t.app.db
      .selectFrom('orders')
      .select(['id', 'payment_status'])
      .where('customer_id', '=', customer.customerId)
      .execute();
  }

  async function placeWithSavedCard(customer: TestCustomer, key: string) {
    return callAs(
      t.app,
      checkoutApi.placeOrder,
      { ...buildPlaceOrder(), idempotency_key: key, payment: { method: 'saved' } },
      customer.cookie,
    );
  }

  it('keeps the order pending while the customer confirms, and pays it once when the request comes again', async () => {
    const customer = await customerWithCard();
    await callAs(
      t.app,
      cartApi.addProduct,
      { product_id: offers.sleep.oneTime, quantity: 1 },
      customer.cookie,
    );
    const key = crypto.randomUUID();
    const asked = await placeWithSavedCard(customer, key);
    expect(asked.statusCode, asked.body).toBe(402);
    expect(asked.json<{ code: string }>().code).toBe('CARD_AUTHENTICATION');
    const secret = secretOf(asked);
    expect(secret).toMatch(/^pi_/);
    const [pending] = await ordersOf(customer);
    expect(pending?.payment_status).toBe('pending');

    // Sent again before the customer confirmed: asked again, still pending, nothing charged.
    const early = await placeWithSavedCard(customer, key);
    expect(early.json<{ code: string }>().code).toBe('CARD_AUTHENTICATION');

    await fake.completeAuthentication(secret.split('_secret_')[0] ?? '', 'succeed');
    const placed = await placeWithSavedCard(customer, key);
    expect(placed.statusCode, placed.body).toBe(200);
    const orders = await ordersOf(customer);
    expect(orders.map((order) => order.payment_status)).toEqual(['paid']);
    const charges = (await ledgerForOrder(t.app.ctx, orders[0]?.id ?? 0)).filter(
      (call) => call.operation === 'charge',
    );
    expect(charges.map((call) => call.status)).toEqual(['succeeded']);
    expect(charges[0]?.gatewayRef).toBe(secret.split('_secret_')[0]);
  });

  it('a confirmation the customer failed declines the payment and frees the cart for another try', async () => {
    const customer = await customerWithCard();
    await callAs(
      t.app,
      cartApi.addProduct,
      { product_id: offers.sleep.oneTime, quantity: 1 },
      customer.cookie,
    );
    const key = crypto.randomUUID();
    const asked = await placeWithSavedCard(customer, key);
    await fake.completeAuthentication(secretOf(asked).split('_secret_')[0] ?? '', 'fail');
    const declined = await placeWithSavedCard(customer, key);
    expect(declined.statusCode).toBe(402);
    expect(declined.json<{ code: string }>().code).toBe('CARD_DECLINED');
    expect(await ordersOf(customer)).toEqual([]);

    // A new attempt is not told another is under way: it asks the bank again.
    const again = await placeWithSavedCard(customer, crypto.randomUUID());
    expect(again.json<{ code: string }>().code).toBe('CARD_AUTHENTICATION');
  });

  it('cancels at Stripe a payment never confirmed once the customer’s time is up, and undoes the order', async () => {
    const customer = await customerWithCard();
    await callAs(
      t.app,
      cartApi.addProduct,
      { product_id: offers.sleep.oneTime, quantity: 1 },
      customer.cookie,
    );
    const asked = await placeWithSavedCard(customer, crypto.randomUUID());
    const intent = secretOf(asked).split('_secret_')[0] ?? '';
    const [pending] = await ordersOf(customer);

    // Within the customer's time the reconciler leaves it alone.
    t.clock.advance(5 * 60 * 1000);
    await t.app.ctx.jobs.drain(RECONCILE_JOB);
    expect((await ordersOf(customer)).map((order) => order.payment_status)).toEqual(['pending']);

    t.clock.advance(11 * 60 * 1000);
    await t.app.ctx.jobs.drain(RECONCILE_JOB);
    expect(await ordersOf(customer)).toEqual([]);
    const calls = await ledgerForOrder(t.app.ctx, pending?.id ?? 0);
    expect(calls.map((call) => call.status)).toEqual(['failed']);
    const record = await t.app.ctx.payments.find({ id: intent });
    expect(record?.status).not.toBe('succeeded');
    // Confirming it now at the bank moves nothing: Stripe cancelled it.
    await expect(fake.completeAuthentication(intent, 'succeed')).rejects.toThrow();
  });

  it('a visit’s hold the bank asks about is confirmed by the patient, and the visit waits for review', async () => {
    const customer = await customerWithCard();
    const visitId = await edVisitAtCheckout(t.app, customer);
    const body = { ...visitCheckoutBody(visitId), payment: { method: 'saved' as const } };
    const asked = await callAs(t.app, visitsApi.checkout, body, customer.cookie);
    expect(asked.statusCode, asked.body).toBe(402);
    expect(asked.json<{ code: string }>().code).toBe('CARD_AUTHENTICATION');
    await fake.completeAuthentication(secretOf(asked).split('_secret_')[0] ?? '', 'succeed');
    const submitted = await callAs(t.app, visitsApi.checkout, body, customer.cookie);
    expect(submitted.statusCode, submitted.body).toBe(200);
    const visit = await t.app.db
      .selectFrom('visits')
      .select('status')
      .where('id', '=', visitId)
      .executeTakeFirstOrThrow();
    expect(visit.status).toBe('PENDING_REVIEW');
    const [order] = await ordersOf(customer);
    const holds = (await ledgerForOrder(t.app.ctx, order?.id ?? 0)).filter(
      (call) => call.operation === 'authorize',
    );
    expect(holds.map((call) => call.status)).toEqual(['succeeded']);
  });
});
