import type { FrameLocator, Locator, Page } from '@playwright/test';
import { openDatabase } from '../src/server/db/client.ts';
import {
  expect,
  ops,
  provider,
  stripeBaseURL,
  test,
  unexpectedProblems,
  watchConsole,
} from './fixtures.ts';
import { edVisitAtCheckout } from './visit-helpers.ts';

/**
 * Issue 28: the journeys that take a card, on the instance that takes cards through Stripe (the
 * fake of test/stripe with its Stripe.js stand-in). The card is typed in Stripe's frame, a bank
 * that asks for 3-D Secure shows its page over ours, and our page never holds a card number.
 */
test.use({ baseURL: stripeBaseURL });

/** Stripe's test card that asks for 3-D Secure when it is saved, and not after. */
const THREE_D_SECURE_ON_SETUP = '4000002500003155';

const cardFrame = (page: Page): FrameLocator =>
  page.frameLocator('iframe[title="Secure payment input frame"]');

async function typeCard(page: Page, number: string): Promise<void> {
  const form = cardFrame(page);
  await form.getByLabel('Card number').fill(number);
  await form.getByLabel('Expiration date').fill('12 / 30');
  await form.getByLabel('Security code').fill('123');
  await form.getByLabel('ZIP').fill('97209');
}

/**
 * Clicks a button below Stripe's frame. Chromium hit-tests a cross-origin frame in the browser
 * process, from the last picture the page drew: a click sent the moment Playwright has scrolled the
 * button into view can land in the card frame where it stood before the scroll (seen at 375 px:
 * the click went to the frame's expiry field, and the form was never sent). Scrolled first, and
 * drawn, the click lands where it is aimed.
 */
async function clickBelowCardFrame(button: Locator): Promise<void> {
  await button.scrollIntoViewIfNeeded();
  await button.page().evaluate(
    () =>
      new Promise<void>((resolve) => {
        requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
      }),
  );
  await button.click();
}

/** The bank's 3-D Secure page over ours: completed, and gone. */
async function completeThreeDSecure(page: Page): Promise<void> {
  const frame = page.locator('iframe[title="3D Secure authentication"]');
  const complete = page
    .frameLocator('iframe[title="3D Secure authentication"]')
    .getByRole('button', { name: 'Complete' });
  // The bank's page opens once Stripe and our server have answered: slower on a busy machine.
  await expect(complete).toBeVisible({ timeout: 30_000 });
  // A card asked twice opens a new page as soon as this one closes, between two looks at the page:
  // wait for this frame to go, not for none.
  await frame.evaluate((element) => element.setAttribute('data-answered', ''));
  await complete.click();
  await expect(page.locator('iframe[title="3D Secure authentication"][data-answered]')).toHaveCount(
    0,
  );
}

/** No card number in any request our page sent to our own server. */
function watchOwnRequests(page: Page): string[] {
  const bodies: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(stripeBaseURL)) bodies.push(request.postData() ?? '');
  });
  return bodies;
}

test('a card update through Stripe asks the bank for 3-D Secure, and the page never sees the number', async ({
  page,
  newCustomer,
  logIn,
  screens,
  consoleProblems,
}) => {
  const customer = await newCustomer('stripe-card');
  const sent = watchOwnRequests(page);
  await logIn(customer);
  // Reached from another page of the app: the card page loads as its own document, whose policy
  // lets Stripe in (the dashboard's does not).
  await page.goto('/accounts');
  const payment = page.getByRole('region', { name: 'Payment method' });
  await payment.getByRole('link', { name: 'Update payment method' }).click();
  await expect(page).toHaveURL(/\/accounts\/editPaymentMethod$/);
  await expect(cardFrame(page).getByLabel('Card number')).toBeVisible();

  await clickBelowCardFrame(page.getByRole('button', { name: 'Save card' }));
  await expect(page.getByText('Continue your payment by checking the box above')).toBeVisible();

  await typeCard(page, THREE_D_SECURE_ON_SETUP);
  await page.getByRole('checkbox', { name: /I authorize Pairwell to charge this card/ }).check();
  await screens.checkAccessible();
  await screens.shot('stripe-card-form');
  await clickBelowCardFrame(page.getByRole('button', { name: 'Save card' }));
  await expect(page.getByRole('dialog')).toBeVisible();
  await screens.windowShot('stripe-card-3ds');
  await completeThreeDSecure(page);

  await expect(page.getByText('Payment method updated', { exact: true })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page).toHaveURL(/\/accounts$/);
  await expect(payment.getByText('Expires 12/30')).toBeVisible();
  await expect(payment.getByText(/3155/)).toBeVisible();
  await screens.check('stripe-card-saved');
  expect(sent.join('\n')).not.toContain(THREE_D_SECURE_ON_SETUP);
  // 402: the bank's request for 3-D Secure, answered before the card is saved.
  expect(unexpectedProblems(consoleProblems, [402])).toEqual([]);
});

