// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cartApi } from '#shared/cart.ts';
import { catalogApi, offers } from '#shared/catalog.ts';
import { ordersApi, type Order } from '#shared/orders.ts';
import { visitsApi } from '#shared/visits.ts';
import { AccountLayout } from '#client/features/accounts/components/account-layout.tsx';
import { RequireAuth } from '#client/features/auth/components/route-guards.tsx';
import { resetAppStateForTests, setLeadsId } from '#client/lib/app-state.ts';
import { buildOrder, buildPatientData, memberStubs } from '#client/testing/member-fixtures.ts';
import { renderRoutes, stub, stubApi } from '#client/testing/render-app.tsx';
import { useCartDrawerOpen, setCartDrawerOpen } from '#client/features/cart/cart-drawer-state.ts';
import { buildCart, catalog } from '#client/features/cart/cart.fixtures.ts';
import { OrdersPage } from './orders-page.tsx';

/** A product the shop once sold and no longer does: not in the catalogue. */
const retiredProductId = 77;

function DrawerProbe() {
  return <p data-testid="drawer">{useCartDrawerOpen() ? 'open' : 'closed'}</p>;
}

const routes: RouteObject[] = [
  {
    element: <RequireAuth />,
    children: [
      {
        element: <AccountLayout />,
        children: [
          {
            path: '/orders',
            element: (
              <>
                <OrdersPage />
                <DrawerProbe />
              </>
            ),
          },
        ],
      },
    ],
  },
];

type Item = Order['order_items'][number];
const item = (overrides: Partial<Item>): Item => ({
  product_id: offers.sleep.quarterly,
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
  setCartDrawerOpen(false);
});
afterEach(() => cleanup());

