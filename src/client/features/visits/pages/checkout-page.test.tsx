// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearToasts } from '#client/components/ui/toast.tsx';
import { resetAppStateForTests, setLeadsId, setOnlineVisitUser } from '#client/lib/app-state.ts';
import { buildAccountData } from '#client/testing/member-fixtures.ts';
import { orderKeys } from '#client/features/orders/orders.api.ts';
import { LocationProbe, ok, renderRoutes, stubApi } from '#client/testing/render-app.tsx';
import { VisitLayout } from '../components/visit-layout.tsx';
import { VisitCheckoutPage } from './checkout-page.tsx';

const routes = [
  {
    path: '/visit/:category',
    element: <VisitLayout />,
    children: [
      { path: 'checkout', element: <VisitCheckoutPage /> },
      { path: 'submitted', element: <LocationProbe /> },
    ],
  },
];

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetAppStateForTests();
  setLeadsId('lead-1');
  setOnlineVisitUser({ visits: { ed: 9 } });
});
afterEach(() => {
  cleanup();
  clearToasts();
});

describe('the visit’s checkout', () => {
  it('puts the focus on the first field with a problem, top to bottom', async () => {
    const u = userEvent.setup();
    const api = stubApi({
      '/account/data/': ok(buildAccountData({ shipping: null, card: null })),
    });
    renderRoutes(routes, { path: '/visit/ed/checkout' });
    await u.click(await screen.findByRole('button', { name: 'Submit my visit' }));
    const street = await screen.findByLabelText('Street address');
    await waitFor(() => expect(document.activeElement).toBe(street));
    expect(street.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Expiration').getAttribute('aria-invalid')).toBe('true');

    // With the address given, the card number is next; then the consent at the bottom.
    await u.type(street, '500 Market Street');
    await u.type(screen.getByLabelText('City'), 'Portland');
    await u.selectOptions(screen.getByLabelText('State'), 'OR');
    await u.type(screen.getByLabelText('ZIP code'), '97204');
    await u.click(screen.getByRole('button', { name: 'Submit my visit' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Card number')));
    await u.type(screen.getByLabelText('Card number'), '4242 4242 4242 4242');
    await u.type(screen.getByLabelText('Expiration'), '1230');
    await u.type(screen.getByLabelText('Security code'), '123');
    await u.click(screen.getByRole('button', { name: 'Submit my visit' }));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('checkbox', { name: /I authorize/ })),
    );
    expect(api.calls.map((call) => call.path)).toEqual(['/account/data/']);
  });

  it('authorises the card with the address and goes on to the confirmation', async () => {
    const u = userEvent.setup();
    const api = stubApi({
      '/account/data/': ok(buildAccountData({ card: null, phoneNo: '5035550177' })),
      '/visit/checkout/': ok({
        order_number: 'PW-1001',
        amount_cents: 3000,
        destination: '/visit/ed/submitted',
      }),
    });
    const { queryClient } = renderRoutes(routes, { path: '/visit/ed/checkout' });
    // Orders seen a moment ago, with this visit still pending: fresh in the cache.
    queryClient.setQueryData(orderKeys.details('lead-1'), { orders: [] });
    queryClient.setQueryData(orderKeys.pending('lead-1'), [{ visit_id: 9 }]);
    // The saved address fills the form.
    expect(await screen.findByDisplayValue('12 Harbor St')).toBeTruthy();
    await u.type(screen.getByLabelText('Card number'), '4242 4242 4242 4242');
    await u.type(screen.getByLabelText('Expiration'), '1230');
    expect(screen.getByLabelText<HTMLInputElement>('Expiration').value).toBe('12/30');
    await u.type(screen.getByLabelText('Security code'), '123');
    await u.click(screen.getByRole('checkbox', { name: /I authorize/ }));
    await u.click(screen.getByRole('button', { name: 'Submit my visit' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/visit/ed/submitted');
    const sent = api.calls.find((call) => call.path === '/visit/checkout/');
    expect(sent?.body).toEqual({
      visit_id: 9,
      shipping: {
        address: '12 Harbor St',
        address2: '',
        city: 'Portland',
        state: 'ME',
        zip: '04101',
        phoneNo: '5035550177',
      },
      billing: null,
      payment: { method: 'card', ccnum: '4242424242424242', ccexp: '12/30', cccvv: '123' },
      consent: true,
    });
    // "View my order" must show the new order, not the list from before the visit was paid.
    expect(queryClient.getQueryState(orderKeys.details('lead-1'))?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(orderKeys.pending('lead-1'))?.isInvalidated).toBe(true);
  });
});