test('a new customer checks out with a card whose bank asks for 3-D Secure, for saving it and for paying', async ({
  page,
  newCustomer,
  logIn,
  staffLogIn,
  screens,
  consoleProblems,
}) => {
  const customer = await newCustomer('stripe-checkout');
  const sent = watchOwnRequests(page);
  await logIn(customer);
  await page.goto('/shop');
  const biotin = page.getByRole('article', { name: 'Biotin Gummies' });
  await biotin.getByRole('button', { name: /Add to cart/ }).click();
  await page.getByRole('dialog').getByRole('link', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/checkout\/shipping$/);
  const shipping = page.getByRole('region', { name: 'Shipping address' });
  await shipping.getByLabel('Street address').fill('88 Alder Road');
  await shipping.getByLabel('City').fill('Bend');
  await shipping.getByLabel('State').selectOption('OR');
  await shipping.getByLabel('ZIP code').fill('97701');
  await shipping.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/checkout\/upsell$/);
  await page.getByRole('link', { name: 'No thanks, continue' }).click();
  await expect(page).toHaveURL(/\/checkout\/payment$/);

  const payment = page.getByRole('region', { name: 'Payment' });
  await typeCard(page, THREE_D_SECURE_ON_SETUP);
  await payment.getByRole('checkbox', { name: /I authorize Pairwell to charge my card/ }).check();
  await screens.checkAccessible();
  await screens.shot('stripe-checkout-payment');
  await clickBelowCardFrame(payment.getByRole('button', { name: 'Place order' }));
  // This card asks the bank twice at the page: when it is saved, and for the payment itself.
  await completeThreeDSecure(page);
  await completeThreeDSecure(page);

  await expect(page).toHaveURL(/\/checkout\/complete$/, { timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/Thank you|order/i);
  await screens.check('stripe-checkout-complete');
  expect(sent.join('\n')).not.toContain(THREE_D_SECURE_ON_SETUP);
  expect(unexpectedProblems(consoleProblems, [402])).toEqual([]);

  // Operations see the payment as Stripe has it: its id linked to the Dashboard, and Radar's risk.
  await staffLogIn(ops);
  await page.getByRole('searchbox', { name: 'Search' }).fill(customer.email);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.getByRole('link', { name: /PW-/ }).first().click();
  const processor = page.getByRole('region', { name: 'Payment processor' });
  await expect(processor.getByRole('link', { name: /^pi_/ })).toHaveAttribute(
    'href',
    /^https:\/\/dashboard\.stripe\.com\/test\/payments\/pi_/,
  );
  await expect(processor.getByText('Normal risk')).toBeVisible();
  await screens.check('stripe-staff-order');
});

/** Stripe's test card whose bank asks the customer to confirm every payment, renewals included. */
const AUTHENTICATES_EVERY_PAYMENT = '4000002760003184';

/**
 * The customer's subscriptions come due now: their billing date moved into the past in the Stripe
 * instance's own database, which its billing job (every 2 s there) then renews.
 */
async function billingDue(email: string): Promise<void> {
  const handle = await openDatabase({
    dataDir: process.env.E2E_STRIPE_DATA_DIR ?? '',
    ...(process.env.E2E_DATABASE_URL ? { databaseUrl: process.env.E2E_DATABASE_URL } : {}),
  });
  try {
    const customer = await handle.db
      .selectFrom('customers')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const yesterday = new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    await handle.db
      .updateTable('subscriptions')
      .set({ next_billing_date: yesterday })
      .where('customer_id', '=', customer.id)
      .where('status', '=', 'ACTIVE')
      .execute();
  } finally {
    await handle.close();
  }
}

