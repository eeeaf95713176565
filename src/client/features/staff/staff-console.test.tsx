// @vitest-environment jsdom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { operationsApi } from '#shared/operations.ts';
import { reviewsApi } from '#shared/reviews.ts';
import { staffApi } from '#shared/staff.ts';
import { clearToasts } from '#client/components/ui/toast.tsx';
import {
  failure,
  renderRoutes,
  stub,
  stubApi,
  waitForDialogToClose,
  waitForDialogToOpen,
} from '#client/testing/render-app.tsx';
import { buildOrder, loggedIn, ops, provider } from '#client/testing/staff-fixtures.ts';
import { dollarsToCents } from '#client/features/operations/components/order-action-dialog.tsx';
import { PatientMessagesPage } from '#client/features/reviews/pages/patient-messages-page.tsx';
import { PatientThreadPage } from '#client/features/reviews/pages/patient-thread-page.tsx';
import { StaffLayout } from './components/staff-layout.tsx';
import { StaffHomePage } from './pages/staff-home-page.tsx';
import { StaffLoginPage } from './pages/staff-login-page.tsx';
import { StaffInboxPage } from '#client/features/operations/pages/staff-inbox-page.tsx';
import { StaffOrderPage } from '#client/features/operations/pages/staff-order-page.tsx';
import { StaffThreadPage } from '#client/features/operations/pages/staff-thread-page.tsx';
import { StaffUnlockPage } from './pages/staff-unlock-page.tsx';
import { STAFF_IDLE_MS } from './use-idle-timeout.ts';

const routes: RouteObject[] = [
  { path: '/staff/login', element: <StaffLoginPage /> },
  { path: '/staff/login/unlock', element: <StaffUnlockPage /> },
  {
    element: <StaffLayout />,
    children: [
      { path: '/staff', element: <StaffHomePage /> },
      { path: '/staff/orders/:id', element: <StaffOrderPage /> },
      { path: '/staff/inbox', element: <StaffInboxPage /> },
      { path: '/staff/inbox/:id', element: <StaffThreadPage /> },
      { path: '/staff/patient-messages', element: <PatientMessagesPage /> },
      { path: '/staff/patient-messages/:id', element: <PatientThreadPage /> },
    ],
  },
];

const loggedOut = stub(staffApi.me, { authenticated: false, staff: null });

beforeEach(() => {
  window.innerWidth = 1280;
});
afterEach(() => {
  vi.useRealTimers();
  cleanup();
  clearToasts();
});

