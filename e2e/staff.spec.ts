import crypto from 'node:crypto';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { totpCode, totpStep } from '../src/server/lib/totp.ts';
import { expectAccessible, screenshot, watchConsole, freshTotpCode } from './helpers.ts';

/**
 * The staff console in a real browser at 375px and 1280px: its own log-in with the second factor,
 * the operations dashboard and an order shipped with a tracking number, the provider's page, and
 * the idle log-out. The orders worked on are a fresh customer's, so the demo stays as seeded.
 */

const ops = { email: 'ops@pairwell.test', password: 'pairwell-ops', secret: 'KVKFKRCPNZQUYMLX' };
const provider = {
  email: 'provider@pairwell.test',
  password: 'pairwell-provider',
  secret: 'JBSWY3DPEHPK3PXP',
};

/**
 * Each code works once and only a later step after it (no replay). Both viewports log the same
 * people in, possibly within one 30-second step, so the second uses the next step's code (the
 * server accepts one step of drift).
 */
function currentCode(secret: string): Promise<string> {
  return freshTotpCode(secret);
}

/** A six-digit code that is none of the ones the server would accept now. */
function wrongCode(secret: string): string {
  const step = totpStep(new Date());
  const valid = new Set([-1, 0, 1, 2].map((offset) => totpCode(secret, step + offset)));
  let code = '000000';
  while (valid.has(code)) code = String(Number(code) + 1).padStart(6, '0');
  return code;
}

