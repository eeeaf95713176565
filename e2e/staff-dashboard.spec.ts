import type { Locator, Page } from '@playwright/test';
import { formatCents } from '../src/shared/money.ts';
import { createCustomer, expect, ops, placeOrderThroughApi, test } from './fixtures.ts';
import { submitEdVisit } from './visit-helpers.ts';
import { offers } from '../src/shared/catalog.ts';

/**
 * The operator's dashboard (issue 15) in a real browser at 375px and 1280px: operations staff
 * open it from the console's navigation, its figures match the demo data (a store order of
 * $67.48 twelve days ago, a renewal that failed three days ago), a visit submitted now waits
 * within the review target, and a store order placed now shows today at once. The journey's own
 * visit and order are fresh customers', so the demo stays as seeded.
 */

const DAY_MS = 24 * 60 * 60_000;

/** 'Nov 9': a UTC day as the charts' tables name it, `daysAgo` days before today. */
const dayLabel = (daysAgo: number) =>
  new Date(Date.now() - daysAgo * DAY_MS).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });

/** A chart's table row for a day: its cells' text (the table opens under "Figures by day"). */
async function rowOf(page: Page, chart: string, daysAgo: number): Promise<Locator> {
  const figure = page.getByRole('figure', { name: chart });
  const summary = figure.locator('summary', { hasText: 'Figures by day' });
  if (!(await figure.locator('details').evaluate((d: HTMLDetailsElement) => d.open)))
    await summary.click();
  return figure
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: dayLabel(daysAgo), exact: true }) });
}

const cents = (money: string) => Math.round(Number(money.replace(/[$,]/g, '')) * 100);

test("operations staff read the last 30 days on the console's dashboard", async ({
  page,
  request,
  screens,
  staffLogIn,
}) => {
  // A patient submits a visit now: it waits for a provider, well within the review target.
  const patient = await createCustomer(request, 'dashboard-visit');
  await submitEdVisit(request, patient.leadsId);

  await staffLogIn(ops);
  await page
    .getByRole('navigation', { name: 'Console' })
    .getByRole('link', { name: 'Dashboard' })
    .click();
  await expect(page).toHaveURL(/\/staff\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Store orders per day' })).toBeVisible();
  const waiting = page.getByRole('region', { name: 'Visits waiting for review' });
  await expect(waiting).toContainText(/\d+ visits? waiting; \d+ past the 24-hour target\./);
  await expect(
    waiting.getByRole('listitem').filter({ hasText: 'Within target' }).first(),
  ).toBeVisible();
  await screens.check('staff-dashboard');

  // The demo's shipped store order, twelve days ago: one order of 2 × $24.99 + $17.50.
  await expect((await rowOf(page, 'Store orders per day', 12)).getByRole('cell')).toHaveText(['1']);
  await expect((await rowOf(page, 'Revenue per day', 12)).getByRole('cell')).toHaveText(['$67.48']);
  // A day with nothing reads as nothing.
  await expect((await rowOf(page, 'Store orders per day', 20)).getByRole('cell')).toHaveText(['0']);
  // The demo's Biotin renewal failed at its first charge three days ago and is still unpaid.
  await expect(
    (await rowOf(page, 'Failed renewals and recoveries', 3)).getByRole('cell'),
  ).toHaveText(['0', '1']);
  const figures = page.getByRole('region', { name: 'The 30 days in figures' });
  await expect(figures.getByText('Renewals unpaid now', { exact: true })).toBeVisible();

  // Today's orders as they stand (other journeys may have placed some), then one more: 2 × $24.99.
  const today = {
    orders: Number(
      await (await rowOf(page, 'Store orders per day', 0)).getByRole('cell').textContent(),
    ),
    revenue: cents(
      (await (await rowOf(page, 'Revenue per day', 0)).getByRole('cell').textContent()) ?? '',
    ),
  };
  await createCustomer(request, 'dashboard');
  await placeOrderThroughApi(request, { productId: offers.sleep.oneTime, quantity: 2 });
  await page.reload();
  await expect((await rowOf(page, 'Store orders per day', 0)).getByRole('cell')).toHaveText([
    String(today.orders + 1),
  ]);
  await expect((await rowOf(page, 'Revenue per day', 0)).getByRole('cell')).toHaveText([
    formatCents(today.revenue + 4998),
  ]);
  // The tables open, as a screen reader reads them: still nothing axe objects to.
  await screens.checkAccessible();
  await screens.shot('staff-dashboard-figures');
});
