// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { dashboardApi, type Dashboard, type DashboardDay } from '#shared/dashboard.ts';
import { operationsApi } from '#shared/operations.ts';
import { reviewsApi } from '#shared/reviews.ts';
import { messages } from '#shared/wording.ts';
import { clearToasts } from '#client/components/ui/toast.tsx';
import { failure, renderRoutes, stub, stubApi } from '#client/testing/render-app.tsx';
import { loggedIn, ops, provider } from '#client/testing/staff-fixtures.ts';
import { StaffLayout } from '#client/features/staff/components/staff-layout.tsx';
import { StaffHomePage } from '#client/features/staff/pages/staff-home-page.tsx';
import { niceCeiling } from './components/daily-bars.tsx';
import { StaffDashboardPage } from './pages/staff-dashboard-page.tsx';

const routes: RouteObject[] = [
  {
    element: <StaffLayout />,
    children: [
      { path: '/staff', element: <StaffHomePage /> },
      { path: '/staff/dashboard', element: <StaffDashboardPage /> },
    ],
  },
];

const zero = {
  orders: 0,
  revenue_cents: 0,
  started: 0,
  cancelled: 0,
  failed: 0,
  recovered: 0,
  recovered_cents: 0,
};
const busy: Record<string, Partial<DashboardDay>> = {
  '2026-10-23': { orders: 1, revenue_cents: 2499 },
  '2026-11-10': { failed: 2 },
  '2026-11-11': { recovered: 1, recovered_cents: 1750 },
  '2026-11-19': { orders: 2, revenue_cents: 7497, started: 1 },
  '2026-11-20': { cancelled: 1 },
};
const days: DashboardDay[] = Array.from({ length: 30 }, (_, i) => {
  const day = new Date(Date.UTC(2026, 9, 23 + i)).toISOString().slice(0, 10);
  return { day, ...zero, ...busy[day] };
});

const figures: Dashboard = {
  generated_at: '2026-11-21T12:00:00.000Z',
  from: '2026-10-23',
  to: '2026-11-21',
  days,
  totals: {
    orders: 3,
    revenue_cents: 9996,
    refunded_cents: 500,
    started: 1,
    cancelled: 1,
    failed: 2,
    recovered: 1,
    recovered_cents: 1750,
  },
  subscriptions: {
    active: 12,
    past_due: 1,
    paused: 2,
    churn: { open_at_start: 12, cancelled_since: 1 },
  },
  payments: { unpaid: 1, unpaid_cents: 1750 },
  visits: {
    target_hours: 24,
    waiting: 2,
    over_target: 1,
    oldest: [
      { submitted_at: '2026-11-19T10:00:00.000Z', waited_minutes: 3000 },
      { submitted_at: '2026-11-21T09:30:00.000Z', waited_minutes: 150 },
    ],
  },
};

afterEach(() => {
  cleanup();
  clearToasts();
});

/** The figure (chart) or section named `name`. */
const chart = (name: string) => screen.getByRole('figure', { name });

/** A chart's table, row by row, as a screen reader reads it. */
const rowsOf = (figure: HTMLElement) =>
  within(figure)
    .getAllByRole('row')
    .map((row) => Array.from(row.querySelectorAll('th, td'), (cell) => cell.textContent));

