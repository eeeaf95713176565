import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type FrameLocator, type Page } from '@playwright/test';
import Stripe from 'stripe';
import { startFakeStripe, type FakeStripe } from '../test/stripe/fake-stripe.ts';

/**
 * The fake's Stripe.js stand-in in a real Chromium, from a merchant page on another origin: the
 * card typed into the Payment Element's frame becomes a PaymentMethod without the page seeing it,
 * the form says Stripe's messages, and the 3-D Secure page completes or fails an intent.
 */

let fake: FakeStripe;
let stripe: Stripe;
let merchant: http.Server;
let merchantUrl: string;
let page: Page;
/** Errors thrown in the merchant's page or the frames, which fail the test. */
let pageErrors: string[];

/** The merchant's page: the Payment Element, and buttons calling Stripe.js as a checkout would. */
function merchantPage(stripeUrl: string, publishableKey: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Merchant</title><script src="${stripeUrl}/v3/"></script></head>
<body>
<main>
  <h1>Pay</h1>
  <div id="payment-element"></div>
  <p id="state">not ready</p>
  <button type="button" id="create">Create payment method</button>
  <label>Client secret <input id="client-secret"></label>
  <button type="button" id="pay">Pay</button>
  <button type="button" id="next">Handle next action</button>
  <output id="result"></output>
</main>
<script>
  const stripe = Stripe(${JSON.stringify(publishableKey)});
  const elements = stripe.elements({
    mode: 'payment', amount: 2500, currency: 'usd', paymentMethodCreation: 'manual',
  });
  const paymentElement = elements.create('payment');
  const state = document.getElementById('state');
  const result = document.getElementById('result');
  const clientSecret = () => document.getElementById('client-secret').value;
  const show = (answer) => {
    const intent = answer.paymentIntent ?? answer.setupIntent;
    result.textContent = answer.error
      ? 'error ' + answer.error.type + ' ' + (answer.error.code ?? '') + ': ' + answer.error.message
      : answer.paymentMethod
        ? 'payment method ' + answer.paymentMethod.id
        : intent.id + ' ' + intent.status;
  };
  paymentElement.on('ready', () => { state.textContent = 'ready'; });
  paymentElement.on('change', (event) => {
    state.textContent = event.complete ? 'complete' : event.empty ? 'empty' : 'incomplete';
  });
  paymentElement.mount('#payment-element');
  document.getElementById('create').addEventListener('click', async () => {
    const submitted = await elements.submit();
    if (submitted.error) return show(submitted);
    show(await stripe.createPaymentMethod({ elements }));
  });
  document.getElementById('pay').addEventListener('click', async () => {
    const submitted = await elements.submit();
    if (submitted.error) return show(submitted);
    show(await stripe.confirmPayment({
      elements, clientSecret: clientSecret(), redirect: 'if_required',
    }));
  });
  document.getElementById('next').addEventListener('click', async () => {
    show(await stripe.handleNextAction({ clientSecret: clientSecret() }));
  });
</script>
</body>
</html>`;
}

test.beforeEach(async ({ page: tab }) => {
  fake = await startFakeStripe();
  stripe = new Stripe(fake.secretKey, {
    host: fake.host,
    port: fake.port,
    protocol: 'http',
    telemetry: false,
  });
  const html = merchantPage(fake.url, fake.publishableKey);
  merchant = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => merchant.listen(0, '127.0.0.1', resolve));
  merchantUrl = `http://127.0.0.1:${(merchant.address() as AddressInfo).port}/`;
  page = tab;
  pageErrors = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(merchantUrl);
  await page.getByText('ready', { exact: true }).waitFor();
});

test.afterEach(async () => {
  expect(pageErrors).toEqual([]);
  await new Promise<void>((resolve, reject) =>
    merchant.close((error) => (error ? reject(error) : resolve())),
  );
  await fake.close();
});

const cardForm = (): FrameLocator =>
  page.frameLocator('iframe[title="Secure payment input frame"]');

async function typeCard(card: { number: string; expiry: string; cvc: string; zip: string }) {
  const form = cardForm();
  await form.getByLabel('Card number').fill(card.number);
  await form.getByLabel('Expiration date').fill(card.expiry);
  await form.getByLabel('Security code').fill(card.cvc);
  await form.getByLabel('ZIP').fill(card.zip);
}

