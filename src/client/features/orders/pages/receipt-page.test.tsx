// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { offers } from '#shared/catalog.ts';
import { ordersApi, type Order } from '#shared/orders.ts';
import { AccountLayout } from '#client/features/accounts/components/account-layout.tsx';
import { RequireAuth } from '#client/features/auth/components/route-guards.tsx';
import { resetAppStateForTests, setLeadsId } from '#client/lib/app-state.ts';
import { buildOrder, buildPatientData, memberStubs } from '#client/testing/member-fixtures.ts';
import { failure, renderRoutes, stub, stubApi } from '#client/testing/render-app.tsx';
import { ReceiptPage } from './receipt-page.tsx';

const routes: RouteObject[] = [
  {
    element: <RequireAuth />,
    children: [
      {
        element: <AccountLayout />,
        children: [{ path: '/orders/receipt/:orderNumber', element: <ReceiptPage /> }],
      },
    ],
  },
];

const order = buildOrder({
  order_number: 'PW-100103',
  order_date: '2026-03-02T15:00:00.000Z',
  coupon_code: 'WELCOME10',
  // 2 × $24.99 + $17.50 = $67.48, less the coupon's $6.75.
  order_total: 60.73,
  order_total_cents: 6073,
  order_items: [
    {
      product_id: offers.sleep.oneTime,
      product_name: 'Sleep Gummies',
      product_image: '/images/supp-sleep.webp',
      category: 'supplements',
      quantity: 2,
      price_cents: 2499,
      frequency: 'ONE_TIME',
    },
    {
      product_id: offers.immunity.monthly,
      product_name: 'Immunity Gummies',
      product_image: '/images/supp-immunity.webp',
      category: 'supplements',
      quantity: 1,
      price_cents: 1750,
      frequency: 'MONTHLY',
    },
  ],
  shippingAddress: {
    address: '1200 Harbor Street',
    address2: 'Apt 4',
    city: 'Portland',
    state: 'OR',
    zip: '97201',
    country: 'US',
  },
});

function renderReceipt(orders: Order[], number: string) {
  const patientData = buildPatientData(orders);
  stubApi([
    ...memberStubs({ patientData }),
    // The receipt asks for its one order by number: the customer's own, or not found.
    stub(ordersApi.order, (body) => {
      const wanted = orders.find((o) => o.order_number === body.order_number);
      return wanted
        ? { order: wanted }
        : failure(404, 'NOT_FOUND', 'We could not find that order.');
    }),
  ]);
  renderRoutes(routes, { path: `/orders/receipt/${number}` });
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetAppStateForTests();
  setLeadsId('lead-1');
  window.innerWidth = 1280;
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('the receipt page', () => {
  it("shows the order's number, date, lines in bottles, totals with the coupon, and the address", async () => {
    renderReceipt([order], 'PW-100103');
    const receipt = await screen.findByRole('article', { name: 'Receipt for order PW-100103' });
    expect(within(receipt).getByText('03/02/2026')).toBeTruthy();
    const rows = within(receipt)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    expect(rows).toEqual([
      ['Sleep Gummies2 bottles$24.99 each', '$24.99', '2', '$49.98'],
      ['Immunity Gummies1 bottle a month$17.50 each', '$17.50', '1', '$17.50'],
    ]);
    const total = (term: string) =>
      within(receipt).getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(total('Subtotal')).toBe('$67.48');
    expect(total('Discount (WELCOME10)')).toBe('−$6.75');
    expect(total('Shipping')).toBe('Free');
    expect(total('Tax')).toBe('$0.00');
    expect(total('Total')).toBe('$60.73');
    expect(within(receipt).getByText(/1200 Harbor Street, Apt 4/).textContent).toContain(
      'Portland, OR 97201',
    );
    // No card is in the order data, so the receipt names none.
    expect(receipt.textContent).not.toMatch(/ending|Paid with/);
  });

  it("Print opens the browser's print dialog", async () => {
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    renderReceipt([order], 'PW-100103');
    await userEvent.click(await screen.findByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledOnce();
  });

  it("an order number not in this account, or a visit's order, reads as not found", async () => {
    renderReceipt([order], 'PW-999999');
    expect(await screen.findByRole('heading', { name: 'Receipt not found' })).toBeTruthy();
    expect(screen.queryByText('PW-999999')).toBeNull();
    cleanup();
    renderReceipt(
      [
        buildOrder({
          order_number: 'PW-100300',
          order_kind: 'visit',
          order_items: [{ ...order.order_items[0]!, category: 'ed', product_name: 'Sildenafil' }],
        }),
      ],
      'PW-100300',
    );
    expect(await screen.findByRole('heading', { name: 'Receipt not found' })).toBeTruthy();
    expect(screen.queryByText(/Sildenafil/)).toBeNull();
  });
});
