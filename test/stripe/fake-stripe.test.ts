import http from 'node:http';
import Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from './fake-stripe.ts';

/**
 * The fake Stripe driven by the real `stripe` SDK over HTTP, as the gateway will drive it: each
 * test names the Stripe behaviour it holds the fake to.
 */

const DAY = 24 * 60 * 60;

let fake: FakeStripe;
let stripe: Stripe;

beforeEach(async () => {
  fake = await startFakeStripe();
  stripe = new Stripe(fake.secretKey, {
    host: fake.host,
    port: fake.port,
    protocol: 'http',
    telemetry: false,
  });
});

afterEach(async () => {
  await fake.close();
});

/** The types of the events made about one object, in order. */
function eventTypesFor(id: string): string[] {
  return fake.events
    .filter((event) => (event.data.object as { id?: string }).id === id)
    .map((event) => event.type);
}

/** The error a call rejects with, to look at its fields. */
async function failureOf(call: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  const error: unknown = await call.then(
    () => null,
    (rejection: unknown) => rejection,
  );
  if (!(error instanceof Stripe.errors.StripeError)) {
    throw new Error(`expected a StripeError, got ${String(error)}`);
  }
  return error;
}

/** Confirmations on the server: card only, so Stripe asks no return_url. */
const cardOnly = { payment_method_types: ['card'] };

