import crypto from 'node:crypto';
import path from 'node:path';
import { format, parseISO } from 'date-fns';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { nextBillingDate } from '../src/shared/subscriptions.ts';
import { expectAccessible, screenshot, watchConsole, accountNav } from './helpers.ts';

/**
 * The Subscriptions page in a real browser at 375px and 1280px. The demo customer's page is only
 * looked at (other journeys expect its subscriptions as seeded); the changes are made by a fresh
 * customer who has just bought Sleep Gummies monthly.
 */

const demo = { email: 'demo@pairwell.test', password: 'pairwell-demo' };

/** Declined payments of the demo's past orders show in the console as failed requests. */
function unexpected(problems: string[]): string[] {
  return problems.filter((problem) => !/status of 40[12] /.test(problem));
}

/**
 * axe, once the toasts have gone: a toast caught fading out reads as low contrast. (Their words
 * are checked where they appear.)
 */
async function checkAccessible(page: Page) {
  await expect(page.getByRole('button', { name: 'Dismiss notification' })).toHaveCount(0, {
    timeout: 15_000,
  });
  await expectAccessible(page);
}

async function shot(page: Page, testInfo: TestInfo, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, testInfo, name);
}

/** A dialog is drawn over the viewport: the picture is of the viewport, not the whole page. */
async function dialogShot(page: Page, testInfo: TestInfo, name: string) {
  await page.screenshot({
    path: path.resolve('e2e/screenshots', `${name}-${testInfo.project.name}.png`),
  });
}

async function logIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  const form = page
    .locator('main form')
    .filter({ has: page.getByLabel('Password', { exact: true }) });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** 'MMM dd, yyyy' (spec §9) of a 'YYYY-MM-DD'. */
const medium = (iso: string) => format(parseISO(iso), 'MMM dd, yyyy');

/** A new customer who buys Sleep Gummies monthly through the API, then logs in in the browser. */
async function newSubscriber(page: Page): Promise<string> {
  const email = `subs-${crypto.randomBytes(5).toString('hex')}@example.test`;
  const password = 'a long enough passphrase';
  const created = await page.request.post('/lapi/account/create/', {
    data: {
      email,
      first_name: 'Alex',
      last_name: 'Moreno',
      password,
      dob: '05/20/1986',
      phoneNo: '5035550123',
      consent: true,
    },
  });
  expect(created.status()).toBe(200);
  const added = await page.request.post('/lapi/v2/ecom/add-product', {
    data: { product_id: 41, quantity: 1 },
  });
  expect(added.status()).toBe(200);
  const placed = await page.request.post('/lapi/v2/ecom/place-order', {
    data: {
      idempotency_key: crypto.randomUUID(),
      shipping: {
        address: '500 Market Street',
        address2: '',
        city: 'Portland',
        state: 'OR',
        zip: '97204',
        phoneNo: '5035550199',
      },
      billing: null,
      payment: { method: 'card', ccnum: '4242 4242 4242 4242', ccexp: '12/30', cccvv: '123' },
      consent: true,
    },
  });
  expect(placed.status(), await placed.text()).toBe(200);
  expect(((await placed.json()) as { data: { subscriptions: number } }).data.subscriptions).toBe(1);
  await page.request.post('/lapi/account/logout/', { data: {} });
  await logIn(page, email, password);
  return email;
}

