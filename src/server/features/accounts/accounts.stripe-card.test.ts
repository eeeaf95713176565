import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsApi } from '#shared/accounts.ts';
import { cartApi } from '#shared/cart.ts';
import { offers } from '#shared/catalog.ts';
import { checkoutApi } from '#shared/checkout.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import { buildPlaceOrder, insertCustomer, type TestCustomer } from '#test/factories.ts';
import { startFakeStripe, stripeEnv, type FakeStripe } from '#test/stripe/fake-stripe.ts';
import { selectGatewayCustomer } from './accounts.queries.ts';

/**
 * Issue 28, card entry in Stripe mode, on the app as the environment's STRIPE_* keys choose it:
 * the card update and the checkout take a payment method (never card fields), save it on the
 * account's own Stripe customer, and a card whose bank asks for 3-D Secure is answered with what
 * the browser confirms, then finished with the SetupIntent the customer confirmed.
 */
describe(`card entry through Stripe (${testDialect})`, () => {
  let fake: FakeStripe;
  let t: TestApp;

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

  /** The card on file as our database keeps it: brand, last 4 and the gateway's token. */
  const cardOf = async (customer: TestCustomer) =>
    (await t.app.db
      .selectFrom('payment_methods')
      .select(['brand', 'last4', 'gateway_token'])
      .where('customer_id', '=', customer.customerId)
      .executeTakeFirst()) ?? null;
  /** PaymentIntents asked for, one per idempotency key (a request sent again is the same one). */
  const intentsMade = () =>
    new Set(
      fake.requests
        .filter((request) => request.method === 'POST' && request.path === '/v1/payment_intents')
        .map((request) => request.idempotencyKey),
    ).size;

  it('saves a card from the Payment Element on the account’s own Stripe customer, every time', async () => {
    const customer = await insertCustomer(t.app);
    const first = await callAs(
      t.app,
      accountsApi.paymentMethodUpdate,
      { payment_method: 'pm_card_visa', consent: true },
      customer.cookie,
    );
    expect(first.statusCode, first.body).toBe(200);
    expect(await cardOf(customer)).toMatchObject({ brand: 'Visa', last4: '4242' });
    const stripeCustomer = await selectGatewayCustomer(t.app.db, customer.customerId);
    expect(stripeCustomer).toMatch(/^cus_/);

    const second = await callAs(
      t.app,
      accountsApi.paymentMethodUpdate,
      { payment_method: 'pm_card_mastercard', consent: true },
      customer.cookie,
    );
    expect(second.statusCode, second.body).toBe(200);
    expect(await selectGatewayCustomer(t.app.db, customer.customerId)).toBe(stripeCustomer);
    expect((await cardOf(customer))?.gateway_token).toMatch(new RegExp(`^${stripeCustomer}:pm_`));
  });

  it('answers a bank’s 3-D Secure request with the client secret, and saves the card once it is confirmed', async () => {
    const customer = await insertCustomer(t.app);
    const asked = await callAs(
      t.app,
      accountsApi.paymentMethodUpdate,
      { payment_method: 'pm_card_authenticationRequiredOnSetup', consent: true },
      customer.cookie,
    );
    expect(asked.statusCode, asked.body).toBe(402);
    const body = asked.json<{ code: string; message: string; action: { client_secret: string } }>();
    expect(body.code).toBe('CARD_AUTHENTICATION');
    expect(body.message).toBe('Your bank needs you to confirm this payment.');
    expect(body.action.client_secret).toMatch(/^seti_\w+_secret_\w+$/);
    expect(await cardOf(customer)).toBeNull();

    const setupIntent = body.action.client_secret.split('_secret_')[0] ?? '';
    // Sent again before the customer confirmed: still not saved.
    const early = await callAs(
      t.app,
      accountsApi.paymentMethodUpdate,
      {
        payment_method: 'pm_card_authenticationRequiredOnSetup',
        setup_intent: setupIntent,
        consent: true,
      },
      customer.cookie,
    );
    expect(early.statusCode).toBe(402);
    expect(await cardOf(customer)).toBeNull();

    await fake.completeAuthentication(setupIntent, 'succeed');
    const saved = await callAs(
      t.app,
      accountsApi.paymentMethodUpdate,
      {
        payment_method: 'pm_card_authenticationRequiredOnSetup',
        setup_intent: setupIntent,
        consent: true,
      },
      customer.cookie,
    );
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await cardOf(customer)).toMatchObject({ last4: '3155' });
  });

  it('finishes a confirmed SetupIntent only for the account it was begun for', async () => {
    const owner = await insertCustomer(t.app);
    const asked = await callAs(
      t.app,
      accountsApi.paymentMethodUpdate,
      { payment_method: 'pm_card_authenticationRequiredOnSetup', consent: true },
      owner.cookie,
    );
    const secret = asked.json<{ action: { client_secret: string } }>().action.client_secret;
    const setupIntent = secret.split('_secret_')[0] ?? '';
    await fake.completeAuthentication(setupIntent, 'succeed');

    const other = await insertCustomer(t.app);
    // The other account's first card (so it has a Stripe customer of its own).
    await callAs(
      t.app,
      accountsApi.paymentMethodUpdate,
      { payment_method: 'pm_card_visa', consent: true },
      other.cookie,
    );
    const stolen = await callAs(
      t.app,
      accountsApi.paymentMethodUpdate,
      {
        payment_method: 'pm_card_authenticationRequiredOnSetup',
        setup_intent: setupIntent,
        consent: true,
      },
      other.cookie,
    );
    expect(stolen.statusCode).toBe(402);
    expect(stolen.json<{ code: string }>().code).toBe('CARD_DECLINED');
    expect(await cardOf(other)).toMatchObject({ last4: '4242' });

    // One Stripe has never heard of is refused the same way, not a server error.
    const made = await callAs(
      t.app,
      accountsApi.paymentMethodUpdate,
      { payment_method: 'pm_card_visa', setup_intent: 'seti_nothing_here', consent: true },
      other.cookie,
    );
    expect(made.statusCode).toBe(402);
    expect(made.json<{ code: string; message: string }>()).toMatchObject({
      code: 'CARD_DECLINED',
      message: 'That card confirmation is not for this account.',
    });
  });

  it('refuses card fields in Stripe mode, and a payment method in simulator mode, saying to reload', async () => {
    const customer = await insertCustomer(t.app);
    const asked = fake.requests.length;
    const fields = await callAs(
      t.app,
      accountsApi.ccUpdate,
      { ccnum: '4242424242424242', ccexp: '12/30', cccvv: '123', consent: true },
      customer.cookie,
    );
    expect(fields.statusCode).toBe(409);
    expect(fields.json<{ code: string; message: string }>()).toMatchObject({
      code: 'CARD_ENTRY_CHANGED',
      message: 'Our card form has changed. Please reload the page and enter your card again.',
    });
    // Nothing went to Stripe: a card number never leaves our server in Stripe mode.
    expect(fake.requests.length).toBe(asked);

    const simulator = await buildTestApp();
    try {
      const other = await insertCustomer(simulator.app);
      const element = await callAs(
        simulator.app,
        accountsApi.paymentMethodUpdate,
        { payment_method: 'pm_card_visa', consent: true },
        other.cookie,
      );
      expect(element.statusCode).toBe(409);
      expect(element.json<{ code: string }>().code).toBe('CARD_ENTRY_CHANGED');
    } finally {
      await simulator.close();
    }
  });

  it('checks out with a new card from the Payment Element, through 3-D Secure, paid once', async () => {
    const customer = await insertCustomer(t.app);
    await callAs(
      t.app,
      cartApi.addProduct,
      { product_id: offers.sleep.oneTime, quantity: 1 },
      customer.cookie,
    );
    const order = buildPlaceOrder();
    const intentsBefore = intentsMade();
    const asked = await callAs(
      t.app,
      checkoutApi.placeOrder,
      {
        ...order,
        payment: {
          method: 'payment_method',
          payment_method: 'pm_card_authenticationRequiredOnSetup',
        },
      },
      customer.cookie,
    );
    expect(asked.statusCode, asked.body).toBe(402);
    const secret = asked.json<{ action: { client_secret: string } }>().action.client_secret;
    const setupIntent = secret.split('_secret_')[0] ?? '';
    await fake.completeAuthentication(setupIntent, 'succeed');

    const withCard = {
      ...order,
      payment: {
        method: 'payment_method',
        payment_method: 'pm_card_authenticationRequiredOnSetup',
        setup_intent: setupIntent,
      },
    } as const;
    // Saved; and this card asks again for a payment made at the page (Stripe's 4000 0025 0000
    // 3155 skips it only off-session): the order waits while the customer confirms it.
    const payment = await callAs(t.app, checkoutApi.placeOrder, withCard, customer.cookie);
    expect(payment.statusCode, payment.body).toBe(402);
    const paymentSecret = payment.json<{ action: { client_secret: string } }>().action
      .client_secret;
    expect(paymentSecret).toMatch(/^pi_/);
    await fake.completeAuthentication(paymentSecret.split('_secret_')[0] ?? '', 'succeed');
    const placed = await callAs(t.app, checkoutApi.placeOrder, withCard, customer.cookie);
    expect(placed.statusCode, placed.body).toBe(200);
    // One PaymentIntent, made once the card was saved: none while the bank was asking about it.
    expect(intentsMade() - intentsBefore).toBe(1);
    expect(await cardOf(customer)).toMatchObject({ last4: '3155' });
  });

  it('opens the Content-Security-Policy for Stripe only on the pages where a card is typed', async () => {
    const policy = async (url: string) =>
      String((await t.app.inject({ method: 'GET', url })).headers['content-security-policy']);
    const stripeOrigin = new URL(fake.url).origin;
    for (const page of ['/checkout/payment', '/accounts/editPaymentMethod', '/visit/ed/checkout']) {
      expect(await policy(page)).toContain(`script-src 'self' ${stripeOrigin}`);
      expect(await policy(page)).toContain(`frame-src ${stripeOrigin}`);
    }
    for (const page of ['/', '/dashboard', '/checkout/shipping', '/accounts', '/visit/ed/photo'])
      expect(await policy(page)).not.toContain(stripeOrigin);
  });
});
