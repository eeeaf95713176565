// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { accountsApi } from '#shared/accounts.ts';
import { sessionApi } from '#shared/session.ts';
import { clearToasts } from '#client/components/ui/toast.tsx';
import { getAppState, resetAppStateForTests } from '#client/lib/app-state.ts';
import {
  failure,
  LocationProbe,
  renderRoutes,
  stub,
  stubApi,
} from '#client/testing/render-app.tsx';
import { PublicOnlyRoute } from '#client/features/auth/components/route-guards.tsx';
import { SignupPage } from './signup-page.tsx';

const routes = [
  {
    element: <PublicOnlyRoute />,
    children: [{ path: '/signup', element: <SignupPage /> }],
  },
  { path: '/dashboard', element: <LocationProbe /> },
  { path: '/accounts/partner', element: <LocationProbe /> },
];

const loggedOut = stub(sessionApi.verifyAuthentication, { authenticated: false, user: null });
const user = {
  leads_id: 'lead-77',
  customer_id: 1077,
  first_name: 'Ann',
  last_name: 'Lee',
  email: 'ann@example.com',
};

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetAppStateForTests();
});
afterEach(() => {
  cleanup();
  clearToasts();
  vi.useRealTimers();
});

function field(label: string) {
  return screen.getByLabelText(label);
}

function errorOf(label: string): string | null {
  const input = field(label);
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  const error = ids
    .map((id) => document.getElementById(id))
    .find((el) => el?.id.endsWith('-error'));
  return error?.textContent ?? null;
}