describe('the staff log-in', () => {
  it('asks for the code the way authenticator apps fill it in', async () => {
    stubApi([loggedOut]);
    renderRoutes(routes, { path: '/staff/login' });
    const code = await screen.findByLabelText('Authentication code');
    expect(code.getAttribute('inputmode')).toBe('numeric');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(code.getAttribute('maxlength')).toBe('6');
    expect(
      screen.getByText(
        'The 6-digit code your authenticator app shows for Pairwell Staff. It changes every 30 seconds.',
      ),
    ).toBeTruthy();
    expect(document.title).toBe('Staff log in — Pairwell Staff');
  });

  it('says what is missing before asking the server', async () => {
    const u = userEvent.setup();
    const api = stubApi([loggedOut]);
    renderRoutes(routes, { path: '/staff/login' });
    await u.click(await screen.findByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Field required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(screen.getByText('Enter the 6-digit code from your authenticator app')).toBeTruthy();
    expect(screen.getByLabelText('Work email')).toBe(document.activeElement);

    await u.type(screen.getByLabelText('Work email'), 'ops@');
    await u.type(screen.getByLabelText('Authentication code'), '12a4');
    await u.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Invalid Email')).toBeTruthy();
    expect(screen.getByLabelText('Authentication code').getAttribute('aria-invalid')).toBe('true');
    expect(api.callsTo(staffApi.login)).toEqual([]);
  });

  it('shows a refused log-in once, clears the used code and waits for the next one', async () => {
    const u = userEvent.setup();
    stubApi([
      loggedOut,
      stub(
        staffApi.login,
        failure(401, 'INVALID_CREDENTIALS', 'The email, password or code is incorrect.'),
      ),
    ]);
    renderRoutes(routes, { path: '/staff/login' });
    await u.type(await screen.findByLabelText('Work email'), 'ops@pairwell.test');
    await u.type(screen.getByLabelText('Password'), 'pairwell-ops');
    await u.type(screen.getByLabelText('Authentication code'), '123456');
    await u.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The email, password or code is incorrect.',
    );
    const code = screen.getByLabelText<HTMLInputElement>('Authentication code');
    expect(code.value).toBe('');
    expect(code).toBe(document.activeElement);
  });

  it("puts the server's field messages on the fields and shows a rate limit as a message", async () => {
    const u = userEvent.setup();
    let attempt = 0;
    stubApi([
      loggedOut,
      stub(staffApi.login, () =>
        ++attempt === 1
          ? failure(400, 'VALIDATION', 'Please check the highlighted fields.', {
              code: 'Enter the 6-digit code from your authenticator app',
            })
          : failure(429, 'RATE_LIMITED', 'Too many attempts. Please wait a moment and try again.'),
      ),
    ]);
    renderRoutes(routes, { path: '/staff/login' });
    await u.type(await screen.findByLabelText('Work email'), 'ops@pairwell.test');
    await u.type(screen.getByLabelText('Password'), 'pairwell-ops');
    await u.type(screen.getByLabelText('Authentication code'), '123456');
    await u.click(screen.getByRole('button', { name: 'Log in' }));
    expect(
      await screen.findByText('Enter the 6-digit code from your authenticator app'),
    ).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    await u.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many attempts. Please wait a moment and try again.',
    );
  });

  it('offers an emailed link when the account is paused for new devices, and the link then lets this device log in', async () => {
    const u = userEvent.setup();
    const paused =
      'Too many wrong passwords were tried for this account, so log-ins from new devices are paused. If it is your account, we can email you a link that lets this device log in.';
    const api = stubApi([
      loggedOut,
      stub(staffApi.login, failure(429, 'LOGIN_LOCKED', paused)),
      // Their declared messages: the emailed link, then that this device can log in.
      stub(staffApi.unlock, {}),
      stub(staffApi.unlockConfirm, {}),
    ]);
    renderRoutes(routes, { path: '/staff/login' });
    await u.type(await screen.findByLabelText('Work email'), 'ops@pairwell.test');
    await u.type(screen.getByLabelText('Password'), 'pairwell-ops');
    await u.type(screen.getByLabelText('Authentication code'), '123456');
    await u.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByRole('alert')).textContent).toContain(paused);
    await u.click(screen.getByRole('button', { name: 'Email me a link' }));
    expect((await screen.findByRole('alert')).textContent).toContain('we have emailed it a link');
    expect(api.callsTo(staffApi.unlock)[0]).toEqual({
      email: 'ops@pairwell.test',
    });
    cleanup();

    renderRoutes(routes, { path: `/staff/login/unlock?id=${'b'.repeat(43)}` });
    await u.click(await screen.findByRole('button', { name: 'Let this device log in' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This device can log in now. Log in with your password and authenticator code.',
    );
    expect(api.callsTo(staffApi.unlockConfirm)[0]).toEqual({
      token: 'b'.repeat(43),
    });
    expect(screen.getByLabelText('Authentication code')).toBeTruthy();
  });

  it('sends a visitor to the log-in and back to the page they wanted afterwards', async () => {
    const u = userEvent.setup();
    const api = stubApi([
      loggedOut,
      stub(staffApi.login, { staff: ops }),
      stub(operationsApi.order, { order: buildOrder() }),
    ]);
    const { router } = renderRoutes(routes, { path: '/staff/orders/12' });
    await screen.findByRole('heading', { level: 1, name: 'Staff log in' });
    expect(router.location().pathname).toBe('/staff/login');
    await u.type(screen.getByLabelText('Work email'), ' OPS@pairwell.test ');
    await u.type(screen.getByLabelText('Password'), 'pairwell-ops');
    await u.type(screen.getByLabelText('Authentication code'), '654321');
    await u.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Order PW-100112' })).toBeTruthy();
    expect(router.location().pathname).toBe('/staff/orders/12');
    expect(api.callsTo(staffApi.login)[0]).toEqual({
      email: 'ops@pairwell.test',
      password: 'pairwell-ops',
      code: '654321',
    });
    // The header says who is logged in.
    const banner = screen.getAllByRole('banner')[0];
    expect(banner?.textContent).toContain('Pairwell Staff');
    expect(banner?.textContent).toContain('Sam Ortiz');
    expect(banner?.textContent).toContain('Operations');
    expect(within(banner!).getByRole('button', { name: 'Log out' })).toBeTruthy();
  });
});

