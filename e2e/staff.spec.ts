import type { APIRequestContext } from '@playwright/test';
import {
  createCustomer,
  expect,
  nextTotpCode,
  logOutThroughApi,
  ops,
  placeOrderThroughApi,
  provider,
  submitStaffLogIn,
  test,
  unexpectedProblems,
  wrongTotpCode,
  type PlacedOrder,
} from './fixtures.ts';
import { offers } from '../src/shared/catalog.ts';

/**
 * The staff console in a real browser at 375px and 1280px: its own log-in with the second factor,
 * the operations dashboard and an order shipped with a tracking number, the provider's page, and
 * the idle log-out. The orders worked on are a fresh customer's, so the demo stays as seeded.
 */

/** 401 (a refused log-in) shows in the console as a failed request. */
const refusals = [401];

/**
 * A fresh customer's paid order of Sleep Gummies, waiting to be shipped, and their question about
 * it to the care team.
 */
async function placeOrder(request: APIRequestContext): Promise<PlacedOrder & { email: string }> {
  const customer = await createCustomer(request, 'staff', {
    firstName: 'Morgan',
    lastName: 'Blake',
    dob: '09/09/1989',
    phone: '5035550144',
  });
  const order = await placeOrderThroughApi(
    request,
    { productId: offers.sleep.oneTime, quantity: 2 },
    {
      address: '18 Cedar Lane',
      address2: '',
      city: 'Salem',
      state: 'OR',
      zip: '97301',
      phoneNo: '5035550144',
    },
  );
  const asked = await request.post('/lapi/messaging/send/', {
    data: {
      leads_id: customer.leadsId,
      order_number: order.order_number,
      body: 'Could it come by Friday?',
    },
  });
  expect(asked.status(), await asked.text()).toBe(200);
  await logOutThroughApi(request);
  return { email: customer.email, ...order };
}