describe('customers and saved cards', () => {
  it('saves a card for off-session use with a SetupIntent, then charges it off-session', async () => {
    const customer = await stripe.customers.create({
      email: 'sam@example.com',
      metadata: { user_id: 'u_1' },
    });
    const setupIntent = await stripe.setupIntents.create({
      customer: customer.id,
      payment_method: 'pm_card_visa',
      confirm: true,
      usage: 'off_session',
      ...cardOnly,
    });

    expect(setupIntent.status).toBe('succeeded');
    // A test PaymentMethod id becomes a fresh PaymentMethod of the customer's own.
    expect(setupIntent.payment_method).not.toBe('pm_card_visa');
    const saved = await stripe.paymentMethods.retrieve(String(setupIntent.payment_method));
    expect(saved).toMatchObject({ customer: customer.id, card: { brand: 'visa', last4: '4242' } });
    expect(eventTypesFor(setupIntent.id)).toEqual([
      'setup_intent.created',
      'setup_intent.succeeded',
    ]);

    const payment = await stripe.paymentIntents.create({
      amount: 2500,
      currency: 'usd',
      customer: customer.id,
      payment_method: saved.id,
      off_session: true,
      confirm: true,
      ...cardOnly,
    });
    expect(payment.status).toBe('succeeded');

    const found = await stripe.customers.search({ query: "metadata['user_id']:'u_1'" });
    expect(found.data.map((match) => match.id)).toEqual([customer.id]);
    expect(await stripe.customers.retrieve(customer.id)).toMatchObject({
      email: 'sam@example.com',
    });
  });

  it('a card that needs authentication when set up works off-session once authenticated', async () => {
    const customer = await stripe.customers.create({ email: 'alex@example.com' });
    const setupIntent = await stripe.setupIntents.create({
      customer: customer.id,
      payment_method: 'pm_card_authenticationRequiredOnSetup',
      confirm: true,
      ...cardOnly,
    });
    expect(setupIntent.status).toBe('requires_action');
    expect(setupIntent.next_action?.type).toBe('use_stripe_sdk');

    await fake.completeAuthentication(setupIntent.id, 'succeed');
    const done = await stripe.setupIntents.retrieve(setupIntent.id);
    expect(done.status).toBe('succeeded');

    const payment = await stripe.paymentIntents.create({
      amount: 1800,
      currency: 'usd',
      customer: customer.id,
      payment_method: String(done.payment_method),
      off_session: true,
      confirm: true,
      ...cardOnly,
    });
    expect(payment.status).toBe('succeeded');
  });

  it('a SetupIntent whose authentication fails says so and can be cancelled', async () => {
    const customer = await stripe.customers.create({});
    const setupIntent = await stripe.setupIntents.create({
      customer: customer.id,
      payment_method: 'pm_card_threeDSecure2Required',
      confirm: true,
      ...cardOnly,
    });
    await fake.completeAuthentication(setupIntent.id, 'fail');

    const failed = await stripe.setupIntents.retrieve(setupIntent.id);
    expect(failed.status).toBe('requires_payment_method');
    expect(failed.last_setup_error?.code).toBe('setup_intent_authentication_failure');
    expect(eventTypesFor(setupIntent.id)).toContain('setup_intent.setup_failed');
    expect((await stripe.setupIntents.cancel(setupIntent.id)).status).toBe('canceled');
  });

  it('the always-declined card cannot be saved', async () => {
    const customer = await stripe.customers.create({});
    const failure = await failureOf(
      stripe.setupIntents.create({
        customer: customer.id,
        payment_method: 'pm_card_visa_chargeDeclined',
        confirm: true,
        ...cardOnly,
      }),
    );
    expect(failure).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(failure.code).toBe('card_declined');
    expect(failure.setup_intent?.status).toBe('requires_payment_method');
    expect(eventTypesFor(String(failure.setup_intent?.id))).toContain('setup_intent.setup_failed');
  });

  it('makes a PaymentMethod from card details and refuses bad ones with Stripe card errors', async () => {
    const card = { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2040, cvc: '123' };
    const made = await stripe.paymentMethods.create({ type: 'card', card });
    expect(made.card).toMatchObject({
      brand: 'visa',
      last4: '4242',
      exp_month: 12,
      exp_year: 2040,
    });
    expect(made.customer).toBeNull();

    const refusals = await Promise.all(
      [
        { ...card, number: '4242424242424241' },
        { ...card, exp_year: 2001 },
        { ...card, exp_month: 13 },
        { ...card, cvc: '12' },
      ].map((bad) => failureOf(stripe.paymentMethods.create({ type: 'card', card: bad }))),
    );
    expect(refusals.map((refusal) => [refusal.statusCode, refusal.code, refusal.param])).toEqual([
      [402, 'incorrect_number', 'number'],
      [402, 'invalid_expiry_year', 'exp_year'],
      [402, 'invalid_expiry_month', 'exp_month'],
      [402, 'invalid_cvc', 'cvc'],
    ]);
    expect(refusals[0]?.message).toBe('Your card number is incorrect.');

    const customer = await stripe.customers.create({});
    const attached = await stripe.paymentMethods.attach(made.id, { customer: customer.id });
    expect(attached.customer).toBe(customer.id);
    const detached = await stripe.paymentMethods.detach(made.id);
    expect(detached.customer).toBeNull();
    // A detached card may not be used again.
    const reuse = await failureOf(stripe.paymentMethods.attach(made.id, { customer: customer.id }));
    expect(reuse.statusCode).toBe(400);
  });
});

