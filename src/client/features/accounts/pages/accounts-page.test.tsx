// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { format, parseISO } from 'date-fns';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accountsApi } from '#shared/accounts.ts';
import { authApi } from '#shared/auth.ts';
import { clearToasts } from '#client/components/ui/toast.tsx';
import { resetAppStateForTests, setLeadsId } from '#client/lib/app-state.ts';
import { buildAccountData, memberStubs } from '#client/testing/member-fixtures.ts';
import { memberRoutes } from '#client/testing/member-routes.tsx';
import { failure, renderRoutes, stub, stubApi, type Stub } from '#client/testing/render-app.tsx';

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetAppStateForTests();
  setLeadsId('lead-1');
  window.innerWidth = 1280;
});
afterEach(() => {
  cleanup();
  clearToasts();
});

const sessions = stub(authApi.sessions, {
  sessions: [
    {
      id: 's1',
      current: true,
      created_at: '2026-05-01T09:00:00Z',
      last_seen_at: '2026-05-02T10:30:00Z',
      device: 'Chrome on macOS',
      network: '203.0.113.x',
    },
    {
      id: 's2',
      current: false,
      created_at: '2026-04-01T09:00:00Z',
      last_seen_at: '2026-04-03T08:05:00Z',
      device: 'Safari on iPhone',
      network: null,
    },
  ],
});

/** The Accounts page; `extra` stubs override the member's (the last match answers). */
async function openAccounts(extra: Stub[] = [], account = buildAccountData()) {
  const api = stubApi([...memberStubs({ accountData: account }), sessions, ...extra]);
  const rendered = renderRoutes(memberRoutes, { path: '/accounts' });
  await screen.findByRole('region', { name: 'Account details' });
  return { api, ...rendered };
}

/** 'MMMM dd, yyyy H:mm' (spec §9) in the machine's time zone, as the page shows it. */
function local(iso: string): string {
  return format(parseISO(iso), 'MMMM dd, yyyy H:mm');
}

function section(name: string) {
  return within(screen.getByRole('region', { name }));
}