/** 401 (a refused log-in) shows in the console as a failed request. */
function unexpected(problems: string[]): string[] {
  return problems.filter((problem) => !/status of 401 /.test(problem));
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

/**
 * A fresh customer's paid order of Sleep Gummies, waiting to be shipped, and their question about
 * it to the care team.
 */
async function placeOrder(request: APIRequestContext) {
  const email = `staff-${crypto.randomBytes(5).toString('hex')}@example.test`;
  const created = await request.post('/lapi/account/create/', {
    data: {
      email,
      first_name: 'Morgan',
      last_name: 'Blake',
      password: 'a long enough passphrase',
      dob: '09/09/1989',
      phoneNo: '5035550144',
      consent: true,
    },
  });
  expect(created.status()).toBe(200);
  await request.post('/lapi/v2/ecom/add-product', { data: { product_id: 40, quantity: 2 } });
  const placed = await request.post('/lapi/v2/ecom/place-order', {
    data: {
      idempotency_key: crypto.randomUUID(),
      shipping: {
        address: '18 Cedar Lane',
        address2: '',
        city: 'Salem',
        state: 'OR',
        zip: '97301',
        phoneNo: '5035550144',
      },
      billing: null,
      payment: { method: 'card', ccnum: '4242 4242 4242 4242', ccexp: '12/30', cccvv: '123' },
      consent: true,
    },
  });
  expect(placed.status(), await placed.text()).toBe(200);
  const order = ((await placed.json()) as { data: { order_number: string; orders_id: number } })
    .data;
  const leadsId = ((await created.json()) as { data: { leads_id: string } }).data.leads_id;
  const asked = await request.post('/lapi/messaging/send/', {
    data: { leads_id: leadsId, order_number: order.order_number, body: 'Could it come by Friday?' },
  });
  expect(asked.status(), await asked.text()).toBe(200);
  await request.post('/lapi/account/logout/', { data: {} });
  return { email, ...order };
}

async function fillLogin(page: Page, who: { email: string; password: string }, code: string) {
  await page.getByLabel('Work email').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByLabel('Authentication code').fill(code);
  await page.getByRole('button', { name: 'Log in' }).click();
}

test.describe('staff console', () => {
  test('operations log in with the second factor, find a paid order and ship it with a tracking number', async ({
    page,
    request,
  }, testInfo) => {
    const problems = watchConsole(page);
    const order = await placeOrder(request);

    await page.goto('/staff');
    await expect(page).toHaveURL(/\/staff\/login$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Staff log in' })).toBeVisible();
    await expect(page.getByLabel('Authentication code')).toHaveAttribute('inputmode', 'numeric');
    await expect(page.getByLabel('Authentication code')).toHaveAttribute(
      'autocomplete',
      'one-time-code',
    );
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(
      page.getByText('Enter the 6-digit code from your authenticator app'),
    ).toBeVisible();
    await checkAccessible(page);
    await shot(page, testInfo, 'staff-login');

    await fillLogin(page, ops, wrongCode(ops.secret));
    await expect(page.getByRole('alert')).toHaveText('The email, password or code is incorrect.');
    await expect(page.getByLabel('Authentication code')).toHaveValue('');

    await page.getByLabel('Authentication code').fill(await currentCode(ops.secret));
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/staff$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible();
    await expect(page.getByRole('banner').getByText('Sam Ortiz', { exact: true })).toBeVisible();
    await expect(page.getByRole('banner').getByText('Operations', { exact: true })).toBeVisible();
    await checkAccessible(page);
    await shot(page, testInfo, 'staff-orders');

    // Only shipped orders: the demo's shipped order is there, ours (paid, not shipped) is not.
    await page.getByLabel('Status').selectOption('SHIPPED');
    await expect(page).toHaveURL(/status=SHIPPED/);
    const list = page.getByRole('region', { name: /order/ });
    await expect(list.getByRole('link', { name: /PW-100103/ })).toBeVisible();
    await expect(list.getByRole('link', { name: new RegExp(order.order_number) })).toHaveCount(0);

    // Find the new order by the customer's e-mail, among the processing ones.
    await page.getByLabel('Status').selectOption('PROCESSING');
    await page.getByRole('searchbox', { name: 'Search' }).fill(order.email);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByText('1 order match')).toBeVisible();
    await checkAccessible(page);
    await list.getByRole('link', { name: new RegExp(order.order_number) }).click();

    await expect(page).toHaveURL(new RegExp(`/staff/orders/${order.orders_id}$`));
    await expect(
      page.getByRole('heading', { level: 1, name: `Order ${order.order_number}` }),
    ).toBeVisible();
    await expect(page.getByText('Morgan Blake')).toBeVisible();
    await expect(page.getByText('18 Cedar Lane')).toBeVisible();
    await expect(page.getByText('Not shipped yet')).toBeVisible();
    await checkAccessible(page);
    await shot(page, testInfo, 'staff-order');

    await page.getByRole('button', { name: 'Mark shipped' }).click();
    const dialog = page.getByRole('dialog', { name: `Ship order ${order.order_number}` });
    const tracking = `9400${String(Date.now()).slice(-10)}${testInfo.project.name === 'desktop' ? '22' : '11'}`;
    await dialog.getByLabel('Tracking number').fill('123');
    await dialog.getByRole('button', { name: 'Mark shipped' }).click();
    await expect(
      dialog.getByText('Enter a USPS tracking number (10 to 34 letters and digits)'),
    ).toBeVisible();
    await checkAccessible(page);
    await dialogShot(page, testInfo, 'staff-ship-dialog');
    await dialog.getByLabel('Tracking number').fill(tracking);
    await dialog.getByRole('button', { name: 'Mark shipped' }).click();
    await expect(dialog).toBeHidden();
    await expect(
      page.getByText('Marked shipped; the customer was e-mailed the tracking link.', {
        exact: true,
      }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: new RegExp(tracking) })).toHaveAttribute(
      'href',
      new RegExp(tracking),
    );
    await expect(page.getByRole('button', { name: 'Mark delivered' })).toBeVisible();
    await expect(page.getByText('Shipped', { exact: true }).first()).toBeVisible();

    // A refund offers what is left, in dollars; going back changes nothing.
    await page.getByRole('button', { name: /^Refund/ }).click();
    const refund = page.getByRole('dialog', { name: `Refund order ${order.order_number}` });
    await expect(refund.getByLabel('Amount (USD)')).toHaveValue('49.98');
    await expect(refund.getByRole('button', { name: 'Refund $49.98' })).toBeVisible();
    await checkAccessible(page);
    await dialogShot(page, testInfo, 'staff-refund-dialog');
    await refund.getByRole('button', { name: 'Go back' }).click();
    await expect(refund).toBeHidden();

    // Back to the list, which kept its filters; now it is among the shipped orders.
    await page.getByRole('link', { name: 'All orders' }).click();
    await expect(page).toHaveURL(/status=PROCESSING/);
    await page.getByLabel('Status').selectOption('SHIPPED');
    await expect(list.getByRole('link', { name: new RegExp(order.order_number) })).toBeVisible();
    await expect(list).toContainText(testInfo.project.name === 'desktop' ? tracking : 'Shipped');
    await shot(page, testInfo, 'staff-orders-shipped');

    // The customer's question about the order waits in the care team's inbox; answer it.
    await page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'Inbox' })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'Inbox' })).toBeVisible();
    const question = page.getByRole('link', { name: new RegExp(`Order ${order.order_number}`) });
    await expect(question).toContainText('1 new');
    await expect(question).toContainText('Morgan B.');
    await checkAccessible(page);
    await shot(page, testInfo, 'staff-inbox');
    await question.click();
    await expect(
      page.getByRole('heading', { level: 1, name: `Order ${order.order_number}` }),
    ).toBeVisible();
    await expect(page.getByText('Could it come by Friday?')).toBeVisible();
    await page
      .getByLabel('Answer to the patient')
      .fill('It shipped today: the tracking link is on your order.');
    await page.getByRole('button', { name: 'Send answer' }).click();
    await expect(
      page.getByRole('log').getByText('It shipped today: the tracking link is on your order.'),
    ).toBeVisible();
    await checkAccessible(page);
    await shot(page, testInfo, 'staff-inbox-thread');
    await page.getByRole('link', { name: 'Inbox', exact: true }).first().click();
    await expect(
      page.getByRole('link', { name: new RegExp(`Order ${order.order_number}`) }),
    ).toContainText('Answered');

    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/staff\/login$/);
    await page.goto('/staff');
    await expect(page).toHaveURL(/\/staff\/login$/);
    expect(unexpected(problems)).toEqual([]);
  });

  test('a provider sees the review queue, and is logged out after 15 idle minutes', async ({
    page,
  }, testInfo) => {
    const problems = watchConsole(page);
    await page.clock.install();
    await page.goto('/staff/login');
    await fillLogin(page, provider, await currentCode(provider.secret));
    await expect(page).toHaveURL(/\/staff$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Review queue' })).toBeVisible();
    await expect(page.getByRole('banner').getByText('Provider', { exact: true })).toBeVisible();
    await checkAccessible(page);
    await shot(page, testInfo, 'staff-provider');

    await page.clock.fastForward('15:01');
    await expect(page).toHaveURL(/\/staff\/login$/);
    await expect(
      page.getByText('Logged out after 15 minutes without activity', { exact: true }),
    ).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Staff log in' })).toBeVisible();
    const me = await page.request.post('/lapi/staff/me/', { data: {} });
    expect(((await me.json()) as { data: { authenticated: boolean } }).data.authenticated).toBe(
      false,
    );
    expect(unexpected(problems)).toEqual([]);
  });
});
