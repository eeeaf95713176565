// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearToasts } from '#client/components/ui/toast.tsx';
import { AccountLayout } from '#client/features/accounts/components/account-layout.tsx';
import { SignupPage } from '#client/features/accounts/pages/signup-page.tsx';
import { PublicOnlyRoute, RequireAuth } from '#client/features/auth/components/route-guards.tsx';
import { LoginPage } from '#client/features/auth/pages/login-page.tsx';
import { resetAppStateForTests, setLeadsId } from '#client/lib/app-state.ts';
import { memberStubs, sessionUser } from '#client/testing/member-fixtures.ts';
import { failure, renderRoutes, stub, stubApi } from '#client/testing/render-app.tsx';
import { accountsApi } from '#shared/accounts.ts';
import { authApi } from '#shared/auth.ts';
import { partnersApi, type PartnerOverview } from '#shared/partners.ts';
import { sessionApi } from '#shared/session.ts';
import { PartnerPage } from './partner-page.tsx';

const routes: RouteObject[] = [
  {
    element: <PublicOnlyRoute />,
    children: [
      { path: '/login', element: <LoginPage /> },
      { path: '/signup', element: <SignupPage /> },
    ],
  },
  {
    element: <RequireAuth />,
    children: [
      {
        element: <AccountLayout />,
        children: [{ path: '/accounts/partner', element: <PartnerPage /> }],
      },
    ],
  },
];

/** An invitation's token as its email carries it: 43 URL-safe characters. */
const token = 'a'.repeat(21) + '-' + 'B9'.repeat(10) + 'c';
const loggedIn = { authenticated: true, user: sessionUser };
const loggedOut = { authenticated: false, user: null };

function overview(received: PartnerOverview['received'] = []): PartnerOverview {
  return {
    partner: null,
    you_share: { address: false, orders: false, subscriptions: false },
    sent: null,
    received,
    history: [],
    visit_invitations: { can_send: [], received: [] },
    email_verified: true,
  };
}

const openInvitation: PartnerOverview['received'][number] = {
  invitation_id: 5,
  from_first_name: 'Alex',
  sent_at: '2026-11-20T10:00:00.000Z',
  expires_at: '2026-12-04T10:00:00.000Z',
};

const closedNotice = 'This invitation is no longer open.';
const whatToDo = /ask your partner to send you a new invitation/;

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetAppStateForTests();
});
afterEach(() => {
  cleanup();
  clearToasts();
});

describe("the partner page opened from an invitation's link", () => {
  it('says plainly that a withdrawn invitation is no longer open, and what to do, to someone logged in', async () => {
    setLeadsId(sessionUser.leads_id);
    const api = stubApi([
      ...memberStubs(),
      // The withdrawn invitation is not among those received: the server shows only open ones.
      stub(partnersApi.overview, overview()),
    ]);
    renderRoutes(routes, { path: `/accounts/partner?invite=${token}` });
    const section = await screen.findByRole('region', { name: 'Your partner' });
    expect(await within(section).findByText(closedNotice)).toBeTruthy();
    expect(within(section).getByText(whatToDo)).toBeTruthy();
    expect(within(section).queryByRole('button', { name: 'Accept' })).toBeNull();
    expect(api.callsTo(partnersApi.overview)[0]).toEqual({ invite_token: token });
  });

  it('says so after signing up from the emailed link', async () => {
    const u = userEvent.setup();
    let signedUp = false;
    stubApi([
      ...memberStubs(),
      stub(sessionApi.verifyAuthentication, () => (signedUp ? loggedIn : loggedOut)),
      stub(accountsApi.accountCreate, () => {
        signedUp = true;
        return { leads_id: sessionUser.leads_id, user: sessionUser };
      }),
      stub(partnersApi.overview, overview()),
    ]);
    renderRoutes(routes, { path: `/signup?partnerInvite=${token}` });
    await u.type(await screen.findByLabelText('Email'), 'dana@example.com');
    await u.type(screen.getByLabelText('First name'), 'Dana');
    await u.type(screen.getByLabelText('Last name'), 'Rivera');
    await u.type(screen.getByLabelText('Password'), 'correct horse battery');
    await u.type(screen.getByLabelText('Date of birth'), '04/12/1990');
    await u.type(screen.getByLabelText('Phone'), '(555) 010-0123');
    await u.click(screen.getByRole('checkbox'));
    await u.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText(closedNotice)).toBeTruthy();
    expect(screen.getByText(whatToDo)).toBeTruthy();
  });

  it('says so after logging in on the way', async () => {
    const u = userEvent.setup();
    let loggedInNow = false;
    stubApi([
      ...memberStubs(),
      stub(sessionApi.verifyAuthentication, () => (loggedInNow ? loggedIn : loggedOut)),
      stub(authApi.login, () => {
        loggedInNow = true;
        return { leads_id: sessionUser.leads_id, user: sessionUser };
      }),
      stub(partnersApi.overview, overview()),
    ]);
    renderRoutes(routes, { path: `/accounts/partner?invite=${token}` });
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in' })).toBeTruthy();
    await u.type(screen.getByLabelText('Email'), 'dana@example.com');
    await u.type(screen.getByLabelText('Password'), 'pairwell-demo');
    await u.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText(closedNotice)).toBeTruthy();
    expect(screen.getByText(whatToDo)).toBeTruthy();
  });

  it('shows an invitation still open to answer, and says what to do once it closed before the answer', async () => {
    const u = userEvent.setup();
    setLeadsId(sessionUser.leads_id);
    let withdrawn = false;
    const api = stubApi([
      ...memberStubs(),
      stub(partnersApi.overview, () => overview(withdrawn ? [] : [openInvitation])),
      stub(partnersApi.accept, () => {
        withdrawn = true;
        return failure(409, 'INVITATION_CLOSED', closedNotice);
      }),
    ]);
    renderRoutes(routes, { path: `/accounts/partner?invite=${token}` });
    const section = await screen.findByRole('region', { name: 'Your partner' });
    const accept = await within(section).findByRole('button', { name: 'Accept' });
    expect(within(section).getByText(/invited you to link as partners/)).toBeTruthy();
    expect(within(section).queryByText(closedNotice)).toBeNull();

    await u.click(accept);
    expect(await within(section).findByText(closedNotice)).toBeTruthy();
    expect(within(section).getByText(whatToDo)).toBeTruthy();
    expect(within(section).queryByRole('button', { name: 'Accept' })).toBeNull();
    expect(api.callsTo(partnersApi.accept)[0]).toEqual({
      invitation_id: 5,
      invite_token: token,
    });
  });
});

describe('the partner page before the address is confirmed (issue 26)', () => {
  it('says invitations wait for a confirmed address, and sends the link again', async () => {
    const u = userEvent.setup();
    setLeadsId(sessionUser.leads_id);
    const api = stubApi([
      ...memberStubs(),
      stub(partnersApi.overview, { ...overview(), email_verified: false }),
      stub(accountsApi.emailVerifySend, { sent_to: 'dana@example.com', email_verified: false }),
    ]);
    renderRoutes(routes, { path: '/accounts/partner' });
    const section = await screen.findByRole('region', { name: 'Your partner' });
    expect(
      await within(section).findByText(
        'Confirm your email address to see or accept partner invitations.',
      ),
    ).toBeTruthy();
    await u.click(within(section).getByRole('button', { name: 'Send the link again' }));
    expect(
      await screen.findByText(
        'We sent a new link to dana@example.com. It works once, within 48 hours.',
      ),
    ).toBeTruthy();
    expect(api.callsTo(accountsApi.emailVerifySend).length > 0).toBe(true);
  });
});
