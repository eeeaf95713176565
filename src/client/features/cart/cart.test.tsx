// @vitest-environment jsdom
import { focusManager, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cartApi } from '#shared/cart.ts';
import { catalogApi, offers } from '#shared/catalog.ts';
import { cacheKeys, storageKeys } from '#shared/constants.ts';
import { clearToasts, Toaster } from '#client/components/ui/toast.tsx';
import { PurchaseOptions } from '#client/features/catalog/components/purchase-options.tsx';
import { resetAppStateForTests, setLeadsId, setLoggedIn } from '#client/lib/app-state.ts';
import {
  failure,
  stub,
  stubApi,
  testQueryClient,
  waitForDialogToClose,
} from '#client/testing/render-app.tsx';
import { setCartDrawerOpen } from './cart-drawer-state.ts';
import { biotinLine, buildCart, bundleLine, catalog, sleepLine } from './cart.fixtures.ts';
import { CartButton } from './components/cart-button.tsx';
import { CartContents } from './components/cart-contents.tsx';

function renderWithApp(ui: React.ReactNode) {
  const queryClient = testQueryClient();
  const result = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>{ui}</MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
  return { ...result, queryClient };
}

function storedCart(): { product_id: number; quantity: number }[] {
  return JSON.parse(localStorage.getItem(storageKeys.cart) ?? '[]') as {
    product_id: number;
    quantity: number;
  }[];
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetAppStateForTests();
  window.innerWidth = 1280;
});
afterEach(() => {
  act(() => setCartDrawerOpen(false));
  cleanup();
  clearToasts();
});

describe('quantity rules', () => {
  it('offers a quantity from 1 to 10 for a one-time purchase, and none for a subscription', async () => {
    const u = userEvent.setup();
    stubApi([stub(catalogApi.products, catalog)]);
    renderWithApp(<PurchaseOptions line={sleepLine} />);
    const group = screen.getByRole('group', { name: 'Quantity' });
    const decrease = within(group).getByRole('button', { name: /Decrease/ });
    const increase = within(group).getByRole('button', { name: /Increase/ });
    expect((decrease as HTMLButtonElement).disabled).toBe(true);
    for (let i = 0; i < 12; i++) await u.click(increase);
    expect(within(group).getByRole('status').textContent).toBe('10');
    expect((increase as HTMLButtonElement).disabled).toBe(true);

    await u.click(screen.getByRole('radio', { name: /Monthly/ }));
    expect(screen.queryByRole('group', { name: 'Quantity' })).toBeNull();
    expect(screen.getByRole('radio', { name: /Monthly/ }).closest('label')?.textContent).toContain(
      '$17.50/month',
    );
    expect(
      screen.getByRole('radio', { name: /Quarterly/ }).closest('label')?.textContent,
    ).toContain('$45.00/quarterly');
  });

  it('sells the bundle one-time only, without a quantity', () => {
    stubApi([stub(catalogApi.products, catalog)]);
    renderWithApp(<PurchaseOptions line={bundleLine} />);
    expect(screen.queryByRole('radio')).toBeNull();
    expect(screen.queryByRole('group', { name: 'Quantity' })).toBeNull();
    expect(screen.getByText('One bottle each')).toBeTruthy();
  });

  it('adds to the browser cart, and refuses to go past 10 of one product', async () => {
    const u = userEvent.setup();
    stubApi([stub(catalogApi.products, catalog)]);
    renderWithApp(<PurchaseOptions line={biotinLine} />);
    const increase = screen.getByRole('button', { name: 'Increase quantity of Biotin Gummies' });
    for (let i = 0; i < 5; i++) await u.click(increase);
    await u.click(screen.getByRole('button', { name: 'Add to cart' }));
    expect(storedCart()).toMatchObject([{ product_id: offers.biotin.oneTime, quantity: 6 }]);
    for (let i = 0; i < 5; i++) await u.click(increase);
    await u.click(screen.getByRole('button', { name: 'Add to cart' }));
    expect((await screen.findByRole('alert')).textContent).toBe('You can order up to 10 at a time');
    expect(storedCart()).toMatchObject([{ product_id: offers.biotin.oneTime, quantity: 6 }]);
  });

  it('changes a cart line between 1 and 10, and removes it', async () => {
    const u = userEvent.setup();
    stubApi([stub(catalogApi.products, catalog)]);
    localStorage.setItem(
      storageKeys.cart,
      JSON.stringify([
        {
          name: 'Sleep Gummies',
          product_id: offers.sleep.oneTime,
          price: 24.99,
          frequency: 'ONE_TIME',
          description: 'x',
          dose: 'One bottle',
          quantity: 9,
          img: '/images/supp-sleep.webp',
        },
      ]),
    );
    renderWithApp(<CartContents layout="page" />);
    const increase = screen.getByRole('button', { name: 'Increase quantity of Sleep Gummies' });
    await u.click(increase);
    expect((increase as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getAllByText('$249.90').length).toBeGreaterThan(0);
    await u.click(screen.getByRole('button', { name: 'Remove Sleep Gummies' }));
    expect(await screen.findByText('Your cart is empty')).toBeTruthy();
    expect(localStorage.getItem(storageKeys.cart)).toBeNull();
  });

  it('says what a plan or the bundle brings in bottles, where a quantity cannot change', async () => {
    setLeadsId('lead-1');
    setLoggedIn(true);
    const cart = buildCart([
      { offer: sleepLine.offers[2]!, quantity: 1, slug: 'sleep-gummies' },
      { offer: biotinLine.offers[1]!, quantity: 1, slug: 'biotin-gummies' },
      { offer: bundleLine.offers[0]!, quantity: 1, slug: 'holiday-bundle-special' },
    ]);
    stubApi([stub(catalogApi.products, catalog), stub(cartApi.cart, { cart })]);
    renderWithApp(<CartContents layout="page" />);
    const list = await screen.findByRole('list', { name: 'Items in your cart' });
    const lines = within(list).getAllByRole('listitem');
    expect(lines.map((line) => line.textContent)).toEqual([
      expect.stringContaining('3 bottles every 3 months'),
      expect.stringContaining('1 bottle a month'),
      expect.stringContaining('3 bottles, one of each'),
    ]);
    expect(screen.queryByText(/Quantity: /)).toBeNull();
  });

  it('shows every refusal of a coupon with its reason', async () => {
    const u = userEvent.setup();
    stubApi([
      stub(catalogApi.products, catalog),
      stub(
        cartApi.couponCode,
        failure(400, 'COUPON_REFUSED', 'This coupon expired on Sep 01, 2026.', {
          code: 'This coupon expired on Sep 01, 2026.',
        }),
      ),
    ]);
    localStorage.setItem(
      storageKeys.cart,
      JSON.stringify([
        {
          name: 'Sleep Gummies',
          product_id: offers.sleep.oneTime,
          price: 24.99,
          frequency: 'ONE_TIME',
          description: 'x',
          dose: 'One bottle',
          quantity: 1,
          img: '/images/supp-sleep.webp',
        },
      ]),
    );
    renderWithApp(<CartContents layout="page" />);
    await u.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByText('Enter a coupon code')).toBeTruthy();
    await u.type(screen.getByLabelText('Coupon code'), 'summer25');
    await u.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('This coupon expired on Sep 01, 2026.')).toBeTruthy();
    expect(screen.getByLabelText('Coupon code').getAttribute('aria-invalid')).toBe('true');
  });
});