describe('payments', () => {
  it('a card payment succeeds, with its charge expandable', async () => {
    const payment = await stripe.paymentIntents.create({
      amount: 4200,
      currency: 'usd',
      payment_method: 'pm_card_mastercard',
      confirm: true,
      metadata: { order: 'A-1' },
      statement_descriptor_suffix: 'GUMMIES',
      ...cardOnly,
    });
    expect(payment).toMatchObject({ status: 'succeeded', amount_received: 4200 });

    const read = await stripe.paymentIntents.retrieve(payment.id, { expand: ['latest_charge'] });
    const charge = read.latest_charge as Stripe.Charge;
    expect(charge).toMatchObject({
      object: 'charge',
      amount_captured: 4200,
      amount_refunded: 0,
      refunded: false,
      payment_method_details: { card: { brand: 'mastercard', last4: '4444' } },
      outcome: { risk_level: 'normal' },
    });
    expect(charge.id).toMatch(/^ch_/);
    expect(eventTypesFor(payment.id)).toEqual([
      'payment_intent.created',
      'payment_intent.succeeded',
    ]);
  });

  it('a decline answers 402 with the PaymentIntent, left to try another card', async () => {
    const failure = await failureOf(
      stripe.paymentIntents.create({
        amount: 1000,
        currency: 'usd',
        payment_method: 'pm_card_visa_chargeDeclinedInsufficientFunds',
        confirm: true,
        ...cardOnly,
      }),
    );
    expect(failure).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(failure).toMatchObject({
      statusCode: 402,
      code: 'card_declined',
      decline_code: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    });
    expect(failure.raw).toMatchObject({ type: 'card_error' });
    const paymentIntent = failure.payment_intent as Stripe.PaymentIntent;
    expect(paymentIntent.status).toBe('requires_payment_method');
    expect(paymentIntent.last_payment_error?.decline_code).toBe('insufficient_funds');
    expect(eventTypesFor(paymentIntent.id)).toContain('payment_intent.payment_failed');

    // The customer tries another card on the same PaymentIntent.
    const retried = await stripe.paymentIntents.confirm(paymentIntent.id, {
      payment_method: 'pm_card_visa',
    });
    expect(retried.status).toBe('succeeded');
  });

  it('a card number that is always declined gives generic_decline', async () => {
    const card = await stripe.paymentMethods.create({
      type: 'card',
      card: { number: '4000000000000002', exp_month: 1, exp_year: 2040, cvc: '123' },
    });
    const failure = await failureOf(
      stripe.paymentIntents.create({
        amount: 1000,
        currency: 'usd',
        payment_method: card.id,
        confirm: true,
        ...cardOnly,
      }),
    );
    expect([failure.code, failure.decline_code]).toEqual(['card_declined', 'generic_decline']);
  });

  it('3-D Secure on-session: requires_action, then the customer completes it', async () => {
    const payment = await stripe.paymentIntents.create({
      amount: 3000,
      currency: 'usd',
      payment_method: 'pm_card_threeDSecure2Required',
      confirm: true,
      automatic_payment_methods: { enabled: true },
      return_url: 'https://pairwell.example/checkout/complete',
    });
    expect(payment.status).toBe('requires_action');
    expect(payment.next_action?.type).toBe('use_stripe_sdk');
    expect(payment.client_secret).toMatch(new RegExp(`^${payment.id}_secret_`));

    await fake.completeAuthentication(payment.id, 'succeed');
    expect((await stripe.paymentIntents.retrieve(payment.id)).status).toBe('succeeded');
    expect(eventTypesFor(payment.id)).toEqual([
      'payment_intent.created',
      'payment_intent.requires_action',
      'payment_intent.succeeded',
    ]);

    const abandoned = await stripe.paymentIntents.create({
      amount: 3000,
      currency: 'usd',
      payment_method: 'pm_card_threeDSecure2Required',
      confirm: true,
      ...cardOnly,
    });
    await fake.completeAuthentication(abandoned.id, 'fail');
    const failed = await stripe.paymentIntents.retrieve(abandoned.id);
    expect(failed.status).toBe('requires_payment_method');
    expect(failed.last_payment_error?.code).toBe('payment_intent_authentication_failure');
  });

  it('automatic payment methods need a return_url to confirm, as Stripe asks', async () => {
    const failure = await failureOf(
      stripe.paymentIntents.create({
        amount: 3000,
        currency: 'usd',
        payment_method: 'pm_card_visa',
        confirm: true,
      }),
    );
    expect(failure.statusCode).toBe(400);
    expect(failure.message).toMatch(/you must provide a `return_url`/);
  });

  it('off-session, a card that needs authentication fails with authentication_required', async () => {
    const customer = await stripe.customers.create({});
    const failure = await failureOf(
      stripe.paymentIntents.create({
        amount: 2000,
        currency: 'usd',
        customer: customer.id,
        payment_method: 'pm_card_authenticationRequired',
        off_session: true,
        confirm: true,
        ...cardOnly,
      }),
    );
    expect(failure).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect([failure.code, failure.decline_code]).toEqual([
      'authentication_required',
      'authentication_required',
    ]);
    expect(failure.payment_intent?.status).toBe('requires_payment_method');
  });

  it('a hold is captured once, for at most what was authorised; another is cancelled', async () => {
    const hold = await stripe.paymentIntents.create({
      amount: 2000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      capture_method: 'manual',
      confirm: true,
      ...cardOnly,
    });
    expect(hold).toMatchObject({ status: 'requires_capture', amount_capturable: 2000 });
    const charge = await stripe.charges.retrieve(String(hold.latest_charge));
    expect(charge.captured).toBe(false);
    expect(charge.payment_method_details?.card?.capture_before).toBe(charge.created + 7 * DAY);
    expect(eventTypesFor(hold.id)).toContain('payment_intent.amount_capturable_updated');

    const tooMuch = await failureOf(
      stripe.paymentIntents.capture(hold.id, { amount_to_capture: 2500 }),
    );
    expect(tooMuch.param).toBe('amount_to_capture');
    const captured = await stripe.paymentIntents.capture(hold.id, { amount_to_capture: 1500 });
    expect(captured).toMatchObject({ status: 'succeeded', amount_received: 1500 });
    const again = await failureOf(stripe.paymentIntents.capture(hold.id));
    expect(again.code).toBe('payment_intent_unexpected_state');

    const released = await stripe.paymentIntents.create({
      amount: 2000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      capture_method: 'manual',
      confirm: true,
      ...cardOnly,
    });
    const canceled = await stripe.paymentIntents.cancel(released.id, {
      cancellation_reason: 'requested_by_customer',
    });
    expect(canceled).toMatchObject({
      status: 'canceled',
      cancellation_reason: 'requested_by_customer',
    });
    expect(eventTypesFor(released.id).at(-1)).toBe('payment_intent.canceled');
  });

  it('a hold not captured within 7 days is cancelled automatically', async () => {
    const hold = await stripe.paymentIntents.create({
      amount: 2000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      capture_method: 'manual',
      confirm: true,
      ...cardOnly,
    });
    await fake.advanceClock(6 * DAY);
    expect((await stripe.paymentIntents.retrieve(hold.id)).status).toBe('requires_capture');

    await fake.advanceClock(2 * DAY);
    const expired = await stripe.paymentIntents.retrieve(hold.id);
    expect(expired).toMatchObject({ status: 'canceled', cancellation_reason: 'automatic' });
    const event = fake.events.at(-1);
    expect(event?.type).toBe('payment_intent.canceled');
    expect(event?.created).toBe(fake.now());
    const late = await failureOf(stripe.paymentIntents.capture(hold.id));
    expect(late.code).toBe('payment_intent_unexpected_state');
  });

  it('a PaymentIntent updated before confirming, then found by search on metadata and status', async () => {
    const draft = await stripe.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      metadata: { idempotency_key: 'order-7', order: 'A-7' },
      ...cardOnly,
    });
    const updated = await stripe.paymentIntents.update(draft.id, {
      amount: 1200,
      payment_method: 'pm_card_visa',
      metadata: { order: '' },
    });
    expect(updated).toMatchObject({
      amount: 1200,
      status: 'requires_confirmation',
      metadata: { idempotency_key: 'order-7' },
    });
    await stripe.paymentIntents.confirm(draft.id);
    const other = await stripe.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      metadata: { idempotency_key: 'order-8' },
      ...cardOnly,
    });

    const byKey = await stripe.paymentIntents.search({
      query: "metadata['idempotency_key']:'order-7'",
    });
    expect(byKey.data.map((found) => found.id)).toEqual([draft.id]);
    const succeeded = await stripe.paymentIntents.search({
      query: "status:'succeeded' AND metadata['idempotency_key']:'order-8'",
    });
    expect(succeeded.data).toEqual([]);
    const firstPage = await stripe.paymentIntents.search({ query: "currency:'usd'", limit: 1 });
    expect(firstPage.has_more).toBe(true);
    const secondPage = await stripe.paymentIntents.search({
      query: "currency:'usd'",
      limit: 1,
      page: String(firstPage.next_page),
    });
    // Newest first, a page at a time.
    expect(firstPage.data.map((found) => found.id)).toEqual([other.id]);
    expect(secondPage.data.map((found) => found.id)).toEqual([draft.id]);
    expect(secondPage.has_more).toBe(false);
    const unparsable = await failureOf(
      stripe.paymentIntents.search({ query: 'idempotency_key = 7' }),
    );
    expect(unparsable.param).toBe('query');
  });
});