test.describe('staff console', () => {
  test('operations log in with the second factor, find a paid order and ship it with a tracking number', async ({
    page,
    request,
    consoleProblems: problems,
    screens,
  }, testInfo) => {
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
    await screens.checkAccessible();
    await screens.shot('staff-login');

    await submitStaffLogIn(page, ops, wrongTotpCode(ops.secret));
    await expect(page.getByRole('alert')).toHaveText('The email, password or code is incorrect.');
    await expect(page.getByLabel('Authentication code')).toHaveValue('');

    // Each code works once: nextTotpCode takes a step no log-in has used.
    await page.getByLabel('Authentication code').fill(await nextTotpCode(ops.secret));
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/staff$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible();
    await expect(page.getByRole('banner').getByText('Sam Ortiz', { exact: true })).toBeVisible();
    await expect(page.getByRole('banner').getByText('Operations', { exact: true })).toBeVisible();
    await screens.checkAccessible();
    await screens.shot('staff-orders');

    // Only shipped orders: the demo's shipped order is there, ours (paid, not shipped) is not.
    await page.getByLabel('Status').selectOption('SHIPPED');
    await expect(page).toHaveURL(/status=SHIPPED/);
    const list = page.getByRole('region', { name: /order/ });
    await expect(list.getByRole('link', { name: /PW-100103/ })).toBeVisible();
    await expect(list.getByRole('link', { name: new RegExp(order.order_number) })).toHaveCount(0);

    // Find the new order by the customer's email, among the processing ones.
    await page.getByLabel('Status').selectOption('PROCESSING');
    await page.getByRole('searchbox', { name: 'Search' }).fill(order.email);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByText('1 order match')).toBeVisible();
    await screens.checkAccessible();
    await list.getByRole('link', { name: new RegExp(order.order_number) }).click();

    await expect(page).toHaveURL(new RegExp(`/staff/orders/${order.orders_id}$`));
    await expect(
      page.getByRole('heading', { level: 1, name: `Order ${order.order_number}` }),
    ).toBeVisible();
    await expect(page.getByText('Morgan Blake')).toBeVisible();
    await expect(page.getByText('18 Cedar Lane')).toBeVisible();
    await expect(page.getByText('Not shipped yet')).toBeVisible();
    await screens.checkAccessible();
    await screens.shot('staff-order');

    await page.getByRole('button', { name: 'Mark shipped' }).click();
    const dialog = page.getByRole('dialog', { name: `Ship order ${order.order_number}` });
    const tracking = `9400${String(Date.now()).slice(-10)}${testInfo.project.name === 'desktop' ? '22' : '11'}`;
    await dialog.getByLabel('Tracking number').fill('123');
    await dialog.getByRole('button', { name: 'Mark shipped' }).click();
    await expect(
      dialog.getByText('Enter a USPS tracking number (10 to 34 letters and digits)'),
    ).toBeVisible();
    await screens.checkAccessible();
    await screens.windowShot('staff-ship-dialog');
    await dialog.getByLabel('Tracking number').fill(tracking);
    await dialog.getByRole('button', { name: 'Mark shipped' }).click();
    await expect(dialog).toBeHidden();
    await expect(
      page.getByText('Marked shipped; the customer was emailed the tracking link.', {
        exact: true,
      }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: new RegExp(tracking) })).toHaveAttribute(
      'href',
      new RegExp(tracking),
    );
    await expect(page.getByRole('button', { name: 'Mark delivered' })).toBeVisible();
    await expect(page.getByText('Shipped', { exact: true }).first()).toBeVisible();

    // A refund asks for an amount (up to what is left, in dollars) and a reason, nothing
    // pre-filled; going back changes nothing.
    await page.getByRole('button', { name: /^Refund/ }).click();
    const refund = page.getByRole('dialog', { name: `Refund order ${order.order_number}` });
    await expect(refund).toContainText('$49.98 of $49.98 is left to refund');
    await expect(refund.getByLabel('Amount (USD)')).toHaveValue('');
    await refund.getByLabel('Amount (USD)').fill('49.98');
    await refund.getByLabel(/Reason/).fill('Arrived damaged');
    await expect(refund.getByRole('button', { name: 'Refund $49.98' })).toBeVisible();
    await screens.checkAccessible();
    await screens.windowShot('staff-refund-dialog');
    await refund.getByRole('button', { name: 'Go back' }).click();
    await expect(refund).toBeHidden();

    // Back to the list, which kept its filters; now it is among the shipped orders.
    await page.getByRole('link', { name: 'All orders' }).click();
    await expect(page).toHaveURL(/status=PROCESSING/);
    await page.getByLabel('Status').selectOption('SHIPPED');
    await expect(list.getByRole('link', { name: new RegExp(order.order_number) })).toBeVisible();
    await expect(list).toContainText(testInfo.project.name === 'desktop' ? tracking : 'Shipped');
    await screens.shot('staff-orders-shipped');

    // The customer's question about the order waits in the care team's inbox; answer it.
    await page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'Inbox' })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'Inbox' })).toBeVisible();
    const question = page.getByRole('link', { name: new RegExp(`Order ${order.order_number}`) });
    await expect(question).toContainText('1 new');
    await expect(question).toContainText('Morgan B.');
    await screens.checkAccessible();
    await screens.shot('staff-inbox');
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
    await screens.checkAccessible();
    await screens.shot('staff-inbox-thread');
    await page.getByRole('link', { name: 'Inbox', exact: true }).first().click();
    await expect(
      page.getByRole('link', { name: new RegExp(`Order ${order.order_number}`) }),
    ).toContainText('Answered');

    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/staff\/login$/);
    await page.goto('/staff');
    await expect(page).toHaveURL(/\/staff\/login$/);
    expect(unexpectedProblems(problems, refusals)).toEqual([]);
  });

  test('a provider sees the review queue, and is logged out after 15 idle minutes', async ({
    page,
    consoleProblems: problems,
    screens,
    staffLogIn,
  }) => {
    await page.clock.install();
    await staffLogIn(provider);
    await expect(page.getByRole('banner').getByText('Provider', { exact: true })).toBeVisible();
    await screens.checkAccessible();
    await screens.shot('staff-provider');

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
    expect(unexpectedProblems(problems, refusals)).toEqual([]);
  });
});