describe('the staff session', () => {
  it('ends after 15 minutes without activity, with a message', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldAdvanceTime: true });
    const api = stubApi([
      loggedIn(provider),
      stub(reviewsApi.queue, { visits: [], pharmacy_rejections: [], requests: [] }),
      stub(staffApi.logout, {}),
    ]);
    const { router } = renderRoutes(routes, { path: '/staff' });
    await screen.findByRole('heading', { level: 1, name: 'Review queue' });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(STAFF_IDLE_MS - 60_000);
    });
    // Activity puts the time-out back.
    await act(async () => {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab' }));
      await vi.advanceTimersByTimeAsync(STAFF_IDLE_MS - 60_000);
    });
    expect(api.callsTo(staffApi.logout)).toEqual([]);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(60_000);
    });
    await waitFor(() => expect(router.location().pathname).toBe('/staff/login'));
    expect(api.callsTo(staffApi.logout).length > 0).toBe(true);
    expect(await screen.findByText('Logged out after 15 minutes without activity')).toBeTruthy();
  });

  it('stays logged in while someone works in another tab of the console', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldAdvanceTime: true });
    const api = stubApi([
      loggedIn(provider),
      stub(reviewsApi.queue, { visits: [], pharmacy_rejections: [], requests: [] }),
    ]);
    const { router } = renderRoutes(routes, { path: '/staff' });
    await screen.findByRole('heading', { level: 1, name: 'Review queue' });
    const otherTab = new BroadcastChannel('pairwell-staff-activity');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(STAFF_IDLE_MS - 60_000);
      otherTab.postMessage({ activeAt: Date.now() });
      await new Promise((resolve) => setImmediate(resolve));
      await vi.advanceTimersByTimeAsync(5 * 60_000);
    });
    otherTab.close();
    expect(router.location().pathname).toBe('/staff');
    expect(api.callsTo(staffApi.logout)).toEqual([]);
  });

  it('goes back to the log-in when the server says the session ended', async () => {
    stubApi([
      loggedIn(ops),
      stub(
        operationsApi.orders,
        failure(401, 'STAFF_UNAUTHENTICATED', 'Please log in to the staff console.'),
      ),
    ]);
    const { router } = renderRoutes(routes, { path: '/staff?status=SHIPPED' });
    await waitFor(() => expect(router.location().pathname).toBe('/staff/login'));
    expect(await screen.findByText('Your staff session ended')).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 1, name: 'Staff log in' })).toBeTruthy();
  });

  it('shows providers their review queue, not the orders', async () => {
    const api = stubApi([
      loggedIn(provider),
      stub(reviewsApi.queue, {
        visits: [
          {
            visit_id: 41,
            patient: 'Robin Hale',
            age: 41,
            state: 'OR',
            category: 'ed',
            submitted_at: '2026-05-04T16:20:00.000Z',
            risk_flags: 1,
            treatment: 'Sildenafil 50mg',
            review_requested: false,
            kind: 'visit',
          },
          {
            visit_id: 42,
            patient: 'Sam Ortiz',
            age: 52,
            state: 'OR',
            category: 'ed',
            submitted_at: '2026-05-05T09:00:00.000Z',
            risk_flags: 0,
            treatment: 'Renewal',
            review_requested: false,
            kind: 'renewal',
          },
        ],
        pharmacy_rejections: [
          {
            visit_id: 37,
            order_number: 'PW-100188',
            patient: 'Alex Morgan',
            state: 'OR',
            category: 'ed',
            reason: 'The prescriber’s licence could not be verified.',
            rejected_at: '2026-05-03T10:00:00.000Z',
          },
        ],
        requests: [
          {
            request_id: 5,
            thread_id: 61,
            kind: 'early_refill',
            reason: 'My medicine was lost or damaged',
            patient: 'Jo Banks',
            state: 'OR',
            category: 'ed',
            medicine: 'Sildenafil 50 mg',
            created_at: '2026-05-04T08:00:00.000Z',
          },
        ],
      }),
    ]);
    renderRoutes(routes, { path: '/staff' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Review queue' })).toBeTruthy();
    expect(
      await screen.findByText(
        '2 visits are waiting for your review, oldest first. 1 fill the pharmacy rejected needs you. 1 request from a patient waits for your decision.',
        { exact: false },
      ),
    ).toBeTruthy();
    // A fill the pharmacy rejected (issue 29) is a task first, with its reason and its chart.
    const rejected = screen.getByRole('region', { name: 'The pharmacy could not fill (1)' });
    expect(rejected.textContent).toContain('The prescriber’s licence could not be verified.');
    expect(rejected.textContent).toContain('Order PW-100188');
    expect(within(rejected).getByRole('link', { name: 'Alex Morgan' }).getAttribute('href')).toBe(
      '/staff/visits/37',
    );
    // A request between visits opens its conversation, where the provider decides.
    const requests = screen.getByRole('region', { name: 'Requests between visits (1)' });
    expect(requests.textContent).toContain('My medicine was lost or damaged');
    expect(
      within(requests)
        .getByRole('link', { name: 'Early refill request: Jo Banks' })
        .getAttribute('href'),
    ).toBe('/staff/patient-messages/61');
    const links = screen.getAllByRole('link', { name: /Robin Hale/ });
    expect(links[0]?.getAttribute('href')).toBe('/staff/visits/41');
    // Renewals (issue 29) wait beside the new visits, in their own list.
    const newVisits = screen.getByRole('region', { name: 'New visits (1)' });
    expect(within(newVisits).getAllByRole('link', { name: /Robin Hale/ }).length).toBeGreaterThan(
      0,
    );
    const renewals = screen.getByRole('region', { name: 'Renewals (1)' });
    expect(
      within(renewals)
        .getAllByRole('link', { name: /Sam Ortiz/ })[0]
        ?.getAttribute('href'),
    ).toBe('/staff/visits/42');
    expect(api.callsTo(operationsApi.orders)).toEqual([]);
  });
});

