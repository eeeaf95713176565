// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catalogApi } from '#shared/catalog.ts';
import { biotinLine, bundleLine, catalog, sleepLine } from '#client/features/cart/cart.fixtures.ts';
import { resetAppStateForTests } from '#client/lib/app-state.ts';
import { renderRoutes, stub, stubApi } from '#client/testing/render-app.tsx';
import { ShopPage } from './shop-page.tsx';

beforeEach(() => {
  localStorage.clear();
  resetAppStateForTests();
});
afterEach(cleanup);

describe('/shop', () => {
  it("shows each subscribable supplement's couples' price on its card, as the home page does (decision 018)", async () => {
    stubApi([stub(catalogApi.products, catalog)]);
    renderRoutes([{ path: '/shop', element: <ShopPage /> }], { path: '/shop' });
    for (const line of [sleepLine, biotinLine]) {
      const card = await screen.findByRole('article', { name: line.name });
      expect(within(card).getByText("Couples' plan: $15.75 each")).toBeTruthy();
    }
    // The bundle is one-time only: no plan can hold it, so no couples' price.
    const bundle = screen.getByRole('article', { name: bundleLine.name });
    expect(within(bundle).queryByText(/Couples' plan/)).toBeNull();
  });
});