describe('a past store order', () => {
  const storeOrder = buildOrder({
    order_number: 'PW-100200',
    order_items: [
      item({
        product_id: offers.sleep.oneTime,
        frequency: 'ONE_TIME',
        quantity: 2,
        price_cents: 2499,
      }),
      item({
        product_id: offers.biotin.monthly,
        product_name: 'Biotin Gummies',
        frequency: 'MONTHLY',
      }),
      item({ product_id: retiredProductId, product_name: 'Calm Gummies', frequency: 'ONE_TIME' }),
    ],
  });

  function renderStoreOrder(order: Order) {
    const patientData = buildPatientData([order]);
    const api = stubApi([
      ...memberStubs({ patientData }),
      stub(ordersApi.ordersDetails, patientData.lander),
      stub(visitsApi.pendingOrders, []),
      stub(catalogApi.products, catalog),
      stub(cartApi.updateCart, { cart: buildCart([]) }),
    ]);
    renderRoutes(routes, { path: '/orders' });
    return api;
  }

  it('Buy again puts the products still sold in the cart, says which are not, and opens the cart', async () => {
    const api = renderStoreOrder(storeOrder);
    const card = await screen.findByRole('article', { name: 'Order PW-100200' });
    expect(
      within(card)
        .getByRole('link', { name: /^Receipt/ })
        .getAttribute('href'),
    ).toBe('/orders/receipt/PW-100200');
    await userEvent.click(within(card).getByRole('button', { name: /^Buy again/ }));
    await waitFor(() => expect(screen.getByTestId('drawer').textContent).toBe('open'));
    expect(api.callsTo(cartApi.updateCart)[0]).toEqual({
      mode: 'merge',
      items: [
        { product_id: offers.sleep.oneTime, quantity: 2 },
        { product_id: offers.biotin.monthly, quantity: 1 },
      ],
    });
    expect(within(card).getByRole('status').textContent).toBe(
      'Calm Gummies is no longer sold, so we left it out.',
    );
  });

  it("a gift's delivery says whom it is for, and leaves where and the tracking to its recipient", async () => {
    renderStoreOrder(
      buildOrder({
        order_number: 'PW-100201',
        order_status: 'SHIPPED',
        order_kind: 'renewal',
        order_items: [item({ frequency: 'MONTHLY' })],
        shippingAddress: null,
        tracking_number: null,
        gift_for: { first_name: 'Sam' },
      }),
    );
    const card = await screen.findByRole('article', { name: 'Order PW-100201' });
    expect(card.textContent).toContain('Gift for');
    expect(card.textContent).toContain('Shipping news and tracking go to Sam.');
    expect(card.textContent).not.toContain('Ship to');
    expect(within(card).queryByRole('link', { name: /track/i })).toBeNull();
  });

  it('when nothing is sold any more, says so and leaves the cart as it was', async () => {
    const api = renderStoreOrder(
      buildOrder({
        order_number: 'PW-100201',
        order_items: [item({ product_id: retiredProductId, product_name: 'Calm Gummies' })],
      }),
    );
    const card = await screen.findByRole('article', { name: 'Order PW-100201' });
    await userEvent.click(within(card).getByRole('button', { name: /Buy again/ }));
    await waitFor(() =>
      expect(within(card).getByRole('status').textContent).toBe(
        'Calm Gummies is no longer sold, so we left it out. Nothing was added to your cart.',
      ),
    );
    expect(api.callsTo(cartApi.updateCart).length > 0).toBe(false);
    expect(screen.getByTestId('drawer').textContent).toBe('closed');
  });

  it("a visit's order offers neither Buy again nor a receipt while only held, nor does an unpaid one", async () => {
    renderStoreOrder(
      buildOrder({
        order_kind: 'visit',
        order_items: [item({ product_name: 'Sildenafil 50 mg', category: 'ed' })],
        payments: [{ kind: 'hold', amount_cents: 3000, date: '2026-03-02T15:00:00.000Z' }],
      }),
    );
    const card = await screen.findByRole('article', { name: 'Order A1001' });
    expect(within(card).queryByRole('button', { name: /Buy again/ })).toBeNull();
    // Held for the provider's review, not charged: no receipt yet.
    expect(within(card).queryByRole('link', { name: /Receipt/ })).toBeNull();
    cleanup();
    renderStoreOrder(buildOrder({ order_status: 'PAYMENT_FAILED', order_items: [item({})] }));
    const failed = await screen.findByRole('article', { name: 'Order A1001' });
    expect(within(failed).queryByRole('link', { name: /Receipt/ })).toBeNull();
    expect(within(failed).queryByRole('button', { name: /Buy again/ })).toBeNull();
  });

  it("a charged visit's order has its receipt for an HSA or FSA claim", async () => {
    renderStoreOrder(
      buildOrder({
        order_kind: 'visit',
        order_items: [item({ product_name: 'Sildenafil 50 mg', category: 'ed' })],
        payments: [
          { kind: 'hold', amount_cents: 3000, date: '2026-03-02T15:00:00.000Z' },
          { kind: 'paid', amount_cents: 3000, date: '2026-03-03T15:00:00.000Z' },
        ],
      }),
    );
    const card = await screen.findByRole('article', { name: 'Order A1001' });
    expect(
      within(card)
        .getByRole('link', { name: /^Receipt for HSA\/FSA/ })
        .getAttribute('href'),
    ).toBe('/orders/care-receipt/A1001');
  });
});

