// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearToasts } from '#client/components/ui/toast.tsx';
import { resetAppStateForTests, setLeadsId, setOnlineVisitUser } from '#client/lib/app-state.ts';
import { buildAccountData } from '#client/testing/member-fixtures.ts';
import { orderKeys } from '#client/features/orders/orders.api.ts';
import {
  failure,
  LocationProbe,
  renderRoutes,
  stub,
  stubApi,
} from '#client/testing/render-app.tsx';
import { accountsApi } from '#shared/accounts.ts';
import { visitsApi } from '#shared/visits.ts';
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

/** The server's summary of a sildenafil visit: $30.00 held now, $30.00 for each monthly refill. */
const summary = stub(visitsApi.checkoutSummary, {
  summary: {
    treatment: 'Sildenafil (generic Viagra®)',
    dose: '50 mg',
    supply: '6 doses a month, as needed',
    authorized_cents: 3000,
    refill_cents: 3000,
  },
});

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

describe("the visit's checkout", () => {
  it('puts the focus on the first field with a problem, top to bottom', async () => {
    const u = userEvent.setup();
    const api = stubApi([
      stub(accountsApi.accountData, buildAccountData({ shipping: null, card: null })),
      summary,
    ]);
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
    // Nothing was submitted.
    expect(api.callsTo(visitsApi.checkout)).toEqual([]);
  });

  it('authorises the card with the address and goes on to the confirmation', async () => {
    const u = userEvent.setup();
    const api = stubApi([
      stub(accountsApi.accountData, buildAccountData({ card: null, phoneNo: '5035550177' })),
      summary,
      stub(visitsApi.checkout, {
        order_number: 'PW-1001',
        amount_cents: 3000,
        destination: '/visit/ed/submitted',
      }),
    ]);
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
    expect(api.callsTo(visitsApi.checkout)[0]).toEqual({
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

  it('shows the treatment, the amount authorised now and how refills renew and stop, beside the card and in the consent', async () => {
    const api = stubApi([stub(accountsApi.accountData, buildAccountData({ card: null })), summary]);
    renderRoutes(routes, { path: '/visit/ed/checkout' });
    const box = await screen.findByRole('region', { name: 'Your treatment and price' });
    expect(api.callsTo(visitsApi.checkoutSummary)[0]).toEqual({
      visit_id: 9,
    });
    const text = box.textContent ?? '';
    expect(text).toContain('Sildenafil (generic Viagra®), 50 mg');
    expect(text).toContain('6 doses a month, as needed');
    expect(text).toContain('$30.00 a month');
    expect(text).toContain('Authorized now$30.00');
    expect(text).toContain('Charged only if your provider approves');
    expect(text).toContain('Refills renew automatically each month');
    expect(text).toContain(
      'If your provider prescribes refills (they decide how many), this card is charged $30.00 automatically each month, starting one month after approval',
    );
    expect(text).toContain('until the ones your provider prescribed run out or you cancel');
    expect(within(box).getByRole('link', { name: /^Subscriptions/ })).toHaveProperty(
      'pathname',
      '/subscriptions',
    );
    expect(within(box).getByRole('link', { name: /^send us a message/ })).toHaveProperty(
      'pathname',
      '/messages',
    );
    // The summary comes before the card fields, the consent after them.
    const card = screen.getByLabelText('Card number');
    expect(box.compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    const consent = screen.getByRole<HTMLInputElement>('checkbox', {
      name: /I authorize Pairwell/,
    });
    expect(consent.labels?.[0]?.textContent).toBe(
      'I authorize Pairwell to charge my card $30.00 for this treatment if my provider approves it and, if refills are prescribed, $30.00 every month after that until they run out or I cancel. I can cancel any time on the Subscriptions page of my account or by messaging Pairwell. I agree to the Terms of Service (opens in a new tab).',
    );
  });

  it('sends a patient whose visit is not at checkout back to their visit, with no card asked for', async () => {
    stubApi([
      stub(accountsApi.accountData, buildAccountData({ card: null })),
      stub(
        visitsApi.checkoutSummary,
        failure(409, 'VISIT_STEP', 'Please finish the earlier steps of your visit first.'),
      ),
    ]);
    renderRoutes(routes, { path: '/visit/ed/checkout' });
    expect(
      await screen.findByText('Please finish the earlier steps of your visit first.'),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to my visit' })).toHaveProperty(
      'pathname',
      '/visit/ed',
    );
    expect(screen.queryByLabelText('Card number')).toBeNull();
  });
});
