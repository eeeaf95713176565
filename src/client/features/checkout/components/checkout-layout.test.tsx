// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cartApi } from '#shared/cart.ts';
import { catalogApi } from '#shared/catalog.ts';
import { biotinLine, buildCart, catalog, sleepLine } from '#client/features/cart/cart.fixtures.ts';
import { resetAppStateForTests, setLeadsId, setLoggedIn } from '#client/lib/app-state.ts';
import { renderRoutes, stub, stubApi } from '#client/testing/render-app.tsx';
import { CheckoutLayout } from './checkout-layout.tsx';

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetAppStateForTests();
});
afterEach(cleanup);

describe("the checkout's folded order summary (a phone's only cart while paying)", () => {
  it('is named as the header names the cart, with the item count', async () => {
    setLeadsId('lead-1');
    setLoggedIn(true);
    stubApi([
      stub(catalogApi.products, catalog),
      stub(cartApi.cart, {
        cart: buildCart([
          { offer: sleepLine.offers[1]!, quantity: 1, slug: 'sleep-gummies' },
          { offer: biotinLine.offers[0]!, quantity: 2, slug: 'biotin-gummies' },
        ]),
      }),
    ]);
    renderRoutes(
      [
        {
          element: <CheckoutLayout />,
          children: [{ path: '/checkout/shipping', element: <p>Step 1</p> }],
        },
      ],
      { path: '/checkout/shipping' },
    );
    const cart = await screen.findByRole('group', { name: 'Cart, 3 items' });
    expect(within(cart).getByText('Show order summary')).toBeTruthy();
    expect(within(cart).getAllByText('$67.48').length).toBeGreaterThan(0);
  });
});
