// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearToasts } from '#client/components/ui/toast.tsx';
import { resetAppStateForTests } from '#client/lib/app-state.ts';
import {
  failure,
  LocationProbe,
  ok,
  okMessage,
  renderRoutes,
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

const visitor = ok({ authenticated: false, user: null });
const paused =
  'Too many wrong passwords were tried for this account, so log-ins from new devices are paused. If it is your account, we can email you a link that lets this device log in.';
const linkSent =
  'If that address has an account whose log-ins are paused, we have emailed it a link. Open it on this device within 30 minutes to log in.';
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
    const api = stubApi({
      '/account/verifyauthentication/': visitor,
      '/account/login/': failure(429, 'LOGIN_LOCKED', paused),
      '/account/login/unlock/': okMessage(linkSent),
    });
    renderRoutes(routes, { path: '/login' });
    await u.type(await screen.findByLabelText('Email'), 'Dana@Example.com');
    await u.type(screen.getByLabelText('Password'), 'my real password');
    await u.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByRole('alert')).textContent).toContain(paused);

    await u.click(screen.getByRole('button', { name: 'Email me a link' }));
    expect((await screen.findByRole('alert')).textContent).toBe(linkSent);
    expect(api.calls.find((c) => c.path === '/account/login/unlock/')?.body).toEqual({
      email: 'dana@example.com',
    });
    // No password travels with the request for a link.
    expect(JSON.stringify(api.calls.filter((c) => c.path !== '/account/login/'))).not.toContain(
      'my real password',
    );
  });

  it('shows an ordinary refusal as before, with no offer', async () => {
    const u = userEvent.setup();
    stubApi({
      '/account/verifyauthentication/': visitor,
      '/account/login/': failure(
        401,
        'INVALID_CREDENTIALS',
        'The email or password you entered is incorrect.',
      ),
    });
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
    const api = stubApi({
      '/account/verifyauthentication/': visitor,
      '/account/login/unlock/confirm/': okMessage(
        'This device can log in now. Log in with your email and password.',
      ),
    });
    renderRoutes(routes, { path: `/login/unlock?id=${TOKEN}` });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Log in on this device' }),
    ).toBeTruthy();
    expect(api.calls.some((c) => c.path === '/account/login/unlock/confirm/')).toBe(false);
    expect(screen.queryByLabelText('Password')).toBeNull();

    await u.click(screen.getByRole('button', { name: 'Let this device log in' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This device can log in now. Log in with your email and password.',
    );
    expect(api.calls.find((c) => c.path === '/account/login/unlock/confirm/')?.body).toEqual({
      token: TOKEN,
    });
    expect(screen.getByLabelText('Password')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Log in' })).toBeTruthy();
  });

  it('says when it has expired or been used, and leads back to log in', async () => {
    const u = userEvent.setup();
    stubApi({
      '/account/verifyauthentication/': visitor,
      '/account/login/unlock/confirm/': failure(
        400,
        'UNLOCK_LINK_INVALID',
        'This link has expired or has already been used. Try to log in again to ask for a new one.',
      ),
    });
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
    const api = stubApi({
      '/account/email/restore/': {
        body: {
          status: 'SUCCESS',
          message:
            'Your email address is back, and every device was logged out. Please choose a new password now.',
          data: { email: 'dana@example.com' },
        },
      },
    });
    renderRoutes(routes, { path: `/undo-email-change?id=${TOKEN}` });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Undo email change' }),
    ).toBeTruthy();
    expect(api.calls).toHaveLength(0);
    await u.click(screen.getByRole('button', { name: 'Put my email address back' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Your email address is back, and every device was logged out. Please choose a new password now.',
    );
    expect(api.calls).toEqual([{ path: '/account/email/restore/', body: { token: TOKEN } }]);
    await u.click(screen.getByRole('link', { name: 'Choose a new password' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/reset-password');
  });

  it('says when the link cannot be used, with the support address', async () => {
    const u = userEvent.setup();
    stubApi({
      '/account/email/restore/': failure(
        400,
        'EMAIL_UNDO_INVALID',
        'This link has expired or has already been used. If someone else changed your email, please write to us.',
      ),
    });
    renderRoutes(routes, { path: `/undo-email-change?id=${TOKEN}` });
    await u.click(await screen.findByRole('button', { name: 'Put my email address back' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'If someone else changed your email, please write to us.',
    );
    expect(screen.getByRole('link', { name: 'support@pairwell.example' })).toBeTruthy();
  });
});
