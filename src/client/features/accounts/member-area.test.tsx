// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { accountsApi } from '#shared/accounts.ts';
import { authApi } from '#shared/auth.ts';
import { storageKeys } from '#shared/constants.ts';
import type { Order } from '#shared/orders.ts';
import { sessionApi } from '#shared/session.ts';
import { clearToasts } from '#client/components/ui/toast.tsx';
import { getAppState, resetAppStateForTests, setLeadsId } from '#client/lib/app-state.ts';
import {
  buildBasics,
  buildOrder,
  buildPatientData,
  memberStubs,
  sessionUser,
} from '#client/testing/member-fixtures.ts';
import { memberRoutes } from '#client/testing/member-routes.tsx';
import {
  failure,
  renderRoutes,
  stub,
  stubApi,
  type TestRouter,
} from '#client/testing/render-app.tsx';
import { accountNav, liveAccountNav } from './account-nav.ts';
import { AccountSidebar } from './components/account-sidebar.tsx';

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetAppStateForTests();
  window.innerWidth = 1280;
});
afterEach(() => {
  cleanup();
  clearToasts();
});

function pathOf(router: TestRouter) {
  const { pathname, search, hash } = router.location();
  return `${pathname}${search}${hash}`;
}

describe('the protected-route redirect', () => {
  it('sends a visitor without a leads id to /login and back to the full original path after login', async () => {
    const u = userEvent.setup();
    stubApi([
      ...memberStubs(),
      stub(sessionApi.verifyAuthentication, { authenticated: false, user: null }),
      stub(authApi.login, { leads_id: 'lead-1', user: sessionUser }),
    ]);
    const { router } = renderRoutes(memberRoutes, { path: '/accounts?section=card#payment' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in' })).toBeTruthy();
    expect(router.location().pathname).toBe('/login');
    expect(sessionStorage.getItem(storageKeys.returnPath)).toBe('/accounts?section=card#payment');

    await u.type(screen.getByLabelText('Email'), 'dana@example.com');
    await u.type(screen.getByLabelText('Password'), 'pairwell-demo');
    await u.click(screen.getByRole('button', { name: 'Log in' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Accounts' })).toBeTruthy();
    expect(pathOf(router)).toBe('/accounts?section=card#payment');
    expect(localStorage.getItem(storageKeys.leadsId)).toBe('lead-1');
    expect(getAppState().login.isLoggedIn).toBe(true);
    await waitFor(() => expect(sessionStorage.getItem(storageKeys.returnPath)).toBeNull());
  });

  it('does not let a leads id alone in: the server must say the session is authenticated', async () => {
    setLeadsId('lead-from-a-cookie');
    const api = stubApi([
      ...memberStubs(),
      stub(sessionApi.verifyAuthentication, { authenticated: false, user: null }),
    ]);
    const { router } = renderRoutes(memberRoutes, { path: '/dashboard' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in' })).toBeTruthy();
    expect(router.location().pathname).toBe('/login');
    expect(api.callsTo(accountsApi.basics)).toEqual([]);
  });

  it('shows the error message when the login is refused', async () => {
    const u = userEvent.setup();
    stubApi([
      stub(sessionApi.verifyAuthentication, { authenticated: false, user: null }),
      stub(authApi.login, failure(401, 'INVALID_CREDENTIALS', 'Email or password is incorrect.')),
    ]);
    renderRoutes(memberRoutes, { path: '/login' });
    await u.type(await screen.findByLabelText('Email'), 'dana@example.com');
    await u.type(screen.getByLabelText('Password'), 'wrong');
    await u.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Email or password is incorrect.');
    expect(getAppState().login.isLoggedIn).toBe(false);
  });

  it('sends a logged-in customer from /login to /dashboard', async () => {
    setLeadsId('lead-1');
    stubApi(memberStubs());
    const { router } = renderRoutes(memberRoutes, { path: '/login' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Hi, Dana' })).toBeTruthy();
    expect(router.location().pathname).toBe('/dashboard');
  });

  it('logs the customer out here too when a member call answers 401', async () => {
    setLeadsId('lead-1');
    stubApi([
      ...memberStubs(),
      stub(accountsApi.basics, failure(401, 'UNAUTHENTICATED', 'Please log in to continue.')),
    ]);
    const { router } = renderRoutes(memberRoutes, { path: '/dashboard' });
    await waitFor(() => expect(router.location().pathname).toBe('/login'));
    expect(getAppState().login.isLoggedIn).toBe(false);
  });
});

describe('the account layout', () => {
  it("shows the customer's name, 'Customer: {id}' and only the entries whose route exists", async () => {
    setLeadsId('lead-1');
    stubApi(memberStubs());
    renderRoutes(memberRoutes, { path: '/dashboard' });
    expect(await screen.findByText('Dana Rivera')).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Account' });
    expect(screen.getByText('Customer: 1042')).toBeTruthy();
    const links = within(nav)
      .getAllByRole('link')
      .map((link) => [link.textContent, link.getAttribute('href')]);
    expect(links).toEqual(liveAccountNav.map((entry) => [entry.label, entry.to]));
    expect(links).toEqual(
      expect.arrayContaining([
        ['Home', '/dashboard'],
        ['Accounts', '/accounts'],
        ['Log out', '/logout'],
      ]),
    );
    // Entries whose route is not built yet are not linked.
    for (const entry of accountNav.filter((candidate) => !candidate.exists)) {
      expect(within(nav).queryByRole('link', { name: new RegExp(entry.label) })).toBeNull();
    }
    expect(within(nav).queryByRole('img', { name: 'Needs attention' })).toBeNull();
    expect(document.title).toBe('Home — Pairwell');
  });

  it('keeps every spec entry, in order, in one list', () => {
    expect(accountNav.map((entry) => [entry.to, entry.label])).toEqual([
      ['/dashboard', 'Home'],
      ['/cart', 'Cart'],
      ['/messages', 'Messages'],
      ['/orders', 'Orders'],
      ['/subscriptions', 'Subscriptions'],
      ['/accounts', 'Accounts'],
      ['/logout', 'Log out'],
    ]);
  });

  it('marks Home with an attention icon when there are flags', async () => {
    setLeadsId('lead-1');
    stubApi(
      memberStubs({
        basics: buildBasics({
          flags: [
            {
              type: 'card_expired',
              message: 'Your card on file has expired.',
              href: '/accounts/editPaymentMethod',
            },
          ],
        }),
      }),
    );
    renderRoutes(memberRoutes, { path: '/accounts' });
    await screen.findByText('Customer: 1042');
    const nav = screen.getByRole('navigation', { name: 'Account' });
    const home = within(nav).getByRole('link', { name: /Home/ });
    expect(within(home).getByRole('img', { name: 'Needs attention' })).toBeTruthy();
  });

  it('shows the cart count on the Cart entry once the cart route exists', () => {
    const entries = accountNav.map((entry) => ({ ...entry, exists: true }));
    render(
      <MemoryRouter>
        <AccountSidebar basics={buildBasics({ cart_count: 3 })} entries={entries} />
      </MemoryRouter>,
    );
    const cart = screen.getByRole('link', { name: /Cart/ });
    expect(cart.getAttribute('href')).toBe('/cart');
    expect(cart.textContent).toBe('Cart3 items');
  });

  it('shows a spinner while the patient data loads, then the page', async () => {
    setLeadsId('lead-1');
    let answer: (() => void) | undefined;
    const { fetchMock } = stubApi(memberStubs());
    vi.stubGlobal(
      'fetch',
      vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
        const answered = fetchMock(input, init);
        const path = String(input).replace(/^\/lapi/, '');
        // The patient data is held back until the test lets it through.
        if (path === '/leads/patientdata')
          return new Promise<Response>((resolve) => {
            answer = () => resolve(answered);
          });
        return answered;
      }),
    );
    renderRoutes(memberRoutes, { path: '/dashboard' });
    expect(await screen.findByText('Loading your account…')).toBeTruthy();
    expect(screen.getByText('Loading your account…').closest('[role="status"]')).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
    await waitFor(() => expect(answer).toBeDefined());
    act(() => answer?.());
    expect(await screen.findByRole('heading', { level: 1, name: 'Hi, Dana' })).toBeTruthy();
  });

  it('shows the error message text when the patient data does not load', async () => {
    setLeadsId('lead-1');
    stubApi([
      ...memberStubs(),
      stub(accountsApi.patientData, failure(500, 'INTERNAL', 'Internal error')),
    ]);
    renderRoutes(memberRoutes, { path: '/dashboard' });
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Did not receive expected lead patient data',
    );
  });

  it('collapses the sidebar behind a menu button at 1024px and below', async () => {
    window.innerWidth = 1024;
    setLeadsId('lead-1');
    stubApi(memberStubs());
    const u = userEvent.setup();
    renderRoutes(memberRoutes, { path: '/dashboard' });
    const button = await screen.findByRole('button', { name: 'Account menu' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    const sidebar = document.getElementById(button.getAttribute('aria-controls') ?? '');
    expect(sidebar?.hidden).toBe(true);
    expect(screen.queryByRole('navigation', { name: 'Account' })).toBeNull();

    await u.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(sidebar?.hidden).toBe(false);
    await u.keyboard('{Tab}');
    await u.keyboard('{Escape}');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
  });

  it('opens the sidebar again when the window grows past 1024px (after the 200 ms debounce)', async () => {
    window.innerWidth = 800;
    setLeadsId('lead-1');
    stubApi(memberStubs());
    const addListener = vi.spyOn(window, 'addEventListener');
    renderRoutes(memberRoutes, { path: '/dashboard' });
    expect(await screen.findByRole('button', { name: 'Account menu' })).toBeTruthy();
    // Preact attaches the resize listener in an effect, a frame after the paint: wait for it to be
    // attached before the clock is frozen.
    await waitFor(() => expect(addListener).toHaveBeenCalledWith('resize', expect.any(Function)));
    vi.useFakeTimers();
    try {
      window.innerWidth = 1280;
      act(() => {
        window.dispatchEvent(new Event('resize'));
      });
      act(() => vi.advanceTimersByTime(199));
      expect(screen.queryByRole('button', { name: 'Account menu' })).not.toBeNull();
      act(() => vi.advanceTimersByTime(1));
      expect(screen.queryByRole('button', { name: 'Account menu' })).toBeNull();
      expect(screen.getByRole('navigation', { name: 'Account' })).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('Home (/dashboard)', () => {
  it('greets by first name, lists what needs attention, and links only to pages that exist', async () => {
    setLeadsId('lead-1');
    stubApi(
      memberStubs({
        basics: buildBasics({
          flags: [
            {
              type: 'payment_failed',
              message: 'We could not charge your card for order A1003.',
              href: '/accounts/editPaymentMethod',
            },
            { type: 'unread_messages', message: 'You have 2 unread messages.', href: '/messages' },
          ],
        }),
      }),
    );
    renderRoutes(memberRoutes, { path: '/dashboard' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Hi, Dana' })).toBeTruthy();
    const attention = screen.getByRole('region', { name: 'Needs attention' });
    const items = within(attention).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'We could not charge your card for order A1003.Update payment method',
      'You have 2 unread messages.Read your messages',
    ]);
    expect(
      within(attention).getByRole('link', { name: 'Update payment method' }).getAttribute('href'),
    ).toBe('/accounts/editPaymentMethod');
    expect(
      within(attention).getByRole('link', { name: 'Read your messages' }).getAttribute('href'),
    ).toBe('/messages');
  });

  it('shows the three most recent orders with number, date, status and total', async () => {
    setLeadsId('lead-1');
    const orders = [
      buildOrder({ order_number: 'A1001', order_date: '2026-01-05T10:00:00Z' }),
      buildOrder({
        order_number: 'A1004',
        order_date: '2026-04-20T10:00:00Z',
        order_status: 'DECLINED',
        order_total_cents: 4500,
      }),
      buildOrder({ order_number: 'A1002', order_date: '2026-02-11T10:00:00Z' }),
      buildOrder({ order_number: 'A1003', order_date: '2026-03-02T10:00:00Z' }),
    ];
    stubApi(memberStubs({ patientData: buildPatientData(orders) }));
    renderRoutes(memberRoutes, { path: '/dashboard' });
    const recent = await screen.findByRole('region', { name: 'Recent orders' });
    const rows = within(recent).getAllByRole('listitem');
    expect(rows.map((row) => within(row).getByRole('heading').textContent)).toEqual([
      'Order #A1004',
      'Order #A1003',
      'Order #A1002',
    ]);
    expect(rows[0]?.textContent).toContain('Apr 20, 2026');
    expect(rows[0]?.textContent).toContain('$45.00');
    expect(within(rows[0] as HTMLElement).getByText('Declined').className).toContain('text-danger');
    // Each order leads to its anchor on the Orders page.
    expect(within(recent).getByRole('link', { name: 'Order #A1004' }).getAttribute('href')).toBe(
      '/orders#A1004',
    );
  });

  it("says where an approved visit's medicine is, in one line, and a fill the pharmacy could not make with why", async () => {
    setLeadsId('lead-1');
    const prescription = {
      drug: 'Sildenafil (generic Viagra®)',
      dose: '50 mg',
      quantity: 6,
      refills_left: 2,
      valid_until: '2027-09-17',
      directions: 'Take one tablet about an hour before.',
    };
    const approved = (order_number: string, pharmacy: Order['pharmacy']) =>
      buildOrder({
        order_number,
        order_kind: 'visit',
        order_status: 'PROCESSING',
        visit: { state: 'APPROVED', prescription },
        pharmacy,
      });
    stubApi(
      memberStubs({
        patientData: buildPatientData([
          approved('A2001', {
            steps: [
              { step: 'sent', at: '2026-11-20T09:00:00.000Z' },
              { step: 'filled', at: '2026-11-21T10:00:00.000Z' },
              { step: 'received', at: '2026-11-20T09:05:00.000Z' },
            ],
            rejected_reason: null,
          }),
          approved('A2002', {
            steps: [
              { step: 'sent', at: '2026-11-20T09:00:00.000Z' },
              { step: 'rejected', at: '2026-11-22T09:00:00.000Z' },
            ],
            rejected_reason: 'The prescription could not be verified.',
          }),
        ]),
      }),
    );
    renderRoutes(memberRoutes, { path: '/dashboard' });
    const treatment = await screen.findByRole('region', { name: 'Your treatment' });
    expect(
      within(treatment)
        .getAllByText('Your medicine:')
        .map((label) => label.parentElement?.textContent),
    ).toEqual([
      'Your medicine: Filled by the pharmacist on Nov 21, 2026.',
      'Your medicine: The pharmacy could not fill it on Nov 22, 2026. The prescription could not be verified. Your provider will write to you in Messages.',
    ]);
  });

  it('raises a prescription due for renewal on Home, and where a renewal already sent stands', async () => {
    setLeadsId('lead-1');
    const patientData = buildPatientData();
    patientData.lander.renewals = [
      {
        category: 'ed',
        program: 'Erectile dysfunction treatment',
        medicine: 'Sildenafil (generic Viagra®) 50 mg',
        status: 'due',
        refills_remaining: 1,
        valid_until: '2027-05-20',
        href: '/visit/ed/renew',
      },
      {
        category: 'hair',
        program: 'Hair loss treatment',
        medicine: 'Finasteride 1 mg',
        status: 'in_review',
        refills_remaining: 0,
        valid_until: '2026-12-10',
        href: '/visit/hair/renew',
      },
    ];
    stubApi(memberStubs({ patientData }));
    renderRoutes(memberRoutes, { path: '/dashboard' });
    const card = await screen.findByRole('region', { name: 'Renew your prescription' });
    expect(
      within(card)
        .getByRole('link', {
          name: 'Renew your prescription for Sildenafil (generic Viagra®) 50 mg',
        })
        .getAttribute('href'),
    ).toBe('/visit/ed/renew');
    expect(within(card).getByText(/1 refill left; valid until May 20, 2027\./)).toBeTruthy();
    expect(within(card).getByText('Your answers are with your provider.')).toBeTruthy();
    expect(within(card).getAllByRole('link')).toHaveLength(1);
  });

  it('sends a customer with no orders to the shop', async () => {
    setLeadsId('lead-1');
    stubApi(memberStubs());
    renderRoutes(memberRoutes, { path: '/dashboard' });
    const recent = await screen.findByRole('region', { name: 'Recent orders' });
    expect(
      within(recent).getByRole('link', { name: 'Shop supplements' }).getAttribute('href'),
    ).toBe('/#supplements');
  });
});

describe('/logout', () => {
  it('ends the session, forgets all local state and the cache, and goes to /login with a toast', async () => {
    setLeadsId('lead-1');
    localStorage.setItem(storageKeys.cart, '[]');
    sessionStorage.setItem(storageKeys.clickId, 'click-1');
    const api = stubApi([...memberStubs(), stub(authApi.logout, { message: 'Logged out' })]);
    const { router, queryClient } = renderRoutes(memberRoutes, { path: '/dashboard' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Hi, Dana' })).toBeTruthy();
    api.fetchMock.mockClear();
    stubApi([
      stub(authApi.logout, { message: 'Logged out' }),
      stub(sessionApi.verifyAuthentication, { authenticated: false, user: null }),
    ]);
    await act(() => router.navigate('/logout'));
    expect(await screen.findByText("You're logged out")).toBeTruthy();
    await waitFor(() => expect(router.location().pathname).toBe('/login'));
    expect(localStorage.getItem(storageKeys.leadsId)).toBeNull();
    expect(localStorage.getItem(storageKeys.cart)).toBeNull();
    expect(sessionStorage.getItem(storageKeys.clickId)).toBeNull();
    expect(getAppState().login.isLoggedIn).toBe(false);
    expect(queryClient.getQueryData(['/account/basics', 'lead-1'])).toBeUndefined();
  });
});