describe('refunds, disputes and fraud warnings', () => {
  async function paid(amount: number): Promise<Stripe.PaymentIntent> {
    return stripe.paymentIntents.create({
      amount,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
      ...cardOnly,
    });
  }

  it('refunds part, refuses more than is left, and a Dashboard refund takes the rest', async () => {
    const payment = await paid(5000);
    const refund = await stripe.refunds.create({
      payment_intent: payment.id,
      amount: 2000,
      reason: 'requested_by_customer',
      metadata: { ticket: 'T-1' },
    });
    expect(refund).toMatchObject({ status: 'succeeded', amount: 2000, payment_intent: payment.id });
    expect((await stripe.refunds.retrieve(refund.id)).id).toBe(refund.id);

    const tooMuch = await failureOf(
      stripe.refunds.create({ payment_intent: payment.id, amount: 4000 }),
    );
    expect(tooMuch).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(tooMuch.param).toBe('amount');
    expect(tooMuch.message).toBe(
      'Refund amount ($40.00) is greater than unrefunded amount on charge ($30.00)',
    );

    const fromDashboard = await fake.refundFromDashboard(payment.id);
    const refunded = fake.events.filter((event) => event.type === 'charge.refunded');
    expect((refunded.at(-1)?.data.object as Stripe.Charge).amount_refunded).toBe(5000);
    expect((refunded.at(-1)?.data.object as Stripe.Charge).refunded).toBe(true);
    expect(eventTypesFor(fromDashboard)).toEqual(['refund.created']);
    expect(
      fake.events.find((event) => event.data.object === refunded.at(-1)?.data.object)?.request,
    ).toEqual({
      id: null,
      idempotency_key: null,
    });

    const listed = await stripe.refunds.list({ payment_intent: payment.id });
    expect(listed.data.map((item) => item.id)).toEqual([fromDashboard, refund.id]);
    const none = await failureOf(stripe.refunds.create({ payment_intent: payment.id }));
    expect(none.code).toBe('charge_already_refunded');
  });

  it('a dispute opens with a due date, closes with its result, and blocks refunds', async () => {
    const payment = await paid(3000);
    await fake.earlyFraudWarning(payment.id);
    const warning = fake.events.at(-1);
    expect(warning?.type).toBe('radar.early_fraud_warning.created');
    expect(warning?.data.object).toMatchObject({ payment_intent: payment.id, actionable: true });

    const disputeId = await fake.openDispute(payment.id);
    const opened = fake.events.find((event) => event.type === 'charge.dispute.created');
    const dispute = opened?.data.object as Stripe.Dispute;
    expect(dispute).toMatchObject({ id: disputeId, status: 'needs_response', amount: 3000 });
    expect(dispute.evidence_details.due_by).toBeGreaterThan(fake.now());

    const refused = await failureOf(stripe.refunds.create({ payment_intent: payment.id }));
    expect(refused.code).toBe('charge_disputed');

    await fake.closeDispute(disputeId, 'lost');
    const closed = fake.events.at(-1);
    expect(closed?.type).toBe('charge.dispute.closed');
    expect(closed?.data.object).toMatchObject({ id: disputeId, status: 'lost' });
  });
});