describe('the sign-up form', () => {
  it("says 'Field required' for email, names and the consent message, tied to each field", async () => {
    const u = userEvent.setup();
    const api = stubApi([loggedOut]);
    renderRoutes(routes, { path: '/signup' });
    await u.click(await screen.findByRole('button', { name: 'Create account' }));
    expect(await screen.findAllByText('Field required')).toHaveLength(4);
    expect(errorOf('Email')).toBe('Field required');
    expect(errorOf('First name')).toBe('Field required');
    expect(errorOf('Last name')).toBe('Field required');
    expect(errorOf('Password')).toBe('Password is required');
    expect(errorOf('Date of birth')).toBe('You must enter a date of birth.');
    expect(errorOf('Phone')).toBe('Field required');
    expect(screen.getByText('Continue your online visit by checking the box above')).toBeTruthy();
    expect(field('Email').getAttribute('aria-invalid')).toBe('true');
    // Nothing was sent but the session check.
    expect(api.calls).toHaveLength(1);
    expect(api.callsTo(sessionApi.verifyAuthentication)).toHaveLength(1);
  });

  it('links the terms, the privacy policy and the consent to telehealth from the consent box', async () => {
    stubApi([loggedOut]);
    renderRoutes(routes, { path: '/signup' });
    const consent = await screen.findByRole('checkbox');
    const label = consent.closest('div')?.querySelector('label');
    expect(label).toBeTruthy();
    const hrefs = within(label as HTMLElement)
      .getAllByRole('link')
      .map((link) => link.getAttribute('href'));
    expect(hrefs).toEqual(['/terms', '/privacy', '/consent-to-telehealth']);
  });

  it('checks the date of birth with the messages of spec §5', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-06-15T12:00:00Z'));
    const u = userEvent.setup();
    stubApi([loggedOut]);
    renderRoutes(routes, { path: '/signup' });
    const dob = await screen.findByLabelText<HTMLInputElement>('Date of birth');
    expect(dob.getAttribute('inputmode')).toBe('numeric');
    const table: [string, string | null][] = [
      ['', 'You must enter a date of birth.'],
      ['1/15/2000', 'Date format must be MM/DD/YYYY.'],
      ['02/30/1990', 'Invalid date'],
      ['13/01/1990', 'Invalid date'],
      ['06/16/2007', 'Minimum age is 19'], // 19 tomorrow
      ['06/15/2007', null], // 19 today
      ['06/15/1926', 'Maximum age is 99'], // 100 today
      ['06/16/1926', null], // still 99
    ];
    for (const [typed, message] of table) {
      await u.clear(dob);
      if (typed) await u.type(dob, typed);
      await u.click(screen.getByRole('button', { name: 'Create account' }));
      expect(dob.value).toBe(typed);
      expect({ typed, message: errorOf('Date of birth') }).toEqual({ typed, message });
    }
  });

  it('fills in the slashes of the date of birth on a number keypad', async () => {
    const u = userEvent.setup();
    stubApi([loggedOut]);
    renderRoutes(routes, { path: '/signup' });
    const dob = await screen.findByLabelText<HTMLInputElement>('Date of birth');
    await u.type(dob, '04121990');
    expect(dob.value).toBe('04/12/1990');
  });

  async function fillValidForm(u: ReturnType<typeof userEvent.setup>) {
    await u.type(await screen.findByLabelText('Email'), 'Ann@Example.com');
    await u.type(field('First name'), 'Ann');
    await u.type(field('Last name'), 'Lee');
    await u.type(field('Password'), 'correct horse battery');
    await u.type(field('Date of birth'), '04/12/1990');
    await u.type(field('Phone'), '(555) 010-0123');
    await u.click(screen.getByRole('checkbox'));
  }

  it('puts a taken email on the email field and offers to log in', async () => {
    const u = userEvent.setup();
    stubApi([
      loggedOut,
      stub(
        accountsApi.accountCreate,
        failure(409, 'EMAIL_TAKEN', 'An account with this email already exists.', {
          email: 'An account with this email already exists.',
        }),
      ),
    ]);
    renderRoutes(routes, { path: '/signup' });
    await fillValidForm(u);
    await u.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(errorOf('Email')).toBe('An account with this email already exists.');
    expect(within(screen.getByRole('alert')).getByRole('link', { name: 'Log in' })).toBeTruthy();
    expect(getAppState().login.isLoggedIn).toBe(false);
  });

  it('logs the new customer in and goes to /dashboard', async () => {
    const u = userEvent.setup();
    const api = stubApi([
      loggedOut,
      stub(accountsApi.accountCreate, { leads_id: 'lead-77', user }),
    ]);
    renderRoutes(routes, { path: '/signup' });
    await fillValidForm(u);
    await u.click(screen.getByRole('button', { name: 'Create account' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/dashboard');
    expect(api.callsTo(accountsApi.accountCreate)[0]).toEqual({
      email: 'ann@example.com',
      first_name: 'Ann',
      last_name: 'Lee',
      password: 'correct horse battery',
      dob: '04/12/1990',
      phoneNo: '(555) 010-0123',
      consent: true,
    });
    expect(localStorage.getItem('leads_id')).toBe('lead-77');
    expect(getAppState().login.isLoggedIn).toBe(true);
  });

  it("keeps a partner's invitation through sign-up and goes on to the partner page showing it", async () => {
    const u = userEvent.setup();
    const token = 'a'.repeat(21) + '-' + 'B9'.repeat(10) + 'c';
    stubApi([loggedOut, stub(accountsApi.accountCreate, { leads_id: 'lead-77', user })]);
    renderRoutes(routes, { path: `/signup?partnerInvite=${token}` });
    expect(await screen.findByText(/Your partner invited you to link accounts/)).toBeTruthy();
    await fillValidForm(u);
    await u.click(screen.getByRole('button', { name: 'Create account' }));
    expect((await screen.findByTestId('location')).textContent).toBe(
      `/accounts/partner?invite=${token}`,
    );
  });

  it("sends someone already logged in who opens a partner's invitation link to the partner page with its token", async () => {
    const token = 'a'.repeat(21) + '-' + 'B9'.repeat(10) + 'c';
    stubApi([stub(sessionApi.verifyAuthentication, { authenticated: true, user })]);
    renderRoutes(routes, { path: `/signup?partnerInvite=${token}` });
    expect((await screen.findByTestId('location')).textContent).toBe(
      `/accounts/partner?invite=${token}`,
    );
  });

  it('sends someone logged in to /dashboard from /signup when the invitation token is not one of ours', async () => {
    stubApi([stub(sessionApi.verifyAuthentication, { authenticated: true, user })]);
    renderRoutes(routes, { path: '/signup?partnerInvite=//evil.example' });
    expect((await screen.findByTestId('location')).textContent).toBe('/dashboard');
  });

  it('ignores an invitation token that is not one of ours', async () => {
    const u = userEvent.setup();
    stubApi([loggedOut, stub(accountsApi.accountCreate, { leads_id: 'lead-77', user })]);
    renderRoutes(routes, { path: '/signup?partnerInvite=//evil.example' });
    await fillValidForm(u);
    await u.click(screen.getByRole('button', { name: 'Create account' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/dashboard');
  });
});