describe("the operator's dashboard", () => {
  it('is reached from the console navigation and says the 30 days in figures', async () => {
    const u = userEvent.setup();
    const api = stubApi([
      loggedIn(ops),
      stub(operationsApi.orders, { orders: [] }),
      stub(operationsApi.coverage, { states: [], expiring_licences: [] }),
      stub(dashboardApi.summary, figures),
    ]);
    renderRoutes(routes, { path: '/staff' });
    await u.click(await screen.findByRole('link', { name: 'Dashboard' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeTruthy();
    expect(document.title).toBe('Dashboard — Pairwell Staff');
    expect(screen.getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(
      await screen.findByText('The last 30 days, Oct 23 to Nov 21, 2026 (days in UTC).'),
    ).toBeTruthy();
    expect(api.callsTo(dashboardApi.summary)[0]).toEqual({});

    const list = within(screen.getByRole('region', { name: 'The 30 days in figures' }));
    const figure = (term: string) =>
      Array.from(
        list.getByText(term).parentElement?.querySelectorAll('dd') ?? [],
        (dd) => dd.textContent,
      );
    expect(figure('Store orders')).toEqual(['3']);
    expect(figure('Revenue')).toEqual(['$99.96', '$5.00 refunded since']);
    expect(figure('Active subscriptions')).toEqual(['12', '1 past due, 2 paused']);
    expect(figure('Cancellations')).toEqual(['1', '1 subscription started; 8.3% churn']);
    expect(figure('Visits waiting')).toEqual(['2', '1 past the 24-hour target']);
    expect(figure('Failed renewals')).toEqual(['2']);
    expect(figure('Recovered renewals')).toEqual(['1', '$17.50']);
    expect(figure('Renewals unpaid now')).toEqual(['1', '$17.50 owed']);
  });

  it('gives every chart a text alternative: a summary and a table of every day, zeros included', async () => {
    stubApi([loggedIn(ops), stub(dashboardApi.summary, figures)]);
    renderRoutes(routes, { path: '/staff/dashboard' });
    const orders = await screen.findByRole('figure', { name: 'Store orders per day' });
    expect(orders.textContent).toContain(
      '3 paid store orders in 30 days (renewals and visits not included).',
    );
    const orderRows = rowsOf(orders);
    expect(orderRows).toHaveLength(31);
    expect(orderRows[0]).toEqual(['Day', 'Orders']);
    expect(orderRows[1]).toEqual(['Oct 23', '1']);
    expect(orderRows[2]).toEqual(['Oct 24', '0']);
    expect(orderRows[28]).toEqual(['Nov 19', '2']);
    expect(rowsOf(chart('Revenue per day'))[28]).toEqual(['Nov 19', '$74.97']);

    const churn = chart('Subscriptions started and cancelled');
    expect(churn.textContent).toContain('1 started and 1 cancelled in 30 days; 12 active now.');
    expect(churn.textContent).toMatch(
      /Of the 12 supplement subscriptions open on [A-Z][a-z]{2} \d+, 1 cancelled since\./,
    );
    expect(rowsOf(churn)[0]).toEqual(['Day', 'Started', 'Cancelled']);
    expect(rowsOf(churn)[29]).toEqual(['Nov 20', '0', '1']);

    const payments = chart('Failed renewals and recoveries');
    expect(rowsOf(payments)[0]).toEqual(['Day', 'Recovered', 'Failed']);
    expect(rowsOf(payments)[19]).toEqual(['Nov 10', '0', '2']);
    expect(rowsOf(payments)[20]).toEqual(['Nov 11', '1', '0']);

    // The bars are drawn for the eye only; the words and tables are what is read.
    for (const svg of document.querySelectorAll('svg'))
      expect(svg.closest('[aria-hidden="true"]')).not.toBeNull();
  });

  it('shows each waiting visit against the review target, in words as well as by colour', async () => {
    stubApi([loggedIn(ops), stub(dashboardApi.summary, figures)]);
    renderRoutes(routes, { path: '/staff/dashboard' });
    const waiting = await screen.findByRole('region', { name: 'Visits waiting for review' });
    expect(waiting.textContent).toContain(
      '2 visits waiting; 1 past the 24-hour target. The oldest has waited 2 d 2 h.',
    );
    expect(
      within(waiting)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Waited 2 d 2 hPast target', 'Waited 2 h 30 minWithin target']);
  });

  it('says when nothing is waiting, and days with nothing read as zeros', async () => {
    stubApi([
      loggedIn(ops),
      stub(dashboardApi.summary, {
        ...figures,
        days: days.map((d) => ({ ...d, ...zero })),
        totals: { ...figures.totals, orders: 0, revenue_cents: 0, refunded_cents: 0 },
        visits: { target_hours: 24, waiting: 0, over_target: 0, oldest: [] },
      }),
    ]);
    renderRoutes(routes, { path: '/staff/dashboard' });
    const waiting = await screen.findByRole('region', { name: 'Visits waiting for review' });
    expect(waiting.textContent).toContain(
      'No visit is waiting. The target is a decision within 24 hours.',
    );
    expect(within(waiting).queryByRole('listitem')).toBeNull();
    const orders = chart('Store orders per day');
    expect(orders.textContent).toContain('0 paid store orders in 30 days');
    expect(
      rowsOf(orders)
        .slice(1)
        .every((row) => row[1] === '0'),
    ).toBe(true);
    expect(orders.querySelectorAll('rect')).toHaveLength(0);
  });

  it('shows why it could not load, with Try again', async () => {
    const u = userEvent.setup();
    let attempts = 0;
    stubApi([
      loggedIn(ops),
      stub(dashboardApi.summary, () =>
        ++attempts === 1
          ? failure(503, 'UNAVAILABLE', 'The service is busy. Please try again.')
          : figures,
      ),
    ]);
    renderRoutes(routes, { path: '/staff/dashboard' });
    expect(await screen.findByText(messages.somethingWentWrong)).toBeTruthy();
    await u.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('figure', { name: 'Store orders per day' })).toBeTruthy();
  });

  it('is for operations staff: a provider goes back to their queue, with no Dashboard link', async () => {
    const api = stubApi([
      loggedIn(provider),
      stub(reviewsApi.queue, { visits: [], pharmacy_rejections: [], requests: [] }),
    ]);
    renderRoutes(routes, { path: '/staff/dashboard' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Review queue' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Dashboard' })).toBeNull();
    expect(api.callsTo(dashboardApi.summary)).toEqual([]);
  });
});

describe('the bar charts’ scale', () => {
  it('ends on a round figure at or above the largest value', () => {
    expect([0, 1, 2, 3, 7, 10, 11, 2499, 7497].map(niceCeiling)).toEqual([
      1, 1, 2, 5, 10, 10, 20, 5000, 10000,
    ]);
  });
});
