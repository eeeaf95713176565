// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accountsApi } from '#shared/accounts.ts';
import { authApi } from '#shared/auth.ts';
import { sessionApi } from '#shared/session.ts';
import { clearToasts } from '#client/components/ui/toast.tsx';
import { resetAppStateForTests } from '#client/lib/app-state.ts';
import {
  failure,
  LocationProbe,
  renderRoutes,
  stub,
  stubApi,
} from '#client/testing/render-app.tsx';
import { PublicOnlyRoute } from '../components/route-guards.tsx';
import { LoginPage } from './login-page.tsx';
import { LoginUnlockPage } from './login-unlock-page.tsx';
import { UndoEmailChangePage } from '#client/features/accounts/pages/undo-email-change-page.tsx';

const routes: RouteObject[] = [
  {
    element: <PublicOnlyRoute />,
    children: [
      { path: '/login', element: <LoginPage /> },
      { path: '/login/unlock', element: <LoginUnlockPage /> },
    ],
  },
  { path: '/undo-email-change', element: <UndoEmailChangePage /> },
  { path: '/reset-password', element: <LocationProbe /> },
];

const visitor = stub(sessionApi.verifyAuthentication, { authenticated: false, user: null });
const paused =
  'Too many wrong passwords were tried for this account, so log-ins from new devices are paused. If it is your account, we can email you a link that lets this device log in.';
const linkSent =
  'If that address has an account whose log-ins are paused, we have emailed it a link. Open it on this device within 30 minutes to log in.';
const unlocked = 'This device can log in now. Log in with your email and password.';
const restored =
  'Your email address is back, and every device was logged out. Please choose a new password now.';
const TOKEN = 'a'.repeat(43);

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetAppStateForTests();
});
afterEach(() => {
  cleanup();
  clearToasts();
});

describe('log-in while the account is paused for new devices', () => {
  it('offers an emailed link for the address typed, and says when it is sent', async () => {
    const u = userEvent.setup();
    const api = stubApi([
      visitor,
      stub(authApi.login, failure(429, 'LOGIN_LOCKED', paused)),
      stub(authApi.loginUnlock, { message: linkSent }),
    ]);
    renderRoutes(routes, { path: '/login' });
    await u.type(await screen.findByLabelText('Email'), 'Dana@Example.com');
    await u.type(screen.getByLabelText('Password'), 'my real password');
    await u.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByRole('alert')).textContent).toContain(paused);

    await u.click(screen.getByRole('button', { name: 'Email me a link' }));
    expect((await screen.findByRole('alert')).textContent).toBe(linkSent);
    expect(api.callsTo(authApi.loginUnlock)[0]).toEqual({ email: 'dana@example.com' });
    // No password travels with the request for a link: only the log-in's own bodies carry it.
    const logins = api.callsTo(authApi.login);
    expect(JSON.stringify(api.calls.filter((c) => !logins.includes(c.body)))).not.toContain(
      'my real password',
    );
  });

  it('shows an ordinary refusal as before, with no offer', async () => {
    const u = userEvent.setup();
    stubApi([
      visitor,
      stub(
        authApi.login,
        failure(401, 'INVALID_CREDENTIALS', 'The email or password you entered is incorrect.'),
      ),
    ]);
    renderRoutes(routes, { path: '/login' });
    await u.type(await screen.findByLabelText('Email'), 'dana@example.com');
    await u.type(screen.getByLabelText('Password'), 'wrong one');
    await u.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The email or password you entered is incorrect.',
    );
    expect(screen.queryByRole('button', { name: 'Email me a link' })).toBeNull();
  });
});

describe('the unlock link (/login/unlock?id=…)', () => {
  it('is spent only when the button is pressed, then the log-in form follows', async () => {
    const u = userEvent.setup();
    const api = stubApi([visitor, stub(authApi.loginUnlockConfirm, { message: unlocked })]);
    renderRoutes(routes, { path: `/login/unlock?id=${TOKEN}` });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Log in on this device' }),
    ).toBeTruthy();
    expect(api.callsTo(authApi.loginUnlockConfirm)).toEqual([]);
    expect(screen.queryByLabelText('Password')).toBeNull();

    await u.click(screen.getByRole('button', { name: 'Let this device log in' }));
    expect((await screen.findByRole('alert')).textContent).toBe(unlocked);
    expect(api.callsTo(authApi.loginUnlockConfirm)[0]).toEqual({ token: TOKEN });
    expect(screen.getByLabelText('Password')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Log in' })).toBeTruthy();
  });

  it('says when it has expired or been used, and leads back to log in', async () => {
    const u = userEvent.setup();
    stubApi([
      visitor,
      stub(
        authApi.loginUnlockConfirm,
        failure(
          400,
          'UNLOCK_LINK_INVALID',
          'This link has expired or has already been used. Try to log in again to ask for a new one.',
        ),
      ),
    ]);
    renderRoutes(routes, { path: `/login/unlock?id=${TOKEN}` });
    await u.click(await screen.findByRole('button', { name: 'Let this device log in' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This link has expired or has already been used.',
    );
    expect(screen.getByRole('link', { name: 'Back to log in' }).getAttribute('href')).toBe(
      '/login',
    );
    expect(screen.queryByLabelText('Password')).toBeNull();
  });
});

describe('undoing an email change (/undo-email-change?id=…)', () => {
  it('puts the address back when the button is pressed, then leads to a new password', async () => {
    const u = userEvent.setup();
    const api = stubApi([
      stub(accountsApi.emailRestore, { email: 'dana@example.com' }, { message: restored }),
    ]);
    renderRoutes(routes, { path: `/undo-email-change?id=${TOKEN}` });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Undo email change' }),
    ).toBeTruthy();
    expect(api.calls).toHaveLength(0);
    await u.click(screen.getByRole('button', { name: 'Put my email address back' }));
    expect((await screen.findByRole('alert')).textContent).toBe(restored);
    expect(api.calls).toHaveLength(1);
    expect(api.callsTo(accountsApi.emailRestore)).toEqual([{ token: TOKEN }]);
    await u.click(screen.getByRole('link', { name: 'Choose a new password' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/reset-password');
  });

  it('says when the link cannot be used, with the support address', async () => {
    const u = userEvent.setup();
    stubApi([
      stub(
        accountsApi.emailRestore,
        failure(
          400,
          'EMAIL_UNDO_INVALID',
          'This link has expired or has already been used. If someone else changed your email, please write to us.',
        ),
      ),
    ]);
    renderRoutes(routes, { path: `/undo-email-change?id=${TOKEN}` });
    await u.click(await screen.findByRole('button', { name: 'Put my email address back' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'If someone else changed your email, please write to us.',
    );
    expect(screen.getByRole('link', { name: 'support@pairwell.example' })).toBeTruthy();
  });
});
