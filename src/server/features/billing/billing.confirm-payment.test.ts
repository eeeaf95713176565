import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECONCILE_JOB } from '#server/features/payments/payments.jobs.ts';
import { ledgerForOrder } from '#server/features/payments/payments.service.ts';
import { accountsApi } from '#shared/accounts.ts';
import { authApi } from '#shared/auth.ts';
import { cartApi } from '#shared/cart.ts';
import { offers } from '#shared/catalog.ts';
import { checkoutApi } from '#shared/checkout.ts';
import { ordersApi } from '#shared/orders.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import {
  buildPlaceOrder,
  insertCustomer,
  sessionCookie,
  type TestCustomer,
} from '#test/factories.ts';
import { sentMessages } from '#test/outbox.ts';
import { startFakeStripe, stripeEnv, type FakeStripe } from '#test/stripe/fake-stripe.ts';
import { runBilling } from './billing.service.ts';

/**
 * Issue 28, "Confirm your payment": a renewal charged while the customer is away, to a card whose
 * bank wants them to confirm every payment (Stripe's 4000 0027 6000 3184), is refused with
 * authentication_required. The customer is told by e-mail and on Home, confirms on the page (the
 * bank's 3-D Secure), and the renewal is paid once, with its receipt; a confirmation left
 * unfinished is cancelled at Stripe when their time is up, and the order stays unpaid.
 */
