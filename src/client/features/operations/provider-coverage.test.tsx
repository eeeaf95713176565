// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { operationsApi } from '#shared/operations.ts';
import { messages } from '#shared/wording.ts';
import { clearToasts } from '#client/components/ui/toast.tsx';
import { failure, renderRoutes, stub, stubApi } from '#client/testing/render-app.tsx';
import { loggedIn, ops } from '#client/testing/staff-fixtures.ts';
import { StaffLayout } from '#client/features/staff/components/staff-layout.tsx';
import { StaffHomePage } from '#client/features/staff/pages/staff-home-page.tsx';

const routes: RouteObject[] = [
  { element: <StaffLayout />, children: [{ path: '/staff', element: <StaffHomePage /> }] },
];

const noOrders = stub(operationsApi.orders, { orders: [] });

afterEach(() => {
  cleanup();
  clearToasts();
});

const panel = async () => screen.findByRole('region', { name: 'Provider coverage' });

describe('provider coverage on the operations dashboard', () => {
  it("names the offered states without a licensed provider, in words, and counts each state's providers", async () => {
    const api = stubApi([
      loggedIn(ops),
      noOrders,
      stub(operationsApi.coverage, {
        states: [
          { state: 'CA', providers: 2 },
          { state: 'OR', providers: 1 },
          { state: 'AZ', providers: 0 },
          { state: 'NV', providers: 0 },
        ],
        expiring_licences: [],
      }),
    ]);
    renderRoutes(routes, { path: '/staff' });
    const coverage = await panel();
    expect(
      await within(coverage).findByText('No licensed provider in Arizona and Nevada.'),
    ).toBeTruthy();
    expect(coverage.textContent).toContain(
      "Patients there are told we can't offer online visits right now.",
    );
    expect(
      within(coverage)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'California: 2 providers',
      'Oregon: 1 provider',
      'Arizona: no provider',
      'Nevada: no provider',
    ]);
    expect(api.callsTo(operationsApi.coverage)[0]).toEqual({});
    // The orders are still the page's subject.
    expect(screen.getByRole('heading', { level: 1, name: 'Orders' })).toBeTruthy();
  });

  it('says so when every offered state has a provider', async () => {
    stubApi([
      loggedIn(ops),
      noOrders,
      stub(operationsApi.coverage, {
        states: [{ state: 'OR', providers: 1 }],
        expiring_licences: [],
      }),
    ]);
    renderRoutes(routes, { path: '/staff' });
    const coverage = await panel();
    expect(
      await within(coverage).findByText('Every state we offer has at least one licensed provider.'),
    ).toBeTruthy();
    expect(within(coverage).queryByText(/No licensed provider/)).toBeNull();
    expect(within(coverage).queryByText(/Licences expiring/)).toBeNull();
  });

  it('lists the licences that expire within 60 days, soonest first, with their numbers', async () => {
    stubApi([
      loggedIn(ops),
      noOrders,
      stub(operationsApi.coverage, {
        states: [{ state: 'OR', providers: 1 }],
        expiring_licences: [
          {
            provider: 'Dr. Maya Chen, MD',
            state: 'OR',
            number: 'OR-MD-48213',
            expires_on: '2026-12-15',
          },
          {
            provider: 'Dr. Ana Ruiz, MD',
            state: 'WA',
            number: 'WA-MD-771',
            expires_on: '2027-01-20',
          },
        ],
      }),
    ]);
    renderRoutes(routes, { path: '/staff' });
    const coverage = await panel();
    expect(
      await within(coverage).findByRole('heading', { name: 'Licences expiring within 60 days' }),
    ).toBeTruthy();
    const items = within(coverage)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items.slice(1)).toEqual([
      'Dr. Maya Chen, MD, Oregon (OR-MD-48213): valid until 12/15/2026',
      'Dr. Ana Ruiz, MD, Washington (WA-MD-771): valid until 01/20/2027',
    ]);
  });

  it('shows why it could not load, with Try again, and the orders stay usable', async () => {
    const u = userEvent.setup();
    let attempts = 0;
    stubApi([
      loggedIn(ops),
      noOrders,
      stub(operationsApi.coverage, () =>
        ++attempts === 1
          ? failure(503, 'UNAVAILABLE', 'The service is busy. Please try again.')
          : { states: [{ state: 'OR', providers: 1 }], expiring_licences: [] },
      ),
    ]);
    renderRoutes(routes, { path: '/staff' });
    const coverage = await panel();
    expect(await within(coverage).findByText(messages.somethingWentWrong)).toBeTruthy();
    expect(await screen.findByText('No orders yet.')).toBeTruthy();
    await u.click(within(coverage).getByRole('button', { name: 'Try again' }));
    const state = await within(coverage).findByRole('listitem');
    expect(state.textContent).toBe('Oregon: 1 provider');
  });
});
