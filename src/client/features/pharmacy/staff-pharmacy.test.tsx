// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pharmacyApi, type PharmacyQueueItem } from '#shared/pharmacy.ts';
import { reviewsApi } from '#shared/reviews.ts';
import { renderRoutes, stub, stubApi } from '#client/testing/render-app.tsx';
import { loggedIn, ops, provider } from '#client/testing/staff-fixtures.ts';
import { StaffLayout } from '#client/features/staff/components/staff-layout.tsx';
import { StaffHomePage } from '#client/features/staff/pages/staff-home-page.tsx';
import { StaffPharmacyPage } from './pages/staff-pharmacy-page.tsx';

const routes: RouteObject[] = [
  {
    element: <StaffLayout />,
    children: [
      { path: '/staff', element: <StaffHomePage /> },
      { path: '/staff/pharmacy', element: <StaffPharmacyPage /> },
    ],
  },
];

const rejected: PharmacyQueueItem = {
  order_id: 41,
  order_number: 'PW-100141',
  kind: 'NewRx',
  step: 'rejected',
  since: '2026-11-20T09:00:00.000Z',
  stuck: true,
  message_status: 'sent',
  attempts: 1,
  last_error: null,
  rejected_reason: 'The prescriber’s licence could not be verified.',
};
const refused: PharmacyQueueItem = {
  order_id: 42,
  order_number: 'PW-100142',
  kind: 'NewRx',
  step: null,
  since: '2026-11-20T10:00:00.000Z',
  stuck: true,
  message_status: 'failed',
  attempts: 1,
  last_error: 'HTTP 422: invalid_npi',
  rejected_reason: null,
};
const filled: PharmacyQueueItem = {
  order_id: 43,
  order_number: 'PW-100143',
  kind: 'Refill',
  step: 'filled',
  since: '2026-11-21T08:30:00.000Z',
  stuck: false,
  message_status: 'sent',
  attempts: 1,
  last_error: null,
  rejected_reason: null,
};

beforeEach(() => {
  window.innerWidth = 1280;
});
afterEach(cleanup);

describe('the pharmacy queue in the staff console', () => {
  it('lists fills on their way, stuck ones flagged with the step, the reason or the error, each linking to its order', async () => {
    stubApi([loggedIn(ops), stub(pharmacyApi.queue, { orders: [rejected, refused, filled] })]);
    renderRoutes(routes, { path: '/staff/pharmacy' });

    expect(await screen.findByRole('heading', { level: 1, name: 'Pharmacy' })).toBeTruthy();
    expect(document.title).toBe('Pharmacy — Pairwell Staff');
    expect(await screen.findByText('2 need attention; 1 on its way.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Pharmacy' }).getAttribute('aria-current')).toBe(
      'page',
    );

    const first = screen.getByRole('article', { name: 'Order PW-100141 · New prescription' });
    expect(within(first).getByText('Needs attention')).toBeTruthy();
    expect(within(first).getByText(/^The pharmacy could not fill it since/)).toBeTruthy();
    expect(
      within(first).getByText('Pharmacy’s reason: The prescriber’s licence could not be verified.'),
    ).toBeTruthy();
    expect(within(first).getByRole('link', { name: 'Order PW-100141' }).getAttribute('href')).toBe(
      '/staff/orders/41',
    );

    const second = screen.getByRole('article', { name: 'Order PW-100142 · New prescription' });
    expect(within(second).getByText(/^Refused by the pharmacy since/)).toBeTruthy();
    expect(within(second).getByText('1 attempt · Last error: HTTP 422: invalid_npi')).toBeTruthy();

    const third = screen.getByRole('article', { name: 'Order PW-100143 · Refill' });
    expect(within(third).getByText('On its way')).toBeTruthy();
    expect(within(third).getByText(/^Filled by the pharmacist since/)).toBeTruthy();
  });

  it('says when nothing is on its way', async () => {
    stubApi([loggedIn(ops), stub(pharmacyApi.queue, { orders: [] })]);
    renderRoutes(routes, { path: '/staff/pharmacy' });
    expect(
      await screen.findByText('Every prescription sent to the pharmacy has been delivered.'),
    ).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Nothing on its way' })).toBeTruthy();
  });

  it('is for operations staff: a provider goes back to their queue and has no Pharmacy link', async () => {
    const api = stubApi([
      loggedIn(provider),
      stub(reviewsApi.queue, { visits: [], pharmacy_rejections: [], requests: [] }),
    ]);
    renderRoutes(routes, { path: '/staff/pharmacy' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Review queue' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Pharmacy' })).toBeNull();
    expect(api.callsTo(pharmacyApi.queue)).toEqual([]);
  });
});