describe('Account details', () => {
  it("saves with /account/update/ and shows 'Account update' / 'Account updated successfully'", async () => {
    const u = userEvent.setup();
    const { api } = await openAccounts([
      stub(accountsApi.accountUpdate, { message: 'Account updated successfully' }),
    ]);
    const details = section('Account details');
    expect(details.getByLabelText<HTMLInputElement>('Date of birth').value).toBe('04/12/1990');
    await u.clear(details.getByLabelText('First name'));
    await u.type(details.getByLabelText('First name'), 'Danielle');
    await u.click(details.getByRole('button', { name: 'Save details' }));
    expect(await screen.findByText('Account update')).toBeTruthy();
    expect(screen.getByText('Account updated successfully')).toBeTruthy();
    expect(api.callsTo(accountsApi.accountUpdate)[0]).toEqual({
      leads_id: 'lead-1',
      prospect: {
        first_name: 'Danielle',
        last_name: 'Rivera',
        email: 'dana@example.com',
        phoneNo: '(555) 010-0123',
        dob: '04/12/1990',
      },
    });
  });

  it('shows a FAILURE message, and field messages on their fields', async () => {
    const u = userEvent.setup();
    await openAccounts([
      stub(
        accountsApi.accountUpdate,
        failure(409, 'EMAIL_TAKEN', 'That email is already in use.', {
          'prospect.email': 'That email is already in use.',
        }),
      ),
    ]);
    const details = section('Account details');
    await u.click(details.getByRole('button', { name: 'Save details' }));
    expect(await details.findByText('That email is already in use.')).toBeTruthy();
    expect(details.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
  });

  it('asks for the current password only when the email changes, and sends it with the change', async () => {
    const u = userEvent.setup();
    let attempt = 0;
    const { api } = await openAccounts([
      stub(accountsApi.accountUpdate, () =>
        ++attempt === 1
          ? failure(400, 'WRONG_PASSWORD', 'Your current password is incorrect.', {
              current_password: 'Your current password is incorrect.',
            })
          : { message: 'Account updated successfully' },
      ),
    ]);
    const details = section('Account details');
    expect(details.queryByLabelText('Current password')).toBeNull();
    await u.clear(details.getByLabelText('Email'));
    await u.type(details.getByLabelText('Email'), 'new-dana@example.com');
    const current = details.getByLabelText('Current password');
    expect(current.getAttribute('autocomplete')).toBe('current-password');

    // Nothing is sent without it, and the field says why.
    await u.click(details.getByRole('button', { name: 'Save details' }));
    expect(
      await details.findByText('Enter your current password to change your email.'),
    ).toBeTruthy();
    expect(current.getAttribute('aria-invalid')).toBe('true');
    expect(api.callsTo(accountsApi.accountUpdate)).toEqual([]);

    // A wrong one comes back onto the field.
    await u.type(current, 'not it');
    await u.click(details.getByRole('button', { name: 'Save details' }));
    expect(await details.findByText('Your current password is incorrect.')).toBeTruthy();

    await u.clear(current);
    await u.type(current, 'my real password');
    await u.click(details.getByRole('button', { name: 'Save details' }));
    expect(await screen.findByText('Account updated successfully')).toBeTruthy();
    // The second toast follows the first (toasts queue 500 ms apart): the new address waits for
    // its link (issue 26), and the form keeps the address the account still has.
    expect(
      await screen.findByText(
        'We sent a link to new-dana@example.com — your address changes when you open it.',
      ),
    ).toBeTruthy();
    expect((details.getByLabelText('Email') as HTMLInputElement).value).toBe('dana@example.com');
    const sent = api.callsTo(accountsApi.accountUpdate);
    expect(sent.at(-1)).toMatchObject({
      leads_id: 'lead-1',
      prospect: { email: 'new-dana@example.com' },
      current_password: 'my real password',
    });
  });

  it('does not send a password when only other details change', async () => {
    const u = userEvent.setup();
    const { api } = await openAccounts([
      stub(accountsApi.accountUpdate, { message: 'Account updated successfully' }),
    ]);
    const details = section('Account details');
    await u.clear(details.getByLabelText('Last name'));
    await u.type(details.getByLabelText('Last name'), 'Reyes');
    await u.click(details.getByRole('button', { name: 'Save details' }));
    expect(await screen.findByText('Account updated successfully')).toBeTruthy();
    const body = api.callsTo(accountsApi.accountUpdate)[0];
    expect(body).not.toHaveProperty('current_password');
  });

  it('checks the date of birth before sending', async () => {
    const u = userEvent.setup();
    const { api } = await openAccounts();
    const details = section('Account details');
    await u.clear(details.getByLabelText('Date of birth'));
    await u.type(details.getByLabelText('Date of birth'), '02/30/1990');
    await u.click(details.getByRole('button', { name: 'Save details' }));
    expect(await details.findByText('Invalid date')).toBeTruthy();
    expect(api.callsTo(accountsApi.accountUpdate)).toEqual([]);
  });
});

describe('Shipping and billing address', () => {
  it('copies shipping to billing when the box is checked, and sends smsallow as 0 or 1', async () => {
    const u = userEvent.setup();
    const { api } = await openAccounts([stub(accountsApi.address, { message: 'Saved' })]);
    const address = section('Shipping and billing address');
    const same = address.getByLabelText('Billing address is the same as shipping');
    expect((same as HTMLInputElement).checked).toBe(true);
    expect(address.queryByRole('group', { name: 'Billing address' })).toBeNull();
    const shipping = within(address.getByRole('group', { name: 'Shipping address' }));
    await u.clear(shipping.getByLabelText('Street address'));
    await u.type(shipping.getByLabelText('Street address'), '40 Elm Ave');
    await u.selectOptions(shipping.getByLabelText('State'), 'OR');
    await u.clear(shipping.getByLabelText('ZIP code'));
    await u.type(shipping.getByLabelText('ZIP code'), '97204');
    await u.click(address.getByLabelText(/Text me about my orders/));
    await u.click(address.getByRole('button', { name: 'Save address' }));
    expect(await screen.findByText('Address saved')).toBeTruthy();
    expect(api.callsTo(accountsApi.address)[0]).toEqual({
      leads_id: 'lead-1',
      address: '40 Elm Ave',
      address2: '',
      city: 'Portland',
      state: 'OR',
      zip: '97204',
      billing_address: '40 Elm Ave',
      billing_address2: '',
      billing_city: 'Portland',
      billing_state: 'OR',
      billing_zip: '97204',
      phoneNo: '(555) 010-0123',
      smsallow: 1,
    });
  });

  it('shows a separate billing address when unchecked, with the ZIP message', async () => {
    const u = userEvent.setup();
    await openAccounts();
    const address = section('Shipping and billing address');
    await u.click(address.getByLabelText('Billing address is the same as shipping'));
    const billing = within(address.getByRole('group', { name: 'Billing address' }));
    await u.clear(billing.getByLabelText('ZIP code'));
    await u.type(billing.getByLabelText('ZIP code'), '123');
    await u.click(address.getByRole('button', { name: 'Save address' }));
    expect(await billing.findByText('Invalid ZIP code format')).toBeTruthy();
  });

  it("puts a ZIP that can't be in the chosen state under that ZIP, and sends nothing", async () => {
    const u = userEvent.setup();
    const { api } = await openAccounts();
    const address = section('Shipping and billing address');
    const shipping = within(address.getByRole('group', { name: 'Shipping address' }));
    await u.selectOptions(shipping.getByLabelText('State'), 'CA');
    await u.click(address.getByRole('button', { name: 'Save address' }));
    expect(await shipping.findByText("This ZIP code isn't in California.")).toBeTruthy();
    expect(shipping.getByLabelText('ZIP code').getAttribute('aria-invalid')).toBe('true');
    expect(api.callsTo(accountsApi.address)).toEqual([]);
  });

  it("says 'Failed to save address.' when the call fails without field messages", async () => {
    const u = userEvent.setup();
    await openAccounts([stub(accountsApi.address, failure(500, 'INTERNAL', 'Internal error'))]);
    await u.click(
      section('Shipping and billing address').getByRole('button', { name: 'Save address' }),
    );
    expect(await screen.findByText('Failed to save address.')).toBeTruthy();
  });
});

describe('Payment method', () => {
  it('summarises the card and links to /accounts/editPaymentMethod', async () => {
    await openAccounts();
    const payment = section('Payment method');
    expect(payment.getByText(/Visa/).textContent).toContain('4242');
    expect(payment.getByText('Expires 12/30')).toBeTruthy();
    expect(payment.getByRole('link', { name: 'Update payment method' }).getAttribute('href')).toBe(
      '/accounts/editPaymentMethod',
    );
  });
});

describe('Change password', () => {
  it('checks the confirmation, then puts a wrong current password on its field', async () => {
    const u = userEvent.setup();
    const { api } = await openAccounts([
      stub(
        authApi.changePassword,
        failure(400, 'VALIDATION', 'Please check the highlighted fields.', {
          current_password: 'Your current password is not correct.',
        }),
      ),
    ]);
    const form = section('Change password');
    await u.type(form.getByLabelText('Current password'), 'nope');
    await u.type(form.getByLabelText('New password'), 'a much longer phrase');
    await u.type(form.getByLabelText('Confirm new password'), 'a different phrase');
    await u.click(form.getByRole('button', { name: 'Change password' }));
    expect(await form.findByText('Passwords must match')).toBeTruthy();
    expect(api.callsTo(authApi.changePassword)).toEqual([]);

    await u.clear(form.getByLabelText('Confirm new password'));
    await u.type(form.getByLabelText('Confirm new password'), 'a much longer phrase');
    await u.click(form.getByRole('button', { name: 'Change password' }));
    expect(await form.findByText('Your current password is not correct.')).toBeTruthy();
    expect(api.callsTo(authApi.changePassword)[0]).toEqual({
      current_password: 'nope',
      password: 'a much longer phrase',
    });
  });
});

describe('Phone verification', () => {
  it('sends a code, then verifies the 6 digits', async () => {
    const u = userEvent.setup();
    let verified = false;
    const { api } = await openAccounts([
      stub(accountsApi.smsAuth, (body) => {
        if (body.action === 'send') return { phone_verified: false, sent_to: '(***) ***-0123' };
        if (body.code !== '123456')
          return failure(400, 'VALIDATION', 'That code is not right.', {
            code: 'That code is not right.',
          });
        verified = true;
        return { phone_verified: true };
      }),
      stub(accountsApi.accountData, () => buildAccountData({ phone_verified: verified })),
    ]);
    const phone = section('Phone verification');
    expect(phone.getByText('Not verified')).toBeTruthy();
    await u.click(phone.getByRole('button', { name: 'Send code' }));
    expect(await phone.findByText(/We sent a 6-digit code to \(\*\*\*\) \*\*\*-0123/)).toBeTruthy();
    await u.type(phone.getByLabelText('Verification code'), '000000');
    await u.click(phone.getByRole('button', { name: 'Verify' }));
    expect(await phone.findByText('That code is not right.')).toBeTruthy();
    await u.clear(phone.getByLabelText('Verification code'));
    await u.type(phone.getByLabelText('Verification code'), '123456');
    await u.click(phone.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Phone verified')).toBeTruthy();
    await waitFor(() => expect(section('Phone verification').getByText('Verified')).toBeTruthy());
    expect(api.callsTo(accountsApi.smsAuth)).toEqual([
      { action: 'send' },
      { action: 'verify', code: '000000' },
      { action: 'verify', code: '123456' },
    ]);
  });
});

describe('Signed-in devices', () => {
  it("lists the sessions with 'This device' and logs out everywhere else", async () => {
    const u = userEvent.setup();
    const { api } = await openAccounts([stub(authApi.sessionsRevoke, { ended: 1 })]);
    const devices = section('Signed-in devices');
    const rows = await devices.findAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      `Chrome on macOSThis deviceLast active ${local('2026-05-02T10:30:00Z')}Logged in ${local('2026-05-01T09:00:00Z')} from network 203.0.113.x`,
      `Safari on iPhoneLast active ${local('2026-04-03T08:05:00Z')}Logged in ${local('2026-04-01T09:00:00Z')}Log out`,
    ]);
    // Only the other device can be logged out from here.
    expect(devices.getAllByRole('button', { name: /^Log out Safari on iPhone/ })).toHaveLength(1);
    expect(devices.queryByRole('button', { name: /^Log out Chrome/ })).toBeNull();
    await u.click(devices.getByRole('button', { name: 'Log out everywhere else' }));
    expect(await screen.findByText('One other device was logged out.')).toBeTruthy();
    expect(api.callsTo(authApi.sessionsRevoke).length).toBeGreaterThan(0);
  });

  it('logs out one other device and says which', async () => {
    const u = userEvent.setup();
    const { api } = await openAccounts([
      stub(authApi.sessionEnd, {}, { message: 'That device was logged out.' }),
    ]);
    const devices = section('Signed-in devices');
    await u.click(await devices.findByRole('button', { name: /^Log out Safari on iPhone/ }));
    expect(await screen.findByText('Safari on iPhone was logged out')).toBeTruthy();
    expect(api.callsTo(authApi.sessionEnd)[0]).toEqual({
      id: 's2',
    });
  });
});