describe('the orders page', () => {
  it("says the bottles a supplement plan's line brought; other lines keep their count", async () => {
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
      payments: [],
    });
    const patientData = buildPatientData([order]);
    stubApi([
      ...memberStubs({ patientData }),
      stub(ordersApi.ordersDetails, patientData.lander),
      stub(visitsApi.pendingOrders, []),
    ]);
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

describe("a visit's order", () => {
  const prescription = {
    drug: 'Sildenafil (generic Viagra®)',
    dose: '50 mg',
    quantity: 6,
    refills_left: 2,
    valid_until: '2027-09-17',
    directions: 'Take one tablet about an hour before sex. No more than one a day.',
  };
  const visitOrder = (overrides: Partial<Order>): Order =>
    buildOrder({
      order_number: 'PW-100300',
      order_kind: 'visit',
      order_status: 'PROCESSING',
      tracking_number: null,
      order_items: [
        item({ product_name: 'Sildenafil 50 mg', category: 'ed', frequency: 'MONTHLY' }),
      ],
      ...overrides,
    });

  async function renderOrder(order: Order) {
    const patientData = buildPatientData([order]);
    stubApi([
      ...memberStubs({ patientData }),
      stub(ordersApi.ordersDetails, patientData.lander),
      stub(visitsApi.pendingOrders, []),
    ]);
    renderRoutes(routes, { path: '/orders' });
    return screen.findByRole('article', { name: `Order ${order.order_number}` });
  }

  it("approved: says so in words beside the spec's status, what happens next, and the prescription with its directions", async () => {
    const card = await renderOrder(visitOrder({ visit: { state: 'APPROVED', prescription } }));
    // The spec's status label stays; the clinical state is beside it.
    expect(within(card).getByText('Processing')).toBeTruthy();
    expect(within(card).getByText('Your online visit:').textContent).toContain('Approved');
    expect(within(card).getByText(/Our pharmacy is preparing it/)).toBeTruthy();
    const details = within(card).getByRole('region', { name: 'Your prescription' });
    const read = (term: string) =>
      within(details).getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(read('Medicine')).toBe('Sildenafil (generic Viagra®)');
    expect(read('Dose')).toBe('50 mg');
    expect(read('Quantity')).toBe('6');
    expect(read('Refills left')).toBe('2');
    expect(read('Valid until')).toBe('09/17/2027');
    expect(read('Directions')).toBe(prescription.directions);
  });

  it('says where the medicine is, step by step, the current step marked, the steps to come muted', async () => {
    const card = await renderOrder(
      visitOrder({
        visit: { state: 'APPROVED', prescription },
        pharmacy: {
          steps: [
            { step: 'sent', at: '2026-11-20T09:00:00.000Z' },
            { step: 'received', at: '2026-11-20T09:05:00.000Z' },
            { step: 'filled', at: '2026-11-21T10:00:00.000Z' },
          ],
          rejected_reason: null,
        },
      }),
    );
    const progress = within(card).getByRole('region', { name: 'Your medicine' });
    const steps = within(progress).getAllByRole('listitem');
    expect(steps.map((li) => li.textContent)).toEqual([
      // The ticks are drawn (aria-hidden); each step is read with its date.
      '✓Sent to the pharmacyNov 20, 2026',
      '✓Received by the pharmacyNov 20, 2026',
      '✓Filled by the pharmacistNov 21, 2026',
      'Shipped (not yet)',
      'Delivered (not yet)',
    ]);
    expect(steps.map((li) => li.getAttribute('aria-current'))).toEqual([
      null,
      null,
      'step',
      null,
      null,
    ]);
  });

  it('a fill the pharmacy could not make ends with its reason and where the provider will write', async () => {
    const card = await renderOrder(
      visitOrder({
        visit: { state: 'APPROVED', prescription },
        pharmacy: {
          steps: [
            { step: 'sent', at: '2026-11-20T09:00:00.000Z' },
            { step: 'rejected', at: '2026-11-20T11:00:00.000Z' },
          ],
          rejected_reason: 'The prescription could not be verified.',
        },
      }),
    );
    const progress = within(card).getByRole('region', { name: 'Your medicine' });
    expect(
      within(progress)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      '✓Sent to the pharmacyNov 20, 2026',
      '!The pharmacy could not fill itNov 20, 2026The prescription could not be verified. Your provider will write to you in Messages.',
    ]);
  });

  it('under review: says a provider is reviewing it and shows no prescription', async () => {
    const card = await renderOrder(
      visitOrder({
        order_status: 'PENDING_REVIEW',
        visit: { state: 'UNDER_REVIEW', prescription: null },
      }),
    );
    expect(within(card).getByText('Under review by a provider')).toBeTruthy();
    expect(within(card).getByText(/charged only if they approve/)).toBeTruthy();
    expect(within(card).queryByRole('region', { name: 'Your prescription' })).toBeNull();
  });

  it("declined: red, with the way to the provider's note in Messages", async () => {
    const card = await renderOrder(
      visitOrder({
        order_status: 'DECLINED',
        decline_reason: 'An in-person check is needed first.',
        visit: { state: 'DECLINED', prescription: null },
      }),
    );
    const words = within(card)
      .getAllByText('Declined')
      .map((node) => node.className);
    // The spec's badge and the clinical state: both red.
    expect(words.length).toBe(2);
    for (const className of words) expect(className).toContain('text-danger');
    const link = within(card).getByRole('link', { name: "Read your provider's note in Messages" });
    expect(link.getAttribute('href')).toBe('/messages');
    expect(within(card).getByText(/you were not charged/)).toBeTruthy();
    // Beside the total, so the total does not read as a charge.
    expect(within(card).getByText('Not charged — the hold was released')).toBeTruthy();
  });

  it('a prescription without directions says to take it as the provider said', async () => {
    const card = await renderOrder(
      visitOrder({
        order_status: 'SHIPPED',
        tracking_number: '9400100000000000000000',
        visit: {
          state: 'SHIPPED',
          prescription: { ...prescription, refills_left: 0, directions: null },
        },
      }),
    );
    expect(within(card).getByText('Shipped', { selector: 'span.font-semibold' })).toBeTruthy();
    const details = within(card).getByRole('region', { name: 'Your prescription' });
    expect(within(details).getByText('None')).toBeTruthy();
    expect(within(details).getByText(/Take as your provider told you/)).toBeTruthy();
  });
});

describe("an order's payments (issue 26)", () => {
  it('lists every charge, hold, release and refund, oldest first, refunds as money back', async () => {
    const order = buildOrder({
      order_status: 'DELIVERED',
      refund_cents: 500,
      refund_amount: 5,
      payments: [
        { kind: 'hold', amount_cents: 2499, date: '2026-03-02T15:00:00.000Z' },
        { kind: 'paid', amount_cents: 2499, date: '2026-03-03T10:00:00.000Z' },
        { kind: 'refunded', amount_cents: 500, date: '2026-03-09T10:00:00.000Z' },
      ],
    });
    const patientData = buildPatientData([order]);
    stubApi([
      ...memberStubs({ patientData }),
      stub(ordersApi.ordersDetails, patientData.lander),
      stub(visitsApi.pendingOrders, []),
    ]);
    renderRoutes(routes, { path: '/orders' });
    const card = await screen.findByRole('article', { name: `Order ${order.order_number}` });
    const payments = within(card).getByRole('region', { name: 'Payments' });
    expect(
      within(payments)
        .getAllByRole('listitem')
        .map((line) => line.textContent),
    ).toEqual([
      'Hold on your card · Mar 02, 2026$24.99',
      'Paid · Mar 03, 2026$24.99',
      'Refunded · Mar 09, 2026−$5.00',
    ]);
  });

  it('says a declined card was not charged, and shows no payments section without any', async () => {
    const declined = buildOrder({
      order_number: 'A1002',
      order_status: 'PAYMENT_FAILED',
      order_kind: 'renewal',
      payments: [{ kind: 'declined', amount_cents: 1750, date: '2026-03-02T15:00:00.000Z' }],
    });
    const none = buildOrder({ order_number: 'A1003', payments: [] });
    const patientData = buildPatientData([declined, none]);
    stubApi([
      ...memberStubs({ patientData }),
      stub(ordersApi.ordersDetails, patientData.lander),
      stub(visitsApi.pendingOrders, []),
    ]);
    renderRoutes(routes, { path: '/orders' });
    const card = await screen.findByRole('article', { name: 'Order A1002' });
    expect(within(card).getByRole('region', { name: 'Payments' }).textContent).toContain(
      'Card declined · Mar 02, 2026$17.50 (not charged)',
    );
    const other = screen.getByRole('article', { name: 'Order A1003' });
    expect(within(other).queryByRole('region', { name: 'Payments' })).toBeNull();
  });
});