describe('an order in the console', () => {
  it("is marked shipped with a checked tracking number, and the server's message is shown", async () => {
    const u = userEvent.setup();
    const shipped = buildOrder({
      order_status: 'SHIPPED',
      tracking_number: '9400111899223197428490',
      actions: ['deliver', 'refund'],
    });
    const api = stubApi([
      loggedIn(ops),
      stub(operationsApi.order, { order: buildOrder() }),
      stub(operationsApi.ship, { order: shipped }),
    ]);
    renderRoutes(routes, { path: '/staff/orders/12' });
    await u.click(await screen.findByRole('button', { name: 'Mark shipped' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ship order PW-100112' });
    await u.type(within(dialog).getByLabelText('Tracking number'), '94001');
    await u.click(within(dialog).getByRole('button', { name: 'Mark shipped' }));
    expect(
      await within(dialog).findByText('Enter a USPS tracking number (10 to 34 letters and digits)'),
    ).toBeTruthy();
    await u.type(within(dialog).getByLabelText('Tracking number'), '11899223197428490');
    await u.click(within(dialog).getByRole('button', { name: 'Mark shipped' }));
    await waitForDialogToClose();
    expect(api.callsTo(operationsApi.ship)[0]).toEqual({
      order_id: 12,
      tracking_number: '9400111899223197428490',
    });
    expect(
      await screen.findByText('Marked shipped; the customer was emailed the tracking link.'),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: /9400111899223197428490/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Mark delivered' })).toBeTruthy();
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('region', { name: 'Actions' })),
    );
  });

  it('asks for the amount in dollars and a reason, nothing pre-filled, and sends cents', async () => {
    const u = userEvent.setup();
    const api = stubApi([
      loggedIn(ops),
      stub(operationsApi.order, { order: buildOrder({ refund_cents: 500 }) }),
      stub(operationsApi.refund, {
        order: buildOrder({ refund_cents: 1750, actions: ['ship', 'refund', 'cancel'] }),
      }),
    ]);
    renderRoutes(routes, { path: '/staff/orders/12' });
    await u.click(await screen.findByRole('button', { name: 'Refund (up to $30.00)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund order PW-100112' });
    const amount = within(dialog).getByLabelText<HTMLInputElement>('Amount (USD)');
    const reason = within(dialog).getByLabelText<HTMLInputElement>(/Reason/);
    expect(amount.value).toBe('');
    expect(reason.value).toBe('');
    await u.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(await within(dialog).findByText('Say why you are refunding')).toBeTruthy();
    await u.type(amount, '31');
    await u.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(await within(dialog).findByText('At most $30.00 can be refunded.')).toBeTruthy();
    await u.clear(amount);
    await u.type(amount, '12.5');
    await u.type(reason, 'Arrived damaged');
    await u.click(within(dialog).getByRole('button', { name: 'Refund $12.50' }));
    await waitForDialogToClose();
    expect(api.callsTo(operationsApi.refund)[0]).toEqual({
      order_id: 12,
      amount_cents: 1250,
      reason: 'Arrived damaged',
    });
    expect(await screen.findByText('Refunded; the customer was emailed a receipt.')).toBeTruthy();
  });

  it('shows why the server refused a change', async () => {
    const u = userEvent.setup();
    stubApi([
      loggedIn(ops),
      stub(operationsApi.order, { order: buildOrder() }),
      stub(
        operationsApi.cancel,
        failure(409, 'ORDER_STATE', 'Order PW-100112 is shipped and cannot be cancelled.'),
      ),
    ]);
    renderRoutes(routes, { path: '/staff/orders/12' });
    await u.click(await screen.findByRole('button', { name: 'Cancel order' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel order PW-100112?' });
    expect(dialog.textContent).toContain("$35.00 is refunded to the customer's card in full.");
    await waitForDialogToOpen(dialog);
    await u.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Order PW-100112 is shipped and cannot be cancelled.',
    );
  });
});

describe("the care team's inbox", () => {
  const question = {
    id: 41,
    thread_id: 9,
    sender: 'patient' as const,
    author: 'Robin',
    body: 'When will my order ship?',
    created_at: '2026-11-20T09:00:00.000Z',
    read: true,
  };

  it('lists waiting conversations first, opens one and sends the answer', async () => {
    const u = userEvent.setup();
    const api = stubApi([
      loggedIn(ops),
      stub(operationsApi.inbox, {
        threads: [
          {
            thread_id: 9,
            subject: 'Order PW-100112',
            topic: 'order',
            provider: null,
            patient: 'Robin H.',
            customer_id: 77,
            order_number: 'PW-100112',
            updated_at: '2026-11-20T09:00:00.000Z',
            unread: 1,
            last_sender: 'patient',
            waiting_for_provider: false,
          },
          {
            thread_id: 4,
            subject: 'Changing my address',
            topic: 'other',
            provider: null,
            patient: 'Ada L.',
            customer_id: 12,
            order_number: null,
            updated_at: '2026-11-18T09:00:00.000Z',
            unread: 0,
            last_sender: 'care_team',
            waiting_for_provider: false,
          },
          // A question for a provider: operations see who has it, not what it says.
          {
            thread_id: 5,
            subject: null,
            topic: 'treatment',
            provider: 'Dr. Maya Chen, MD',
            patient: 'Lee P.',
            customer_id: 13,
            order_number: null,
            updated_at: '2026-11-19T09:00:00.000Z',
            unread: 1,
            last_sender: 'patient',
            waiting_for_provider: true,
          },
        ],
      }),
      stub(operationsApi.inboxThread, {
        thread: {
          id: 9,
          subject: 'Order PW-100112',
          topic: 'order',
          visit_id: null,
          order_number: 'PW-100112',
          updated_at: '2026-11-20T09:00:00.000Z',
          unread: 0,
          messages: [question],
          has_more: false,
          next_cursor: null,
        },
        patient: { name: 'Robin Hale', customer_id: 77 },
        providers: [
          { id: 3, name: 'Dr. Maya Chen, MD', licensed_in_state: true },
          { id: 8, name: 'Dr. Lee Park, MD', licensed_in_state: false },
        ],
      }),
      stub(operationsApi.inboxHandOff, {}),
      stub(operationsApi.inboxReply, {
        message: {
          ...question,
          id: 42,
          sender: 'care_team',
          author: 'Sam Ortiz',
          body: 'It ships tomorrow.',
        },
      }),
    ]);
    renderRoutes(routes, { path: '/staff/inbox' });
    expect(await screen.findByText('1 conversation is waiting for an answer.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Inbox' }).getAttribute('aria-current')).toBe('page');
    const links = screen.getAllByRole('link', { name: /Order PW-100112|Changing my address/ });
    expect(links.map((link) => link.textContent)).toEqual([
      expect.stringContaining('1 new'),
      expect.stringContaining('Answered'),
    ]);
    const forProviders = screen.getByRole('region', { name: 'Questions for providers' });
    expect(within(forProviders).queryAllByRole('link')).toEqual([]);
    expect(within(forProviders).getByText('Lee P. · Customer 13')).toBeTruthy();
    expect(within(forProviders).getByText('With Dr. Maya Chen, MD')).toBeTruthy();
    expect(within(forProviders).getByText('Waiting for a provider')).toBeTruthy();
    await u.click(links[0]!);
    expect(await screen.findByRole('heading', { level: 1, name: 'Order PW-100112' })).toBeTruthy();
    expect(screen.getByText('Robin Hale · Customer 77 · About order PW-100112')).toBeTruthy();
    expect(
      within(screen.getByRole('log', { name: 'Conversation with Robin Hale' })).getByText(
        'When will my order ship?',
      ),
    ).toBeTruthy();
    await u.type(screen.getByLabelText('Answer to the patient'), 'It ships tomorrow.');
    await u.click(screen.getByRole('button', { name: 'Send answer' }));
    await waitFor(() =>
      expect(api.callsTo(operationsApi.inboxReply)[0]).toEqual({
        thread_id: 9,
        body: 'It ships tomorrow.',
      }),
    );

    // A question for a provider after all: handed to one, and back to the inbox.
    await u.click(screen.getByRole('button', { name: 'Hand to a provider' }));
    const dialog = await screen.findByRole('dialog', { name: 'Hand to a provider' });
    const choice = within(dialog).getByLabelText('Provider');
    // Those licensed in the patient's state first, and said so.
    expect(
      [...choice.querySelectorAll('optgroup')].map((group) => [
        group.label,
        [...group.querySelectorAll('option')].map((o) => o.textContent),
      ]),
    ).toEqual([
      ["Licensed in the patient's state", ['Dr. Maya Chen, MD']],
      ["Not licensed in the patient's state", ['Dr. Lee Park, MD']],
    ]);
    await u.click(within(dialog).getByRole('button', { name: 'Hand to this provider' }));
    await waitFor(() =>
      expect(api.callsTo(operationsApi.inboxHandOff)[0]).toEqual({
        thread_id: 9,
        provider_id: 3,
      }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Inbox' })).toBeTruthy();
  });

  it('is for operations staff: a provider goes back to their queue', async () => {
    stubApi([
      loggedIn(provider),
      stub(reviewsApi.queue, { visits: [], pharmacy_rejections: [], requests: [] }),
    ]);
    renderRoutes(routes, { path: '/staff/inbox' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Review queue' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Inbox' })).toBeNull();
  });
});

describe("a provider's patient messages", () => {
  const question = {
    id: 51,
    thread_id: 12,
    sender: 'patient' as const,
    author: 'Lee',
    body: 'Can I take melatonin with wine?',
    created_at: '2026-11-20T09:00:00.000Z',
    read: true,
  };

  it('lists the questions about treatment, opens one and sends the answer', async () => {
    const u = userEvent.setup();
    const api = stubApi([
      loggedIn(provider),
      stub(reviewsApi.queue, { visits: [], pharmacy_rejections: [], requests: [] }),
      stub(reviewsApi.patientMessages, {
        threads: [
          {
            thread_id: 12,
            subject: 'Melatonin and wine',
            patient: 'Lee P.',
            state: 'OR',
            assigned: 'me',
            updated_at: '2026-11-20T09:00:00.000Z',
            unread: 1,
            last_sender: 'patient',
            waiting_for_provider: true,
          },
          {
            thread_id: 14,
            subject: 'A rash',
            patient: 'Kim W.',
            state: 'WA',
            assigned: 'open',
            updated_at: '2026-11-19T09:00:00.000Z',
            unread: 0,
            last_sender: 'patient',
            waiting_for_provider: true,
          },
          // Operations answered the order part and handed it over: still a provider's to answer.
          {
            thread_id: 15,
            subject: 'Refill timing',
            patient: 'Noor A.',
            state: 'OR',
            assigned: 'me',
            updated_at: '2026-11-18T09:00:00.000Z',
            unread: 0,
            last_sender: 'care_team',
            waiting_for_provider: true,
          },
        ],
      }),
      stub(reviewsApi.patientThread, {
        thread: {
          id: 12,
          subject: 'Melatonin and wine',
          topic: 'treatment',
          visit_id: null,
          order_number: null,
          updated_at: '2026-11-20T09:00:00.000Z',
          unread: 0,
          messages: [question],
          has_more: false,
          next_cursor: null,
        },
        patient: { name: 'Lee Park', customer_id: 13, state: 'OR' },
        assigned: 'me',
        visit_id: 31,
        prescriptions: [
          {
            visit_id: 31,
            medicine: 'Melatonin 3 mg',
            directions: 'One tablet 30 minutes before bed.',
            refills: 2,
            valid_until: '2027-06-30',
          },
        ],
        request: null,
      }),
      stub(reviewsApi.patientReply, {
        message: {
          ...question,
          id: 52,
          sender: 'care_team',
          author: 'Dr. Maya Chen, MD',
          body: 'Best not together.',
        },
      }),
    ]);
    renderRoutes(routes, { path: '/staff' });
    await u.click(await screen.findByRole('link', { name: 'Patient messages' }));
    // Three: the one operations answered about its order part still waits for a clinician.
    expect(await screen.findByText('3 questions are waiting for an answer.')).toBeTruthy();
    const links = screen.getAllByRole('link', { name: /Melatonin and wine|A rash|Refill timing/ });
    expect(links.map((link) => link.textContent)).toEqual([
      expect.stringContaining('Lee P. · OR · Yours'),
      expect.stringContaining('Kim W. · WA · Open to providers in the state'),
      expect.stringContaining('Waiting for an answer'),
    ]);
    await u.click(links[0]!);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Melatonin and wine' }),
    ).toBeTruthy();
    expect(screen.getByText('Lee Park · Customer 13 · OR')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open the latest visit' }).getAttribute('href')).toBe(
      '/staff/visits/31',
    );
    // Beside the question, what the patient takes now, with the chart it came from.
    const active = screen.getByRole('region', { name: 'Active prescriptions' });
    expect(within(active).getByText('Melatonin 3 mg')).toBeTruthy();
    expect(within(active).getByText(/One tablet 30 minutes before bed\./)).toBeTruthy();
    expect(
      within(active).getByText(/2 refills prescribed · valid until 06\/30\/2027/),
    ).toBeTruthy();
    expect(within(active).getByRole('link', { name: 'Chart' }).getAttribute('href')).toBe(
      '/staff/visits/31',
    );
    await u.type(screen.getByLabelText('Answer to the patient'), 'Best not together.');
    await u.click(screen.getByRole('button', { name: 'Send answer' }));
    await waitFor(() =>
      expect(api.callsTo(reviewsApi.patientReply)[0]).toEqual({
        thread_id: 12,
        body: 'Best not together.',
      }),
    );
  });

  it('opens a request between visits with its decision: an early refill moved to a date, with a message', async () => {
    const u = userEvent.setup();
    const request = {
      id: 5,
      kind: 'early_refill' as const,
      reason: 'My medicine was lost or damaged',
      status: 'OPEN' as const,
      created_at: '2026-11-20T08:00:00.000Z',
      category: 'ed' as const,
      prescription: {
        medicine: 'Sildenafil 50 mg',
        drug: 'sildenafil',
        dosage: '50mg',
        quantity: 6,
        refills: 3,
        directions: 'One tablet an hour before.',
        valid_until: '2027-06-30',
        written_on: '2026-10-01',
      },
      visit_id: 31,
      plan: { status: 'ACTIVE', next_billing_date: '2026-12-20', refills_remaining: 3 },
      outcomes: ['refill_date' as const, 'decline' as const, 'answer' as const],
      decision: null,
    };
    const api = stubApi([
      loggedIn(provider),
      stub(reviewsApi.patientThread, {
        thread: {
          id: 61,
          subject: 'Early refill request',
          topic: 'treatment',
          visit_id: null,
          order_number: null,
          updated_at: '2026-11-20T08:00:00.000Z',
          unread: 0,
          messages: [{ ...question, thread_id: 61, body: 'My medicine was lost or damaged.' }],
          has_more: false,
          next_cursor: null,
        },
        patient: { name: 'Jo Banks', customer_id: 14, state: 'OR' },
        assigned: 'me',
        visit_id: 31,
        prescriptions: [],
        request,
      }),
      stub(reviewsApi.decideRequest, {
        request: {
          ...request,
          status: 'APPROVED',
          outcomes: [],
          decision: {
            outcome: 'refill_date',
            provider: 'Dr. Maya Chen, MD',
            decided_at: '2026-11-21T12:00:00.000Z',
            refill_date: '2026-11-23',
            prescription: null,
          },
        },
      }),
    ]);
    renderRoutes(routes, { path: '/staff/patient-messages/61' });
    const panel = await screen.findByRole('region', { name: 'Early refill request' });
    expect(panel.textContent).toContain('My medicine was lost or damaged');
    expect(panel.textContent).toContain('Sildenafil 50 mg');
    expect(panel.textContent).toContain('3 fills left');
    expect(within(panel).getByRole('link', { name: 'Open the chart' }).getAttribute('href')).toBe(
      '/staff/visits/31',
    );
    // A dose change is not offered for an early refill.
    expect(within(panel).queryByRole('button', { name: 'Prescribe a change' })).toBeNull();
    await u.click(within(panel).getByRole('button', { name: 'Send the next refill early' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send the next refill early?' });
    await waitForDialogToOpen(dialog);
    const date = within(dialog).getByLabelText('Send the next refill on');
    await u.clear(date);
    await u.type(date, '2026-11-23');
    await u.click(within(dialog).getByRole('button', { name: 'Move the refill' }));
    // The message comes with every decision: nothing is sent without it.
    expect(
      await within(dialog).findByText('Write to the patient, in a sentence or two'),
    ).toBeTruthy();
    expect(api.callsTo(reviewsApi.decideRequest)).toEqual([]);
    await u.type(
      within(dialog).getByLabelText('Message to the patient'),
      'A new supply goes out on Monday.',
    );
    await u.click(within(dialog).getByRole('button', { name: 'Move the refill' }));
    await waitForDialogToClose();
    expect(api.callsTo(reviewsApi.decideRequest)).toEqual([
      {
        request_id: 5,
        outcome: 'refill_date',
        date: '2026-11-23',
        message: 'A new supply goes out on Monday.',
      },
    ]);
  });

  it('is for providers: operations go back to their orders', async () => {
    stubApi([loggedIn(ops), stub(operationsApi.orders, { orders: [] })]);
    renderRoutes(routes, { path: '/staff/patient-messages' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Orders' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Patient messages' })).toBeNull();
  });
});

describe('amounts in dollars', () => {
  it('become cents, and anything else is refused', () => {
    expect(dollarsToCents('12.5')).toBe(1250);
    expect(dollarsToCents('$12.05')).toBe(1205);
    expect(dollarsToCents('7')).toBe(700);
    expect(dollarsToCents('1.234')).toBeNull();
    expect(dollarsToCents('-3')).toBeNull();
    expect(dollarsToCents('')).toBeNull();
  });
});
