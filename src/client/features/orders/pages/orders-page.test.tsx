// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Order } from '#shared/orders.ts';
import { AccountLayout } from '#client/features/accounts/components/account-layout.tsx';
import { RequireAuth } from '#client/features/auth/components/route-guards.tsx';
import { resetAppStateForTests, setLeadsId } from '#client/lib/app-state.ts';
import { buildOrder, buildPatientData, memberApi } from '#client/testing/member-fixtures.ts';
import { ok, renderRoutes, stubApi } from '#client/testing/render-app.tsx';
import { OrdersPage } from './orders-page.tsx';

const routes: RouteObject[] = [
  {
    element: <RequireAuth />,
    children: [
      {
        element: <AccountLayout />,
        children: [{ path: '/orders', element: <OrdersPage /> }],
      },
    ],
  },
];

type Item = Order['order_items'][number];
const item = (overrides: Partial<Item>): Item => ({
  product_name: 'Sleep Gummies',
  product_image: '/images/supp-sleep.webp',
  category: 'supplements',
  quantity: 1,
  price_cents: 4500,
  frequency: 'QUARTERLY',
  ...overrides,
});

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetAppStateForTests();
  setLeadsId('lead-1');
  window.innerWidth = 1280;
});
afterEach(() => cleanup());

describe('the orders page', () => {
  it('says the bottles a supplement plan’s line brought; other lines keep their count', async () => {
    const order = buildOrder({
      order_items: [
        item({}),
        item({ product_name: 'Biotin Gummies', frequency: 'MONTHLY', quantity: 2 }),
        item({
          product_name: 'Holiday Bundle Special (Sleep, Hair, and Immunity Gummies)',
          frequency: 'ONE_TIME',
          price_cents: 2499,
        }),
        item({ product_name: 'Finasteride 1 mg tablets', category: 'hair', frequency: 'MONTHLY' }),
      ],
    });
    const patientData = buildPatientData([order]);
    stubApi({
      ...memberApi({ patientData }),
      '/account/orders/': { body: { status: 'SUCCESS', message: patientData.lander } },
      '/account/pendingorders/': ok([]),
    });
    renderRoutes(routes, { path: '/orders' });
    const card = await screen.findByRole('article', { name: `Order ${order.order_number}` });
    const lines = within(card)
      .getAllByRole('listitem')
      .map((line) => line.textContent);
    expect(lines).toEqual([
      expect.stringContaining('Supplement · 3 bottles every 3 months'),
      expect.stringContaining('Supplement · 2 bottles a month'),
      // Order history does not tell a one-time bottle from the bundle (three bottles).
      expect.stringContaining('Supplement · Qty 1'),
      // A prescription is not bottles.
      expect.stringContaining('Hair treatment · Qty 1'),
    ]);
  });
});
