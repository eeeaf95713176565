// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authApi } from '#shared/auth.ts';
import { messages } from '#shared/wording.ts';
import { clearToasts } from '#client/components/ui/toast.tsx';
import { resetAppStateForTests } from '#client/lib/app-state.ts';
import {
  failure,
  LocationProbe,
  renderRoutes,
  stub,
  stubApi,
} from '#client/testing/render-app.tsx';
import { ResetPasswordPage } from './reset-password-page.tsx';

const routes = [
  { path: '/reset-password', element: <ResetPasswordPage /> },
  { path: '/login', element: <LocationProbe /> },
];

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetAppStateForTests();
});
afterEach(() => {
  cleanup();
  clearToasts();
});

describe('request mode (no id in the address)', () => {
  it('has the spec title, text, email field and button', () => {
    renderRoutes(routes, { path: '/reset-password' });
    expect(screen.getByRole('heading', { level: 1, name: 'Reset Password' })).toBeTruthy();
    expect(
      screen.getByText(
        "Enter the email address and we'll email you a link to reset your password.",
      ),
    ).toBeTruthy();
    expect(screen.getByLabelText('Email')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send reset link' })).toBeTruthy();
    expect(document.title).toBe('Reset Password — Pairwell');
  });

  it("says 'Email is required' and 'Invalid Email' on the field", async () => {
    const user = userEvent.setup();
    const api = stubApi([]);
    renderRoutes(routes, { path: '/reset-password' });
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    const email = screen.getByLabelText('Email');
    expect(await screen.findByText('Email is required')).toBeTruthy();
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(email.getAttribute('aria-describedby')).toBe(
      screen.getByText('Email is required').closest('p')?.id,
    );
    await user.type(email, 'not-an-address');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Invalid Email')).toBeTruthy();
    expect(api.calls).toEqual([]);
  });

  it('after a 200 shows the success toast and clears the form', async () => {
    const user = userEvent.setup();
    sessionStorage.setItem('click_id', 'click-5');
    const api = stubApi([stub(authApi.reset, { message: 'Sent' })]);
    renderRoutes(routes, { path: '/reset-password' });
    const email = screen.getByLabelText<HTMLInputElement>('Email');
    await user.type(email, 'Ann@Example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText(messages.resetRequested)).toBeTruthy();
    expect(
      'If an account under that email address is found we will email you a password reset email',
    ).toBe(messages.resetRequested);
    await waitFor(() => expect(email.value).toBe(''));
    expect(api.calls).toHaveLength(1);
    expect(api.callsTo(authApi.reset)).toEqual([
      { email: 'ann@example.com', clicks_id: 'click-5' },
    ]);
  });

  it("after any other answer shows the toast 'Something went wrong.'", async () => {
    const user = userEvent.setup();
    stubApi([stub(authApi.reset, failure(500, 'INTERNAL', 'Internal error'))]);
    renderRoutes(routes, { path: '/reset-password' });
    await user.type(screen.getByLabelText('Email'), 'ann@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Something went wrong.')).toBeTruthy();
  });
});

const linkWorks = stub(authApi.passwordResetCheck, { valid: true });

describe('a reset link already used or expired', () => {
  it("says so at once, before any form, with request mode's way to a new link", async () => {
    const user = userEvent.setup();
    const api = stubApi([
      stub(authApi.passwordResetCheck, { valid: false }),
      stub(authApi.reset, { message: 'Sent' }),
    ]);
    renderRoutes(routes, { path: '/reset-password?id=spent' });
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This link has already been used or has expired.',
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Reset Password' })).toBeTruthy();
    expect(
      screen.getByText(
        "Enter the email address and we'll email you a link to reset your password.",
      ),
    ).toBeTruthy();
    expect(screen.queryByLabelText('New password')).toBeNull();
    // Asking spends nothing: only the check was sent, with the token.
    expect(api.calls).toHaveLength(1);
    expect(api.callsTo(authApi.passwordResetCheck)).toEqual([{ token: 'spent' }]);
    await user.type(screen.getByLabelText('Email'), 'ann@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText(messages.resetRequested)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('when the check cannot answer, shows the update form (the update then says)', async () => {
    stubApi([
      stub(authApi.passwordResetCheck, failure(429, 'TOO_MANY_ATTEMPTS', 'Too many attempts.')),
    ]);
    renderRoutes(routes, { path: '/reset-password?id=tok' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Update Password' })).toBeTruthy();
  });
});

describe('update mode (?id=<token>)', () => {
  it('has the spec title, two password fields and the button', async () => {
    stubApi([linkWorks]);
    renderRoutes(routes, { path: '/reset-password?id=tok123' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Update Password' })).toBeTruthy();
    expect(screen.getByLabelText('New password')).toBeTruthy();
    expect(screen.getByLabelText('Confirm password')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Update Password' })).toBeTruthy();
  });

  it("says 'Password is required', 'Password confirm is required' and 'Passwords must match'", async () => {
    const user = userEvent.setup();
    const api = stubApi([linkWorks]);
    renderRoutes(routes, { path: '/reset-password?id=tok123' });
    await user.click(await screen.findByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Password is required')).toBeTruthy();
    expect(screen.getByText('Password confirm is required')).toBeTruthy();
    await user.type(screen.getByLabelText('New password'), 'correct horse battery');
    await user.type(screen.getByLabelText('Confirm password'), 'correct horse battery!');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Passwords must match')).toBeTruthy();
    expect(api.calls).toHaveLength(1);
    expect(api.callsTo(authApi.passwordResetCheck)).toHaveLength(1);
  });

  it('on SUCCESS sends the token and password, then goes to /login with a toast', async () => {
    const user = userEvent.setup();
    const api = stubApi([
      linkWorks,
      stub(authApi.passwordUpdate, { message: 'Your password was updated.' }),
    ]);
    renderRoutes(routes, { path: '/reset-password?id=tok123' });
    await user.type(await screen.findByLabelText('New password'), 'correct horse battery');
    await user.type(screen.getByLabelText('Confirm password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/login');
    expect(screen.getByText('Password updated')).toBeTruthy();
    // The link's check, then the update.
    expect(api.calls).toHaveLength(2);
    expect(api.callsTo(authApi.passwordResetCheck)).toHaveLength(1);
    expect(api.callsTo(authApi.passwordUpdate)).toEqual([
      { token: 'tok123', password: 'correct horse battery' },
    ]);
  });

  it('otherwise shows the server message and stays', async () => {
    const user = userEvent.setup();
    stubApi([
      linkWorks,
      stub(
        authApi.passwordUpdate,
        failure(400, 'TOKEN_INVALID', 'This reset link has expired or was already used.'),
      ),
    ]);
    renderRoutes(routes, { path: '/reset-password?id=old' });
    await user.type(await screen.findByLabelText('New password'), 'correct horse battery');
    await user.type(screen.getByLabelText('Confirm password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This reset link has expired or was already used.',
    );
    expect(screen.queryByTestId('location')).toBeNull();
  });

  it('puts a password the server refuses on the password field', async () => {
    const user = userEvent.setup();
    stubApi([
      linkWorks,
      stub(
        authApi.passwordUpdate,
        failure(400, 'VALIDATION', 'Please check the highlighted fields.', {
          password: messages.passwordTooCommon,
        }),
      ),
    ]);
    renderRoutes(routes, { path: '/reset-password?id=tok' });
    await user.type(await screen.findByLabelText('New password'), 'password123');
    await user.type(screen.getByLabelText('Confirm password'), 'password123');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText(messages.passwordTooCommon)).toBeTruthy();
    expect(screen.getByLabelText('New password').getAttribute('aria-invalid')).toBe('true');
  });
});