test('a renewal the bank wants confirmed: "Confirm your payment" on Home, then the bank\'s page, then paid', async ({
  page,
  newCustomer,
  logIn,
  screens,
  consoleProblems,
}) => {
  const customer = await newCustomer('stripe-confirm');
  await logIn(customer);
  // A monthly subscription, paid with a card that asks every time (saved, then paid: twice).
  await page.goto('/shop');
  await page
    .getByRole('link', { name: /Sleep Gummies/ })
    .first()
    .click();
  await page.getByRole('radio', { name: /Monthly/ }).check();
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await page.getByRole('dialog').getByRole('link', { name: 'Checkout' }).click();
  const shipping = page.getByRole('region', { name: 'Shipping address' });
  await shipping.getByLabel('Street address').fill('88 Alder Road');
  await shipping.getByLabel('City').fill('Bend');
  await shipping.getByLabel('State').selectOption('OR');
  await shipping.getByLabel('ZIP code').fill('97701');
  await shipping.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('link', { name: 'No thanks, continue' }).click();
  await expect(page).toHaveURL(/\/checkout\/payment$/);
  const payment = page.getByRole('region', { name: 'Payment' });
  await typeCard(page, AUTHENTICATES_EVERY_PAYMENT);
  await payment.getByRole('checkbox', { name: /I authorize Pairwell to charge my card/ }).check();
  await clickBelowCardFrame(payment.getByRole('button', { name: 'Place order' }));
  await completeThreeDSecure(page);
  await completeThreeDSecure(page);
  await expect(page).toHaveURL(/\/checkout\/complete$/, { timeout: 30_000 });

  // A month on: the renewal, made while the customer is away, is refused until they confirm it.
  await billingDue(customer.email);
  const attention = page.getByRole('region', { name: 'Needs attention' });
  await expect(async () => {
    await page.goto('/dashboard');
    await expect(attention.getByRole('link', { name: 'Confirm your payment' })).toBeVisible({
      timeout: 1_000,
    });
  }).toPass();
  await expect(attention).toContainText('Your bank wants you to confirm the payment for order');
  await screens.check('stripe-confirm-home');

  await attention.getByRole('link', { name: 'Confirm your payment' }).click();
  await expect(page).toHaveURL(/\/accounts\/confirm-payment\?order=/);
  await expect(page.getByRole('heading', { level: 1, name: 'Confirm your payment' })).toBeVisible();
  await screens.check('stripe-confirm-page');
  await page.getByRole('button', { name: 'Confirm payment' }).click();
  await completeThreeDSecure(page);
  await expect(page.getByRole('status').filter({ hasText: 'Payment confirmed.' })).toBeVisible();
  await screens.check('stripe-confirm-paid');

  await page.goto('/dashboard');
  await expect(attention.getByRole('link', { name: 'Confirm your payment' })).toHaveCount(0);
  // 402: the bank asking, each time, before the customer confirmed.
  expect(unexpectedProblems(consoleProblems, [402])).toEqual([]);
});

test("a patient pays a visit in Stripe's card form, the hold waits, and the provider's approval takes it", async ({
  page,
  browser,
  newCustomer,
  logIn,
  staffLogIn,
  screens,
  consoleProblems,
}, testInfo) => {
  const patient = await newCustomer('stripe-visit');
  await logIn(patient);
  const visitId = await edVisitAtCheckout(page.request, patient.leadsId);
  await page.goto('/visit/ed/checkout');
  await expect(page.getByRole('heading', { name: 'Shipping and payment' })).toBeVisible();
  await page.getByLabel('Street address').fill('500 Market Street');
  await page.getByLabel('City').fill('Portland');
  await page.getByLabel('State').selectOption('OR');
  await page.getByLabel('ZIP code').fill('97204');
  await page.getByLabel('Phone').fill('5035550177');
  await typeCard(page, '4242424242424242');
  await page.getByRole('checkbox', { name: /charge my card \$30\.00/ }).check();
  await screens.check('stripe-visit-checkout');
  // A full-page picture leaves Stripe's frame out below the first screen: the card, as it is seen.
  await page.locator('iframe[title="Secure payment input frame"]').scrollIntoViewIfNeeded();
  await screens.windowShot('stripe-visit-card');
  await clickBelowCardFrame(page.getByRole('button', { name: 'Submit my visit' }));
  // Stripe's frame makes the payment method, then the server holds the amount: slower on a busy
  // machine than a page's own request.
  await expect(page).toHaveURL(/\/visit\/ed\/submitted$/, { timeout: 30_000 });
  await expect(page.getByText(/authorised, not yet charged/)).toBeVisible();
  await screens.check('stripe-visit-submitted');

  // The provider approves in a browser of their own: the held amount is taken.
  const staffContext = await browser.newContext({
    baseURL: stripeBaseURL,
    viewport: testInfo.project.use.viewport ?? { width: 1280, height: 800 },
  });
  const staff = await staffContext.newPage();
  const staffProblems = watchConsole(staff);
  await staffLogIn(provider, staff);
  await staff.goto(`/staff/visits/${visitId}`);
  await staff.getByRole('button', { name: 'Approve' }).click();
  const approve = staff.getByRole('dialog', { name: /Approve/ });
  await approve.getByLabel('Directions (sig)').fill('Take one tablet about an hour before.');
  await approve.getByRole('button', { name: 'Approve and prescribe' }).click();
  await expect(approve).toBeHidden();
  await expect(staff.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  expect(staffProblems).toEqual([]);
  await staffContext.close();

  await page.goto('/dashboard');
  const treatment = page.getByRole('region', { name: 'Your treatment' });
  await expect(treatment).toContainText('Approved');
  await screens.check('stripe-visit-approved');
  expect(consoleProblems).toEqual([]);
});