describe('the cart drawer', () => {
  it('opens from the header button, is a labelled dialog 700px wide, and closes with Escape', async () => {
    const u = userEvent.setup();
    stubApi([stub(catalogApi.products, catalog)]);
    renderWithApp(<CartButton />);
    const button = screen.getByRole('button', { name: 'Cart, empty' });
    await u.click(button);
    const dialog = await screen.findByRole('dialog', { name: /Your cart/ });
    expect(dialog.style.width).toBe('700px');
    expect(within(dialog).getByText('Your cart is empty')).toBeTruthy();
    // The focus moves in once the dialog has mounted (an effect, which runs after the paint).
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    await u.keyboard('{Escape}');
    await waitForDialogToClose();
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cart, empty' })),
    );
  });

  it('is the full width of a window under 920px', async () => {
    window.innerWidth = 919;
    stubApi([stub(catalogApi.products, catalog)]);
    renderWithApp(<CartButton />);
    act(() => setCartDrawerOpen(true));
    const dialog = await screen.findByRole('dialog', { name: /Your cart/ });
    expect(dialog.style.width).toBe('100%');
  });

  it('shows a logged-in customer the server cart and its count', async () => {
    setLeadsId('lead-1');
    setLoggedIn(true);
    const cart = buildCart([
      { offer: sleepLine.offers[1]!, quantity: 1, slug: 'sleep-gummies' },
      { offer: biotinLine.offers[0]!, quantity: 2, slug: 'biotin-gummies' },
    ]);
    const api = stubApi([stub(catalogApi.products, catalog), stub(cartApi.cart, { cart })]);
    const { queryClient } = renderWithApp(<CartButton />);
    const button = await screen.findByRole('button', { name: 'Cart, 3 items' });
    await userEvent.setup().click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Your cart (3 items)' });
    // Subtotal and total.
    expect(within(dialog).getAllByText('$67.48', { selector: 'dd' })).toHaveLength(2);
    // Spec §9: the cart cache is not revalidated on focus.
    const cartCalls = () => api.callsTo(cartApi.cart).length;
    const catalogCalls = () => api.callsTo(catalogApi.products).length;
    // Opening the drawer may still be settling its own reads (a slow machine drew the dialog from
    // the cache before the mount's read went out); count from a quiet point.
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    const before = cartCalls();
    const catalogBefore = catalogCalls();
    // The witness: the catalogue, made stale, is one query that does refetch on focus.
    await queryClient.invalidateQueries({ queryKey: [cacheKeys.catalog], refetchType: 'none' });
    act(() => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });
    // Focus refetches every query that wants it in one pass: once the catalogue has been asked
    // again and nothing is loading, the cart's turn has passed too.
    await waitFor(() => {
      expect(catalogCalls()).toBeGreaterThan(catalogBefore);
      expect(queryClient.isFetching()).toBe(0);
    });
    expect(cartCalls()).toBe(before);
  });
});