/** Clicks a button of the merchant's page and waits for what Stripe.js answered. */
async function answerTo(button: string): Promise<string> {
  await page.locator('#result').evaluate((output) => {
    output.textContent = '';
  });
  await page.getByRole('button', { name: button, exact: true }).click();
  const result = page.locator('#result', { hasText: /./ });
  await result.waitFor();
  return (await result.textContent()) ?? '';
}

/** The message a field of the card form shows, through the field's accessible description. */
async function messageOf(label: string): Promise<string | null> {
  const field = cardForm().getByLabel(label, { exact: true });
  if ((await field.getAttribute('aria-invalid')) !== 'true') return null;
  const describedBy = await field.getAttribute('aria-describedby');
  if (!describedBy) return null;
  return cardForm().locator(`[id="${describedBy}"]`).textContent();
}

async function state(): Promise<string | null> {
  return page.locator('#state').textContent();
}

async function paymentIntentNeedingAuthentication(): Promise<Stripe.PaymentIntent> {
  // pm_card_threeDSecure2Required is 4000 0000 0000 3220, which asks 3-D Secure on every payment.
  const intent = await stripe.paymentIntents.create({
    amount: 2500,
    currency: 'usd',
    payment_method: 'pm_card_threeDSecure2Required',
    automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
    confirm: true,
  });
  expect(intent.status).toBe('requires_action');
  return intent;
}

const challengePage = () => page.frameLocator('iframe[title="3D Secure authentication"]');

test.describe('the Payment Element', () => {
  test('turns the card typed in its frame into a PaymentMethod, never showing the page the number', async () => {
    const cardRequests: { frameUrl: string; body: string }[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(`${fake.url}/v1/payment_methods`)) {
        cardRequests.push({ frameUrl: request.frame().url(), body: request.postData() ?? '' });
      }
    });
    await typeCard({ number: '4242424242424242', expiry: '1234', cvc: '123', zip: '94107' });
    await page.getByText('complete', { exact: true }).waitFor();
    expect(await cardForm().getByLabel('Card number').inputValue()).toBe('4242 4242 4242 4242');
    expect(await cardForm().getByLabel('Expiration date').inputValue()).toBe('12 / 34');

    const answer = await answerTo('Create payment method');

    const id = /^payment method (pm_\w+)$/.exec(answer)?.[1];
    expect(id, answer).toBeDefined();
    const paymentMethod = await stripe.paymentMethods.retrieve(String(id));
    expect(paymentMethod.card).toMatchObject({
      brand: 'visa',
      last4: '4242',
      exp_month: 12,
      exp_year: 2034,
    });
    // The card went from the frame on Stripe's origin, with the publishable key.
    expect(cardRequests).toHaveLength(1);
    expect(cardRequests[0]?.frameUrl.startsWith(`${fake.url}/elements/payment`)).toBe(true);
    expect(cardRequests[0]?.body).toContain(`key=${fake.publishableKey}`);
    expect(await page.content()).not.toContain('4242 4242 4242 4242');
  });

  test("says Stripe's messages for an incomplete or invalid card, and refuses to make a PaymentMethod", async () => {
    const form = cardForm();
    await form.getByLabel('Card number').fill('4242 4242 4242');
    await form.getByLabel('Card number').press('Tab');
    await form.getByText('Your card number is incomplete.').waitFor();
    expect(await messageOf('Card number')).toBe('Your card number is incomplete.');

    await form.getByLabel('Card number').fill('4242 4242 4242 4241');
    await form.getByText('Your card number is invalid.').waitFor();
    expect(await messageOf('Card number')).toBe('Your card number is invalid.');

    await form.getByLabel('Expiration date').fill('01 / 20');
    await form.getByText("Your card's expiration year is in the past.").waitFor();
    expect(await messageOf('Expiration date')).toBe("Your card's expiration year is in the past.");

    await form.getByLabel('Card number').fill('4242 4242 4242 4242');
    await form.getByLabel('Expiration date').fill('1');
    const answer = await answerTo('Create payment method');

    // The first problem is the answer; every field says its own.
    expect(answer).toBe(
      "error validation_error incomplete_expiry: Your card's expiration date is incomplete.",
    );
    expect(await messageOf('Card number')).toBeNull();
    expect(await messageOf('Expiration date')).toBe("Your card's expiration date is incomplete.");
    expect(await messageOf('Security code')).toBe("Your card's security code is incomplete.");
    expect(await messageOf('ZIP')).toBe('Your ZIP is incomplete.');
    expect(await state()).toBe('incomplete');
    expect(fake.requests.filter((request) => request.path === '/v1/payment_methods')).toEqual([]);
  });

  test('pays an intent confirmed from the page, through the 3-D Secure page its card asks for', async () => {
    const intent = await stripe.paymentIntents.create({
      amount: 2500,
      currency: 'usd',
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
    });
    await page.getByLabel('Client secret').fill(String(intent.client_secret));
    await typeCard({ number: '4000000000003220', expiry: '1234', cvc: '123', zip: '94107' });
    await page.getByRole('button', { name: 'Pay', exact: true }).click();

    await challengePage().getByRole('heading', { name: '3D Secure 2 Test Page' }).waitFor();
    await challengePage().getByRole('button', { name: 'Complete' }).click();
    await page.locator('#result', { hasText: /./ }).waitFor();

    expect(await page.locator('#result').textContent()).toBe(`${intent.id} succeeded`);
    expect(await page.locator('iframe[title="3D Secure authentication"]').count()).toBe(0);
    const paid = await stripe.paymentIntents.retrieve(intent.id);
    expect(paid.status).toBe('succeeded');
  });
});