describe('the API around the objects', () => {
  it('the same idempotency key replays the first answer; other parameters are refused', async () => {
    const params = {
      amount: 1000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
      ...cardOnly,
    };
    const first = await stripe.paymentIntents.create(params, { idempotencyKey: 'charge-1' });
    const second = await stripe.paymentIntents.create(params, { idempotencyKey: 'charge-1' });
    expect(second.id).toBe(first.id);
    expect(second.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect(fake.events.filter((event) => event.type === 'payment_intent.succeeded')).toHaveLength(
      1,
    );

    const misuse = await failureOf(
      stripe.paymentIntents.create({ ...params, amount: 2000 }, { idempotencyKey: 'charge-1' }),
    );
    expect(misuse).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(misuse.statusCode).toBe(400);

    // A declined payment's answer is kept too: the retry gets the same 402.
    const declined = { ...params, payment_method: 'pm_card_visa_chargeDeclined' };
    const firstDecline = await failureOf(
      stripe.paymentIntents.create(declined, { idempotencyKey: 'charge-2' }),
    );
    const replayedDecline = await failureOf(
      stripe.paymentIntents.create(declined, { idempotencyKey: 'charge-2' }),
    );
    expect(replayedDecline.payment_intent?.id).toBe(firstDecline.payment_intent?.id);

    // Keys are kept 24 hours, then the key is free again.
    await fake.advanceClock(25 * 60 * 60);
    const later = await stripe.paymentIntents.create(
      { ...params, amount: 2000 },
      { idempotencyKey: 'charge-1' },
    );
    expect(later.id).not.toBe(first.id);
    expect(fake.requests.filter((request) => request.idempotencyKey === 'charge-1')).toHaveLength(
      4,
    );
  });

  it('a wrong key, an unknown parameter and an unknown id get Stripe errors', async () => {
    const stranger = new Stripe('sk_test_somebodyelse', {
      host: fake.host,
      port: fake.port,
      protocol: 'http',
      telemetry: false,
    });
    const unauthorised = await failureOf(stranger.customers.create({}));
    expect(unauthorised).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(unauthorised.message).toMatch(/^Invalid API Key provided: sk_test_\*+else$/);

    const unknown = await failureOf(
      stripe.paymentIntents.create({
        amount: 1000,
        currency: 'usd',
        colour: 'red',
      } as Stripe.PaymentIntentCreateParams),
    );
    expect([unknown.code, unknown.param]).toEqual(['parameter_unknown', 'colour']);

    const missing = await failureOf(stripe.paymentIntents.retrieve('pi_nothing'));
    expect(missing).toMatchObject({ statusCode: 404, code: 'resource_missing' });
    expect(missing.message).toBe("No such payment_intent: 'pi_nothing'");
  });

  it('events reach the endpoint signed so that constructEvent verifies them, retried on failure', async () => {
    const received: Stripe.Event[] = [];
    const forgeries: string[] = [];
    let refuseNext = true;
    const receiver = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        // Our server's first answer fails; Stripe sends the event again.
        if (refuseNext) {
          refuseNext = false;
          response.writeHead(500).end();
          return;
        }
        const signature = String(request.headers['stripe-signature']);
        received.push(stripe.webhooks.constructEvent(body, signature, fake.webhookSecret));
        try {
          stripe.webhooks.constructEvent(body, signature, 'whsec_someone_else');
        } catch (error) {
          if (error instanceof Stripe.errors.StripeSignatureVerificationError) forgeries.push(body);
        }
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const address = receiver.address() as { port: number };
    fake.setWebhookEndpoint(`http://127.0.0.1:${address.port}/stripe/webhook`);

    const payment = await stripe.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
      ...cardOnly,
    });
    await fake.whenDelivered();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));

    expect(received.map((event) => event.type)).toEqual([
      'payment_intent.created',
      'charge.succeeded',
      'payment_intent.succeeded',
    ]);
    expect((received.at(-1)?.data.object as Stripe.PaymentIntent).id).toBe(payment.id);
    // Checked with another secret, every event is refused.
    expect(forgeries).toHaveLength(received.length);
    const firstEvent = fake.events[0]?.id;
    expect(fake.deliveries.slice(0, 2)).toEqual([
      { eventId: firstEvent, status: 500 },
      { eventId: firstEvent, status: 200 },
    ]);
  });

  it('a dropped answer fails the SDK call while the payment was made, and search finds it', async () => {
    fake.dropNextResponse({ method: 'POST', path: /^\/v1\/payment_intents$/ });
    const params = {
      amount: 1000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
      metadata: { idempotency_key: 'visit-9' },
      ...cardOnly,
    };
    const lost = await failureOf(
      stripe.paymentIntents.create(params, { idempotencyKey: 'visit-9' }),
    );
    expect(lost).toBeInstanceOf(Stripe.errors.StripeConnectionError);

    const found = await stripe.paymentIntents.search({
      query: "metadata['idempotency_key']:'visit-9'",
    });
    expect(found.data).toHaveLength(1);
    expect(found.data[0]?.status).toBe('succeeded');
    // Retried with its key, the call gets the answer that was lost.
    const retried = await stripe.paymentIntents.create(params, { idempotencyKey: 'visit-9' });
    expect(retried.id).toBe(found.data[0]?.id);
    expect(fake.requests.map((request) => request.status)).toEqual([200, 200, 200]);
  });
});

