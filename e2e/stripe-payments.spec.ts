import type { FrameLocator, Page } from '@playwright/test';
import { expect, ops, stripeBaseURL, test, unexpectedProblems } from './fixtures.ts';

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

/** The bank's 3-D Secure page over ours: completed, and gone. */
async function completeThreeDSecure(page: Page): Promise<void> {
  const challenge = page.frameLocator('iframe[title="3D Secure authentication"]');
  await challenge.getByRole('button', { name: 'Complete' }).click();
  await expect(page.locator('iframe[title="3D Secure authentication"]')).toHaveCount(0);
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

  await page.getByRole('button', { name: 'Save card' }).click();
  await expect(page.getByText('Continue your payment by checking the box above')).toBeVisible();

  await typeCard(page, THREE_D_SECURE_ON_SETUP);
  await page.getByRole('checkbox', { name: /I authorize Pairwell to charge this card/ }).check();
  await screens.checkAccessible();
  await screens.shot('stripe-card-form');
  await page.getByRole('button', { name: 'Save card' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await screens.windowShot('stripe-card-3ds');
  await completeThreeDSecure(page);

  await expect(page.getByText('Payment method updated', { exact: true })).toBeVisible();
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
  await payment.getByRole('button', { name: 'Place order' }).click();
  // This card asks the bank twice at the page: when it is saved, and for the payment itself.
  await completeThreeDSecure(page);
  await completeThreeDSecure(page);

  await expect(page).toHaveURL(/\/checkout\/complete$/);
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