test.describe('subscriptions', () => {
  test('the demo customer sees an active and a past-due subscription', async ({
    page,
  }, testInfo) => {
    const problems = watchConsole(page);
    await logIn(page, demo.email, demo.password);
    await (await accountNav(page, testInfo)).getByRole('link', { name: 'Subscriptions' }).click();
    await expect(page).toHaveURL(/\/subscriptions$/);
    await expect(page).toHaveTitle('Subscriptions — Pairwell');

    const sleep = page.getByRole('article', { name: 'Sleep Gummies' });
    await expect(sleep.getByText('$17.50/month')).toBeVisible();
    await expect(sleep.getByText('Active', { exact: true })).toBeVisible();
    await expect(sleep.getByText(/Visa/)).toContainText('0341');
    await expect(sleep.getByRole('link', { name: 'Change card' })).toHaveAttribute(
      'href',
      '/accounts/editPaymentMethod',
    );

    const biotin = page.getByRole('article', { name: 'Biotin Gummies' });
    await expect(biotin.getByText('Payment due', { exact: true })).toBeVisible();
    await expect(
      biotin.getByText(
        'We were unable to process this order using the provided payment information. Please update your credit card details to resolve this issue.',
      ),
    ).toBeVisible();
    await expect(biotin.getByRole('link', { name: 'Update payment method' })).toHaveAttribute(
      'href',
      '/accounts/editPaymentMethod',
    );
    await checkAccessible(page);
    await shot(page, testInfo, 'subscriptions-demo');

    // The confirmation is only looked at here: 'Keep as is' leaves the demo as seeded.
    await sleep.getByRole('button', { name: 'Switch to quarterly' }).click();
    const dialog = page.getByRole('dialog', { name: 'Switch to quarterly deliveries' });
    await expect(dialog.getByRole('heading', { name: 'Review your change' })).toBeFocused();
    await expect(dialog.getByText('$45.00/quarterly')).toBeVisible();
    await checkAccessible(page);
    await dialogShot(page, testInfo, 'subscriptions-confirm');
    await dialog.getByRole('button', { name: 'Keep as is' }).click();
    await expect(dialog).toBeHidden();
    await expect(sleep.getByText('$17.50/month')).toBeVisible();
    expect(unexpected(problems)).toEqual([]);
  });

  test('a subscriber switches to quarterly and skips a delivery, seeing the new price and date at once', async ({
    page,
  }, testInfo) => {
    const problems = watchConsole(page);
    await newSubscriber(page);
    await page.goto('/subscriptions');
    const card = page.getByRole('article', { name: 'Sleep Gummies' });
    await expect(card.getByText('$17.50/month')).toBeVisible();

    const today = new Date().toISOString().slice(0, 10);
    const anchor = Number(today.slice(8, 10));
    const next = nextBillingDate(today, 'MONTHLY', anchor);
    await expect(card).toContainText(medium(next));
    await expect(card.getByText(/Visa/)).toContainText('4242');

    // Monthly → quarterly: the confirmation shows the new price and the next date.
    await card.getByRole('button', { name: 'Switch to quarterly' }).click();
    let dialog = page.getByRole('dialog', { name: 'Switch to quarterly deliveries' });
    await expect(dialog.getByRole('heading', { name: 'Review your change' })).toBeVisible();
    await expect(dialog).toContainText('$17.50/month');
    await expect(dialog).toContainText('$45.00/quarterly');
    await expect(dialog).toContainText(medium(next));
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(dialog).toBeHidden();
    await expect(
      page.getByText('Your subscription now ships every quarter.', { exact: true }),
    ).toBeVisible();
    await expect(card.getByText('$45.00/quarterly')).toBeVisible();
    await expect(card.getByText('Every 3 months', { exact: false })).toBeVisible();
    await expect(card.getByRole('button', { name: 'Switch to monthly' })).toBeVisible();
    // A toast is dismissed with its button.

    // Skip: the next date moves one quarter on.
    const skipped = nextBillingDate(next, 'QUARTERLY', anchor);
    await card.getByRole('button', { name: 'Skip next delivery' }).click();
    dialog = page.getByRole('dialog', { name: 'Skip your next delivery' });
    await expect(dialog.getByRole('heading', { name: 'Review your change' })).toBeVisible();
    await expect(dialog).toContainText(medium(skipped));
    await checkAccessible(page);
    await dialogShot(page, testInfo, 'subscriptions-skip-confirm');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Your next delivery was skipped.', { exact: true })).toBeVisible();
    await expect(card).toContainText(medium(skipped));

    // A change that needs input: the date is asked for first, then previewed.
    await card.getByRole('button', { name: 'Pause' }).click();
    dialog = page.getByRole('dialog', { name: 'Pause your subscription' });
    await dialog.getByRole('button', { name: 'Review change' }).click();
    await expect(dialog.getByText('Choose a date')).toBeVisible();
    await checkAccessible(page);
    await dialogShot(page, testInfo, 'subscriptions-pause-input');
    await dialog.getByRole('button', { name: 'Keep as is' }).click();
    await expect(dialog).toBeHidden();

    await checkAccessible(page);
    await shot(page, testInfo, 'subscriptions-changed');

    // Cancel needs a reason; a cancelled subscription can be reactivated.
    await card.getByRole('button', { name: 'Cancel subscription' }).click();
    dialog = page.getByRole('dialog', { name: 'Cancel your subscription' });
    await dialog.getByRole('button', { name: 'Review change' }).click();
    await expect(dialog.getByText('Tell us why you are cancelling')).toBeVisible();
    await dialog.getByLabel('Why are you cancelling?').selectOption('Other');
    await dialog.getByLabel('Anything else you’d like us to know?').fill('Moving abroad');
    await checkAccessible(page);
    await dialogShot(page, testInfo, 'subscriptions-cancel-input');
    await dialog.getByRole('button', { name: 'Review change' }).click();
    await expect(
      dialog.getByText('No more deliveries or charges.', { exact: false }),
    ).toBeVisible();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(dialog).toBeHidden();
    await expect(card.getByText('Cancelled', { exact: true })).toBeVisible();
    await expect(card).toContainText('Moving abroad');
    await card.getByRole('button', { name: 'Reactivate' }).click();
    dialog = page.getByRole('dialog', { name: 'Reactivate your subscription' });
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(dialog).toBeHidden();
    await expect(card.getByText('Active', { exact: true })).toBeVisible();
    await expect(card.getByText('$45.00/quarterly')).toBeVisible();
    expect(unexpected(problems)).toEqual([]);
  });

  test('a customer without subscriptions is invited to the shop', async ({ page }, testInfo) => {
    const email = `nosubs-${crypto.randomBytes(5).toString('hex')}@example.test`;
    const created = await page.request.post('/lapi/account/create/', {
      data: {
        email,
        first_name: 'Jamie',
        last_name: 'Ng',
        password: 'a long enough passphrase',
        dob: '02/11/1990',
        phoneNo: '5035550177',
        consent: true,
      },
    });
    expect(created.status()).toBe(200);
    await page.request.post('/lapi/account/logout/', { data: {} });
    await logIn(page, email, 'a long enough passphrase');
    await page.goto('/subscriptions');
    await expect(page.getByRole('heading', { name: 'No subscriptions yet' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Shop supplements' })).toHaveAttribute(
      'href',
      '/shop',
    );
    await checkAccessible(page);
    await shot(page, testInfo, 'subscriptions-empty');
  });
});
