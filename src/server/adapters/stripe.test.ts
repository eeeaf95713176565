import Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp } from '#test/app.ts';
import { startFakeStripe, type FakeStripe } from '#test/stripe/fake-stripe.ts';
import { createSimulatorGateway, type PaymentGateway, type TokenizeResult } from './payments.ts';
import { createStripeGateway, StripeGatewayError, stripeCustomerOf } from './stripe.ts';

/**
 * The Stripe gateway, with the real `stripe` SDK, against the fake Stripe API of test/stripe/
 * (one per test: its clock moves and some tests close it). Stripe's own view of what happened is
 * read through a second client of the same fake, never through the gateway under test.
 */

const DAY = 24 * 60 * 60;
const now = new Date();
const email = 'jane.doe@example.com';

let fake: FakeStripe;
let gateway: PaymentGateway;
/** Stripe as its dashboard would show it. */
let stripe: Stripe;

beforeEach(async () => {
  fake = await startFakeStripe();
  gateway = createStripeGateway({
    secretKey: fake.secretKey,
    apiBase: fake.url,
    statementDescriptorSuffix: 'PAIRWELL',
  });
  stripe = new Stripe(fake.secretKey, {
    host: fake.host,
    port: fake.port,
    protocol: 'http',
    maxNetworkRetries: 0,
  });
});

afterEach(async () => {
  await fake.close();
});

/** Saves a test card to a new customer (or `customerRef`'s) and returns its token. */
async function savedCard(paymentMethodId: string, customerRef?: string): Promise<string> {
  const saved = await gateway.tokenize({ paymentMethodId, customerRef, email }, now);
  if (!saved.ok) throw new Error(`${paymentMethodId} was not saved: ${saved.code}`);
  return saved.token;
}

/** A card whose saving asks for 3-D Secure, saved after the customer confirms it. */
async function savedAfterAuthentication(paymentMethodId: string): Promise<string> {
  const asked = await gateway.tokenize({ paymentMethodId, email }, now);
  if (asked.ok || !asked.action) throw new Error(`${paymentMethodId} did not ask for 3-D Secure`);
  await fake.completeAuthentication(asked.action.intentId, 'succeed');
  const saved = await gateway.tokenize(
    { paymentMethodId, customerRef: asked.customerRef, setupIntentId: asked.action.intentId },
    now,
  );
  if (!saved.ok) throw new Error(`${paymentMethodId} was not saved after 3-D Secure`);
  return saved.token;
}

function posts(path: RegExp) {
  return fake.requests.filter((request) => request.method === 'POST' && path.test(request.path));
}

async function paymentIntentsWithKey(key: string) {
  const found = await stripe.paymentIntents.search({
    query: `metadata['idempotency_key']:'${key}'`,
  });
  return found.data;
}