test.describe('3-D Secure', () => {
  test('completes the challenge of an intent in requires_action', async () => {
    const intent = await paymentIntentNeedingAuthentication();
    await page.getByLabel('Client secret').fill(String(intent.client_secret));
    await page.getByRole('button', { name: 'Handle next action' }).click();

    const challenge = challengePage();
    await challenge.getByRole('heading', { name: '3D Secure 2 Test Page' }).waitFor();
    await challenge.getByRole('button', { name: 'Complete' }).click();
    const result = page.locator('#result', { hasText: /./ });
    await result.waitFor();

    expect(await result.textContent()).toBe(`${intent.id} succeeded`);
    expect(await page.getByRole('dialog').count()).toBe(0);
    // Focus goes back to the button that started it.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('next');
    expect((await stripe.paymentIntents.retrieve(intent.id)).status).toBe('succeeded');
  });

  test('a failed challenge answers payment_intent_authentication_failure', async () => {
    const intent = await paymentIntentNeedingAuthentication();
    await page.getByLabel('Client secret').fill(String(intent.client_secret));
    await page.getByRole('button', { name: 'Handle next action' }).click();

    await challengePage().getByRole('button', { name: 'Fail' }).click();
    const result = page.locator('#result', { hasText: /./ });
    await result.waitFor();

    expect(await result.textContent()).toBe(
      'error invalid_request_error payment_intent_authentication_failure: The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.',
    );
    const failed = await stripe.paymentIntents.retrieve(intent.id);
    expect(failed.status).toBe('requires_payment_method');
    expect(failed.last_payment_error?.code).toBe('payment_intent_authentication_failure');
  });
});

test.describe('the publishable key', () => {
  test('reads an intent only with its client secret, and then only its public fields', async () => {
    const intent = await stripe.paymentIntents.create({
      amount: 2500,
      currency: 'usd',
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
      metadata: { order: 'o_1' },
    });
    const browserSide = new Stripe(fake.publishableKey, {
      host: fake.host,
      port: fake.port,
      protocol: 'http',
      telemetry: false,
    });

    const seen = await browserSide.paymentIntents.retrieve(intent.id, {
      client_secret: String(intent.client_secret),
    });
    expect(seen).toMatchObject({ id: intent.id, amount: 2500, status: 'requires_payment_method' });
    expect(seen).not.toHaveProperty('metadata');
    expect(seen).not.toHaveProperty('customer');

    const wrongSecret = await browserSide.paymentIntents
      .retrieve(intent.id, { client_secret: `${intent.id}_secret_wrong` })
      .catch((error: unknown) => error);
    expect(wrongSecret).toMatchObject({ statusCode: 400, param: 'client_secret' });

    const refused = await browserSide.customers
      .create({ email: 'sam@example.com' })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({
      statusCode: 401,
      message: expect.stringContaining('cannot be made with a publishable API key'),
    });
  });
});