describe(`Confirm your payment (${testDialect})`, () => {
  let fake: FakeStripe;
  let t: TestApp;
  const DAY = 24 * 60 * 60 * 1000;

  beforeAll(async () => {
    fake = await startFakeStripe();
    t = await buildTestApp({
      env: {
        ...stripeEnv(fake),
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  async function advance(ms: number): Promise<void> {
    t.clock.advance(ms);
    await fake.advanceClock(ms / 1000);
  }

  const intentOf = (secret: string) => secret.split('_secret_')[0] ?? '';
  const secretOf = (response: { json: <T>() => T }) =>
    response.json<{ action: { client_secret: string } }>().action.client_secret;

  async function sessionOf(customer: TestCustomer): Promise<string> {
    const me = await callAs(t.app, accountsApi.basics, {}, customer.cookie);
    if (me.statusCode === 200) return customer.cookie;
    return sessionCookie(
      await callAs(t.app, authApi.login, { email: customer.email, password: customer.password }),
    );
  }

  /**
   * A monthly subscriber whose card asks for authentication on every payment: saved through 3-D
   * Secure, the first order paid through it at the page. Then a month passes and billing runs.
   */
  async function renewalRefused(): Promise<{ customer: TestCustomer; orderNumber: string }> {
    const customer = await insertCustomer(t.app);
    const card = { payment_method: 'pm_card_authenticationRequired', consent: true } as const;
    const setup = await callAs(t.app, accountsApi.paymentMethodUpdate, card, customer.cookie);
    const setupIntent = intentOf(secretOf(setup));
    await fake.completeAuthentication(setupIntent, 'succeed');
    const saved = await callAs(
      t.app,
      accountsApi.paymentMethodUpdate,
      { ...card, setup_intent: setupIntent },
      customer.cookie,
    );
    expect(saved.statusCode, saved.body).toBe(200);
    await callAs(
      t.app,
      cartApi.addProduct,
      { product_id: offers.sleep.monthly, quantity: 1 },
      customer.cookie,
    );
    const order = { ...buildPlaceOrder(), payment: { method: 'saved' } } as const;
    const asked = await callAs(t.app, checkoutApi.placeOrder, order, customer.cookie);
    await fake.completeAuthentication(intentOf(secretOf(asked)), 'succeed');
    const placed = await callAs(t.app, checkoutApi.placeOrder, order, customer.cookie);
    expect(placed.statusCode, placed.body).toBe(200);

    await advance(31 * DAY);
    await runBilling(t.app.ctx);
    const renewal = await t.app.db
      .selectFrom('orders')
      .select(['order_number', 'payment_status', 'payment_confirmation_ref'])
      .where('customer_id', '=', customer.customerId)
      .where('kind', '=', 'renewal')
      .executeTakeFirstOrThrow();
    expect(renewal.payment_status).toBe('unpaid');
    expect(renewal.payment_confirmation_ref).toMatch(/^pi_/);
    return { customer, orderNumber: renewal.order_number };
  }

  it('tells the customer by e-mail and on Home, and pays the renewal once they confirm it', async () => {
    const { customer, orderNumber } = await renewalRefused();
    const mail = (await sentMessages(t)).filter(
      (message) => message.to === customer.email && message.subject.startsWith('Please confirm'),
    );
    expect(mail).toHaveLength(1);
    expect(mail[0]?.text).toContain(`/accounts/confirm-payment?order=${orderNumber}`);
    const cookie = await sessionOf(customer);
    const basics = await callAs(t.app, accountsApi.basics, {}, cookie);
    expect(
      basics.json<{ data: { flags: { type: string; href: string }[] } }>().data.flags,
    ).toContainEqual({
      type: 'payment_confirmation',
      message: `Your bank wants you to confirm the payment for order ${orderNumber}.`,
      href: `/accounts/confirm-payment?order=${orderNumber}`,
    });

    // Orders says so on the order too, with the way to confirm it.
    const detail = await callAs(
      t.app,
      ordersApi.order,
      { leads_id: customer.leadsId, order_number: orderNumber },
      cookie,
    );
    expect(detail.json()).toMatchObject({ data: { order: { payment_confirmation: true } } });

    const asked = await callAs(
      t.app,
      accountsApi.paymentConfirm,
      { order_number: orderNumber },
      cookie,
    );
    expect(asked.statusCode, asked.body).toBe(402);
    expect(asked.json<{ code: string }>().code).toBe('CARD_AUTHENTICATION');
    await fake.completeAuthentication(intentOf(secretOf(asked)), 'succeed');
    const confirmed = await callAs(
      t.app,
      accountsApi.paymentConfirm,
      { order_number: orderNumber },
      cookie,
    );
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({
      data: { order_number: orderNumber, outcome: 'paid' },
    });
    const order = await t.app.db
      .selectFrom('orders')
      .select(['id', 'payment_status', 'payment_confirmation_ref'])
      .where('order_number', '=', orderNumber)
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({ payment_status: 'paid', payment_confirmation_ref: null });
    const charges = (await ledgerForOrder(t.app.ctx, order.id)).map(
      (call) => `${call.purpose} ${call.status}`,
    );
    expect(charges).toEqual(['renewal failed', 'confirm succeeded']);
    const receipts = (await sentMessages(t)).filter(
      (message) => message.to === customer.email && message.subject.includes('receipt'),
    );
    expect(receipts.some((message) => message.text.includes(orderNumber))).toBe(true);

    // Asked again: nothing waits any more, and nothing is charged twice.
    const again = await callAs(
      t.app,
      accountsApi.paymentConfirm,
      { order_number: orderNumber },
      cookie,
    );
    expect(again.statusCode).toBe(404);
  });

  it('only the customer’s own order, and a confirmation left unfinished is cancelled at Stripe', async () => {
    const { customer, orderNumber } = await renewalRefused();
    const stranger = await insertCustomer(t.app);
    const theirs = await callAs(
      t.app,
      accountsApi.paymentConfirm,
      { order_number: orderNumber },
      stranger.cookie,
    );
    expect(theirs.statusCode).toBe(404);

    const cookie = await sessionOf(customer);
    const asked = await callAs(
      t.app,
      accountsApi.paymentConfirm,
      { order_number: orderNumber },
      cookie,
    );
    const intent = intentOf(secretOf(asked));
    await advance(16 * 60 * 1000);
    await t.app.ctx.jobs.drain(RECONCILE_JOB);
    // Too late now: Stripe cancelled it, and the order is still owed.
    await expect(fake.completeAuthentication(intent, 'succeed')).rejects.toThrow();
    const order = await t.app.db
      .selectFrom('orders')
      .select(['id', 'payment_status'])
      .where('order_number', '=', orderNumber)
      .executeTakeFirstOrThrow();
    expect(order.payment_status).toBe('unpaid');
    const calls = (await ledgerForOrder(t.app.ctx, order.id)).map(
      (call) => `${call.purpose} ${call.status}`,
    );
    expect(calls).toEqual(['renewal failed', 'confirm failed']);
  });
});