describe('saving a card (tokenize)', () => {
  it('makes a customer with the email and saves the card for off-session use', async () => {
    const saved = await gateway.tokenize({ paymentMethodId: 'pm_card_visa', email }, now);

    expect(saved).toMatchObject({ ok: true, brand: 'Visa', last4: '4242', expMonth: 12 });
    if (!saved.ok) return;
    expect(saved.token).toMatch(/^cus_\w+:pm_\w+$/);
    const customer = stripeCustomerOf(saved.token) ?? '';
    expect(await stripe.customers.retrieve(customer)).toMatchObject({ email });
    const method = saved.token.split(':')[1];
    expect(await stripe.paymentMethods.retrieve(method ?? '')).toMatchObject({ customer });
    const setup = fake.events.find((event) => event.type === 'setup_intent.succeeded');
    expect(setup?.data.object).toMatchObject({
      customer,
      payment_method: method,
      usage: 'off_session',
    });
  });

  it('reuses the account’s customer for another card', async () => {
    const first = await savedCard('pm_card_visa');
    const customer = stripeCustomerOf(first) ?? '';
    const second = await gateway.tokenize(
      { paymentMethodId: 'pm_card_mastercard', customerRef: customer },
      now,
    );

    expect(second).toMatchObject({ ok: true, brand: 'Mastercard', last4: '4444' });
    expect(second.ok && stripeCustomerOf(second.token)).toBe(customer);
    expect(posts(/^\/v1\/customers$/)).toHaveLength(1);
  });

  it('asks for 3-D Secure when the bank wants it at saving, then saves the confirmed card', async () => {
    const asked = await gateway.tokenize(
      { paymentMethodId: 'pm_card_authenticationRequiredOnSetup', email },
      now,
    );
    expect(asked).toMatchObject({
      ok: false,
      code: 'authentication_required',
      message: 'Your bank needs you to confirm this payment.',
      action: { intentId: expect.stringMatching(/^seti_/), clientSecret: expect.any(String) },
      customerRef: expect.stringMatching(/^cus_/),
    });
    if (asked.ok || !asked.action) return;

    await fake.completeAuthentication(asked.action.intentId, 'succeed');
    const saved = await gateway.tokenize(
      {
        paymentMethodId: 'pm_card_authenticationRequiredOnSetup',
        customerRef: asked.customerRef,
        setupIntentId: asked.action.intentId,
      },
      now,
    );
    expect(saved).toMatchObject({ ok: true, brand: 'Visa', last4: '3155' });
    if (!saved.ok) return;
    expect(stripeCustomerOf(saved.token)).toBe(asked.customerRef);
    // Set up for off-session use, the card's renewals need no authentication.
    expect(
      await gateway.charge({ token: saved.token, amountCents: 2500, idempotencyKey: 'r1' }, now),
    ).toMatchObject({ ok: true });
  });

  it('says why when the 3-D Secure at saving fails, and refuses another account’s confirmation', async () => {
    const asked = await gateway.tokenize(
      { paymentMethodId: 'pm_card_authenticationRequiredOnSetup', email },
      now,
    );
    if (asked.ok || !asked.action) throw new Error('no 3-D Secure was asked');
    const intentId = asked.action.intentId;

    const stranger = stripeCustomerOf(await savedCard('pm_card_visa')) ?? '';
    expect(
      await gateway.tokenize(
        { paymentMethodId: 'pm_card_visa', customerRef: stranger, setupIntentId: intentId },
        now,
      ),
    ).toMatchObject({ ok: false, code: 'setup_intent_mismatch' });

    await fake.completeAuthentication(intentId, 'fail');
    const failed = await gateway.tokenize(
      {
        paymentMethodId: 'pm_card_authenticationRequiredOnSetup',
        customerRef: asked.customerRef,
        setupIntentId: intentId,
      },
      now,
    );
    expect(failed).toMatchObject({ ok: false, code: 'setup_intent_authentication_failure' });
  });

  it('refuses a card that is declined when saved', async () => {
    expect(
      await gateway.tokenize({ paymentMethodId: 'pm_card_visa_chargeDeclined', email }, now),
    ).toMatchObject({
      ok: false,
      code: 'generic_decline',
      message: 'Your card was declined.',
      field: 'ccnum',
    });
  });

  it('refuses card details, which never reach our server in Stripe mode, without calling Stripe', async () => {
    const refused: TokenizeResult = await gateway.tokenize(
      { number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' },
      now,
    );

    expect(refused).toEqual({
      ok: false,
      code: 'card_details_refused',
      message: 'Card details are taken only in the secure card form.',
      field: 'ccnum',
    });
    expect(fake.requests).toEqual([]);
  });

  it('the simulator refuses a Stripe payment method likewise', async () => {
    const t = await buildTestApp();
    try {
      const refused = await createSimulatorGateway(t.app.db).tokenize(
        { paymentMethodId: 'pm_card_visa' },
        now,
      );
      expect(refused).toMatchObject({ ok: false, code: 'payment_method_unsupported' });
    } finally {
      await t.close();
    }
  });
});

describe('charging a saved card', () => {
  it('makes one confirmed PaymentIntent carrying the ledger key and the statement suffix', async () => {
    const token = await savedCard('pm_card_visa');
    const charged = await gateway.charge({ token, amountCents: 1999, idempotencyKey: 'c1' }, now);

    expect(charged).toMatchObject({ ok: true, chargeId: expect.stringMatching(/^pi_/) });
    if (!charged.ok) return;
    expect(await stripe.paymentIntents.retrieve(charged.chargeId)).toMatchObject({
      amount: 1999,
      currency: 'usd',
      status: 'succeeded',
      customer: stripeCustomerOf(token),
      metadata: { idempotency_key: 'c1' },
      statement_descriptor_suffix: 'PAIRWELL',
    });
    expect(posts(/^\/v1\/payment_intents$/)).toEqual([
      expect.objectContaining({ idempotencyKey: 'c1', status: 200 }),
    ]);
    const record = { id: charged.chargeId, kind: 'charge', status: 'succeeded', amountCents: 1999 };
    expect(await gateway.find({ id: charged.chargeId })).toMatchObject(record);
    expect(await gateway.find({ idempotencyKey: 'c1' })).toMatchObject(record);
  });

  it('a declined card says so in Stripe’s words', async () => {
    const token = await savedCard('pm_card_chargeCustomerFail');
    expect(await gateway.charge({ token, amountCents: 1999, idempotencyKey: 'c2' }, now)).toEqual({
      ok: false,
      code: 'generic_decline',
      message: 'Your card was declined.',
    });
    expect(await gateway.find({ idempotencyKey: 'c2' })).toMatchObject({
      kind: 'charge',
      status: 'failed',
      failureMessage: 'Your card was declined.',
    });
  });

  it('insufficient funds says so', async () => {
    const token = await savedCard('pm_card_visa_chargeDeclinedInsufficientFunds');
    expect(await gateway.charge({ token, amountCents: 1999, idempotencyKey: 'c3' }, now)).toEqual({
      ok: false,
      code: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    });
  });

  it('an off-session charge the bank wants authenticated asks the customer to confirm it', async () => {
    const token = await savedAfterAuthentication('pm_card_authenticationRequired');
    const charged = await gateway.charge({ token, amountCents: 1999, idempotencyKey: 'c4' }, now);

    expect(charged).toEqual({
      ok: false,
      code: 'authentication_required',
      message: 'Your bank needs you to confirm this payment.',
      action: { intentId: expect.stringMatching(/^pi_/), clientSecret: expect.any(String) },
    });
    expect(await gateway.find({ idempotencyKey: 'c4' })).toMatchObject({
      status: 'failed',
      failureMessage: 'Your bank needs you to confirm this payment.',
      action: { intentId: expect.stringMatching(/^pi_/) },
    });
  });

  it('on the page, 3-D Secure leaves the payment waiting until the customer confirms it', async () => {
    const token = await savedAfterAuthentication('pm_card_threeDSecure2Required');
    const request = { token, amountCents: 4200, idempotencyKey: 'c5', offSession: false };
    const asked = await gateway.charge(request, now);
    if (asked.ok || !asked.action) throw new Error('no 3-D Secure was asked');
    const intentId = asked.action.intentId;
    expect(await gateway.find({ id: intentId })).toMatchObject({
      status: 'failed',
      action: { intentId },
    });

    await fake.completeAuthentication(intentId, 'succeed');
    expect(await gateway.find({ id: intentId })).toMatchObject({
      kind: 'charge',
      status: 'succeeded',
      amountCents: 4200,
    });
    // Asked again with its key, the charge answers what the payment is now, not the saved answer.
    expect(await gateway.charge(request, now)).toEqual({ ok: true, chargeId: intentId });
    expect(await paymentIntentsWithKey('c5')).toHaveLength(1);
  });

  it('the same idempotency key twice makes one PaymentIntent', async () => {
    const token = await savedCard('pm_card_visa');
    const first = await gateway.charge({ token, amountCents: 1500, idempotencyKey: 'c6' }, now);
    const again = await gateway.charge({ token, amountCents: 1500, idempotencyKey: 'c6' }, now);

    expect(again).toEqual(first);
    expect(posts(/^\/v1\/payment_intents$/).map((request) => request.idempotencyKey)).toEqual([
      'c6',
      'c6',
    ]);
    expect(await paymentIntentsWithKey('c6')).toHaveLength(1);
  });

  it('a token of another gateway is refused without calling Stripe', async () => {
    expect(
      await gateway.charge({ token: 'sim_ok_abc', amountCents: 1500, idempotencyKey: 'c7' }, now),
    ).toMatchObject({ ok: false, code: 'payment_method_missing' });
    expect(fake.requests).toEqual([]);
  });
});

describe('holds (authorize, capture, release)', () => {
  it('authorises, then captures once; capturing again answers the same charge', async () => {
    const token = await savedCard('pm_card_visa');
    const held = await gateway.authorize({ token, amountCents: 8900, idempotencyKey: 'a1' }, now);
    if (!held.ok) throw new Error('the hold failed');
    expect(await gateway.find({ idempotencyKey: 'a1' })).toMatchObject({
      id: held.authorizationId,
      kind: 'authorization',
      status: 'authorized',
      amountCents: 8900,
    });

    const captured = await gateway.capture({ authorizationId: held.authorizationId }, now);
    const again = await gateway.capture({ authorizationId: held.authorizationId }, now);

    expect(captured).toEqual({ ok: true, chargeId: held.authorizationId });
    expect(again).toEqual(captured);
    expect(posts(/\/capture$/)).toHaveLength(2);
    expect(await gateway.find({ id: held.authorizationId })).toMatchObject({
      kind: 'authorization',
      status: 'succeeded',
    });
    expect(await stripe.paymentIntents.retrieve(held.authorizationId)).toMatchObject({
      capture_method: 'manual',
      amount_received: 8900,
    });
  });

  it('releases a hold, and releasing it again is fine; a captured one is left as it is', async () => {
    const token = await savedCard('pm_card_visa');
    const held = await gateway.authorize({ token, amountCents: 8900, idempotencyKey: 'a2' }, now);
    if (!held.ok) throw new Error('the hold failed');

    await gateway.release({ authorizationId: held.authorizationId }, now);
    await gateway.release({ authorizationId: held.authorizationId }, now);
    expect(await gateway.find({ id: held.authorizationId })).toMatchObject({ status: 'released' });
    expect(await gateway.capture({ authorizationId: held.authorizationId }, now)).toEqual({
      ok: false,
      code: 'capture_failed',
      message: 'The authorisation has expired or was released.',
    });

    const taken = await gateway.authorize({ token, amountCents: 500, idempotencyKey: 'a3' }, now);
    if (!taken.ok) throw new Error('the hold failed');
    await gateway.capture({ authorizationId: taken.authorizationId }, now);
    await gateway.release({ authorizationId: taken.authorizationId }, now);
    expect(await gateway.find({ id: taken.authorizationId })).toMatchObject({
      status: 'succeeded',
    });
  });

  it('a hold past its 7 days cannot be captured', async () => {
    const token = await savedCard('pm_card_visa');
    const held = await gateway.authorize({ token, amountCents: 8900, idempotencyKey: 'a4' }, now);
    if (!held.ok) throw new Error('the hold failed');

    await fake.advanceClock(8 * DAY);

    expect(await gateway.capture({ authorizationId: held.authorizationId }, now)).toEqual({
      ok: false,
      code: 'capture_failed',
      message: 'The authorisation has expired or was released.',
    });
    expect(await gateway.find({ id: held.authorizationId })).toMatchObject({
      kind: 'authorization',
      status: 'released',
    });
  });

  it('a declined hold says why', async () => {
    const token = await savedCard('pm_card_visa_chargeDeclinedInsufficientFunds');
    expect(
      await gateway.authorize({ token, amountCents: 8900, idempotencyKey: 'a5' }, now),
    ).toEqual({
      ok: false,
      code: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    });
    expect(await gateway.find({ idempotencyKey: 'a5' })).toMatchObject({
      kind: 'authorization',
      status: 'failed',
      failureMessage: 'Your card has insufficient funds.',
    });
  });
});

describe('refunds', () => {
  async function paid(amountCents: number, key: string): Promise<string> {
    const token = await savedCard('pm_card_visa');
    const charged = await gateway.charge({ token, amountCents, idempotencyKey: key }, now);
    if (!charged.ok) throw new Error('the charge failed');
    return charged.chargeId;
  }

  it('refunds part, then the rest, and refuses more than is left', async () => {
    const chargeId = await paid(3000, 'p1');

    const part = await gateway.refund({ chargeId, amountCents: 1000, idempotencyKey: 'r1' }, now);
    const rest = await gateway.refund({ chargeId, amountCents: 2000, idempotencyKey: 'r2' }, now);
    const over = await gateway.refund({ chargeId, amountCents: 1, idempotencyKey: 'r3' }, now);

    expect(part).toMatchObject({ ok: true, refundId: expect.stringMatching(/^re_/) });
    expect(rest).toMatchObject({ ok: true, refundId: expect.stringMatching(/^re_/) });
    expect(over).toEqual({ ok: false, message: 'That is more than the payment left to refund.' });
    expect(await stripe.refunds.retrieve(part.ok ? part.refundId : '')).toMatchObject({
      amount: 1000,
      payment_intent: chargeId,
      metadata: { idempotency_key: 'r1' },
    });
    expect(await gateway.find({ idempotencyKey: 'r2', sourceRef: chargeId })).toMatchObject({
      id: rest.ok ? rest.refundId : '',
      kind: 'refund',
      status: 'succeeded',
      amountCents: 2000,
    });
    expect(await gateway.find({ id: part.ok ? part.refundId : '' })).toMatchObject({
      kind: 'refund',
      amountCents: 1000,
    });
  });

  it('refuses more than the payment in one go', async () => {
    const chargeId = await paid(3000, 'p2');
    expect(
      await gateway.refund({ chargeId, amountCents: 3001, idempotencyKey: 'r4' }, now),
    ).toEqual({ ok: false, message: 'That is more than the payment left to refund.' });
  });

  it('a hold not captured has no payment to refund', async () => {
    const token = await savedCard('pm_card_visa');
    const held = await gateway.authorize({ token, amountCents: 3000, idempotencyKey: 'p3' }, now);
    if (!held.ok) throw new Error('the hold failed');
    expect(
      await gateway.refund(
        { chargeId: held.authorizationId, amountCents: 1000, idempotencyKey: 'r5' },
        now,
      ),
    ).toEqual({ ok: false, message: 'There is no payment to refund.' });
  });

  it('asked again after Stripe forgot the key (24 h), the refund is still made once', async () => {
    const chargeId = await paid(3000, 'p4');
    const first = await gateway.refund({ chargeId, amountCents: 1000, idempotencyKey: 'r6' }, now);

    await fake.advanceClock(25 * 60 * 60);
    const again = await gateway.refund({ chargeId, amountCents: 1000, idempotencyKey: 'r6' }, now);

    expect(again).toEqual(first);
    expect(posts(/^\/v1\/refunds$/)).toHaveLength(1);
    expect((await stripe.refunds.list({ payment_intent: chargeId })).data).toHaveLength(1);
  });
});

describe('what the reconciler learns (find) and failures that are not answers', () => {
  it('finds by key a PaymentIntent whose answer was lost on the way back', async () => {
    const token = await savedCard('pm_card_visa');
    fake.dropNextResponse({ method: 'POST', path: /^\/v1\/payment_intents$/ });

    await expect(
      gateway.charge({ token, amountCents: 2200, idempotencyKey: 'f1' }, now),
    ).rejects.toThrow(StripeGatewayError);

    const record = await gateway.find({ idempotencyKey: 'f1' });
    expect(record).toMatchObject({ kind: 'charge', status: 'succeeded', amountCents: 2200 });
    // Asked again with the same key, Stripe answers the charge it made.
    expect(await gateway.charge({ token, amountCents: 2200, idempotencyKey: 'f1' }, now)).toEqual({
      ok: true,
      chargeId: record?.id,
    });
    expect(await paymentIntentsWithKey('f1')).toHaveLength(1);
  });

  it('a key used again after Stripe forgot it finds the payment that moved money', async () => {
    const failing = await savedCard('pm_card_chargeCustomerFail');
    const declined = await gateway.charge(
      { token: failing, amountCents: 2200, idempotencyKey: 'f4' },
      now,
    );
    expect(declined).toMatchObject({ ok: false });

    await fake.advanceClock(25 * 60 * 60);
    const good = await savedCard('pm_card_visa');
    const paid = await gateway.charge(
      { token: good, amountCents: 2200, idempotencyKey: 'f4' },
      now,
    );

    expect(await paymentIntentsWithKey('f4')).toHaveLength(2);
    expect(await gateway.find({ idempotencyKey: 'f4' })).toMatchObject({
      id: paid.ok ? paid.chargeId : '',
      status: 'succeeded',
    });
  });

  it('finds nothing for an id Stripe does not know', async () => {
    expect(await gateway.find({ id: 'pi_unknown' })).toBeNull();
    expect(await gateway.find({ id: 're_unknown' })).toBeNull();
    expect(await gateway.find({ id: 'ch_unknown' })).toBeNull();
  });

  it('finds nothing for a key no call was made with, after looking past the search', async () => {
    // Some payments exist, none with the key: the search finds nothing, and so does the list of
    // the newest payments the search may not know yet.
    const token = await savedCard('pm_card_visa');
    for (const key of ['n1', 'n2'])
      await gateway.charge({ token, amountCents: 500, idempotencyKey: key }, now);
    expect(await gateway.find({ idempotencyKey: 'never-used' })).toBeNull();
    expect(
      await gateway.find({ idempotencyKey: 'never-used', sourceRef: 'pi_unknown' }),
    ).toBeNull();
    expect(fake.requests.some((r) => r.method === 'GET' && r.path === '/v1/payment_intents')).toBe(
      true,
    );
  });

  it('throws, never declines, when Stripe cannot be reached, naming no secret or token', async () => {
    const token = await savedCard('pm_card_visa');
    await fake.close();

    const failure = await gateway
      .charge({ token, amountCents: 2200, idempotencyKey: 'f2' }, now)
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(StripeGatewayError);
    expect(String(failure)).toContain('StripeConnectionError');
    expect(String(failure)).not.toContain(token.split(':')[1] ?? token);
    expect(String(failure)).not.toContain(fake.secretKey);
    await expect(gateway.find({ idempotencyKey: 'f2' })).rejects.toThrow(StripeGatewayError);
    await expect(
      gateway.refund({ chargeId: 'pi_x', amountCents: 1, idempotencyKey: 'f3' }, now),
    ).rejects.toThrow(StripeGatewayError);
    // The fake is started again for afterEach to close.
    fake = await startFakeStripe();
  });

  it('a wrong secret key is thrown without the key', async () => {
    const wrongKey = 'sk_test_wrong_key_0123456789';
    const misconfigured = createStripeGateway({ secretKey: wrongKey, apiBase: fake.url });

    const failure = await misconfigured
      .tokenize({ paymentMethodId: 'pm_card_visa', email }, now)
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(StripeGatewayError);
    expect(String(failure)).toContain('StripeAuthenticationError');
    expect(String(failure)).not.toContain('0123456789');
  });
});