describe("Radar's risk levels (https://docs.stripe.com/radar/testing)", () => {
  /** A payment on this test PaymentMethod, read back with its charge. */
  async function chargeOf(paymentMethod: string): Promise<Stripe.Charge> {
    const payment = await stripe.paymentIntents.create({
      amount: 2000,
      currency: 'usd',
      payment_method: paymentMethod,
      confirm: true,
      ...cardOnly,
    });
    const read = await stripe.paymentIntents.retrieve(payment.id, { expand: ['latest_charge'] });
    return read.latest_charge as Stripe.Charge;
  }

  it('rates the elevated-risk card elevated and the highest-risk card highest, and takes both', async () => {
    const elevated = await chargeOf('pm_card_riskLevelElevated');
    expect(elevated).toMatchObject({
      status: 'succeeded',
      outcome: {
        risk_level: 'elevated',
        type: 'authorized',
        network_status: 'approved_by_network',
      },
    });
    const highest = await chargeOf('pm_card_riskLevelHighest');
    expect(highest).toMatchObject({ status: 'succeeded', outcome: { risk_level: 'highest' } });
    expect(highest.outcome?.risk_score).toBeGreaterThan(elevated.outcome?.risk_score ?? 100);
  });

  it('blocks every payment on 4100 0000 0000 0019 as highest risk, before the issuer sees it', async () => {
    const card = await stripe.paymentMethods.create({
      type: 'card',
      card: { number: '4100000000000019', exp_month: 1, exp_year: 2040, cvc: '123' },
    });
    const failure = await failureOf(
      stripe.paymentIntents.create({
        amount: 1000,
        currency: 'usd',
        payment_method: card.id,
        confirm: true,
        ...cardOnly,
      }),
    );
    expect(failure).toMatchObject({ code: 'card_declined', decline_code: 'fraudulent' });
    const blocked = failure.payment_intent as Stripe.PaymentIntent;
    const charge = await stripe.charges.retrieve(String(blocked.latest_charge));
    expect(charge).toMatchObject({
      status: 'failed',
      outcome: {
        risk_level: 'highest',
        type: 'blocked',
        reason: 'highest_risk_level',
        network_status: 'not_sent_to_network',
      },
    });
  });
});
