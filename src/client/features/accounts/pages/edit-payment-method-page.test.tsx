// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accountsApi } from '#shared/accounts.ts';
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
  window.dataLayer = [];
});
afterEach(() => {
  cleanup();
  clearToasts();
});

type User = ReturnType<typeof userEvent.setup>;

/** The card form; `extra` stubs override the member's (the last match answers). */
async function openForm(extra: Stub[] = [], account = buildAccountData()) {
  const api = stubApi([...memberStubs({ accountData: account }), ...extra]);
  const rendered = renderRoutes(memberRoutes, { path: '/accounts/editPaymentMethod' });
  await screen.findByRole('heading', { level: 1, name: 'Update payment method' });
  await screen.findByRole('region', { name: 'Card on file' });
  return { api, ...rendered };
}

async function fill(u: User, values: { ccnum?: string; ccexp?: string; cccvv?: string }) {
  if (values.ccnum) await u.type(await screen.findByLabelText('Card number'), values.ccnum);
  if (values.ccexp) await u.type(screen.getByLabelText('Expiration'), values.ccexp);
  if (values.cccvv) await u.type(screen.getByLabelText('Security code'), values.cccvv);
}

const consentText =
  'I authorize Pairwell to charge this card for my orders and active subscriptions.';

describe('the card form', () => {
  it('shows the card on file and the fields with their autocomplete hints', async () => {
    await openForm();
    const current = screen.getByRole('region', { name: 'Card on file' });
    expect(current.textContent).toContain('Visa');
    expect(current.textContent).toContain('4242');
    expect(current.textContent).toContain('Expires 12/30');
    const number = screen.getByLabelText('Card number');
    expect(number.getAttribute('inputmode')).toBe('numeric');
    expect(number.getAttribute('autocomplete')).toBe('cc-number');
    expect(screen.getByLabelText('Expiration').getAttribute('autocomplete')).toBe('cc-exp');
    expect(screen.getByLabelText('Security code').getAttribute('autocomplete')).toBe('cc-csc');
    expect(screen.getByLabelText(consentText)).toBeTruthy();
    expect(document.title).toBe('Update payment method — Pairwell');
  });

  it('says the card messages of spec §5 word for word', async () => {
    const u = userEvent.setup();
    const { api } = await openForm();
    const before = api.calls.length;
    await u.click(screen.getByRole('button', { name: 'Save card' }));
    expect(await screen.findByText('Not a valid expiration date')).toBeTruthy();
    expect(screen.getByText('Card security code is Required')).toBeTruthy();
    expect(screen.getByText('Continue your payment by checking the box above')).toBeTruthy();

    await fill(u, { ccnum: '4242 4242 4242 4242 1', ccexp: '13/28' });
    await u.click(screen.getByRole('button', { name: 'Save card' }));
    expect(await screen.findByText('Max 16 digits allowed')).toBeTruthy();
    expect(screen.getByText('Not a valid expiration date')).toBeTruthy();
    expect(screen.getByLabelText('Card number').getAttribute('aria-invalid')).toBe('true');
    expect(api.calls.length).toBe(before);
  });

  it('fills in the slash of the expiry on a number keypad', async () => {
    const u = userEvent.setup();
    await openForm();
    await fill(u, { ccexp: '1229' });
    expect(screen.getByLabelText<HTMLInputElement>('Expiration').value).toBe('12/29');
  });

  it('shows a decline with the gateway reason on the form, and keeps it out of analytics', async () => {
    const u = userEvent.setup();
    const { router } = await openForm([
      stub(
        accountsApi.ccUpdate,
        failure(402, 'CARD_DECLINED', 'Your card was declined.', {
          ccnum: 'Your card was declined.',
        }),
      ),
    ]);
    await fill(u, { ccnum: '4000 0000 0000 0002', ccexp: '12/30', cccvv: '123' });
    await u.click(screen.getByLabelText(consentText));
    await u.click(screen.getByRole('button', { name: 'Save card' }));
    // The reason sits on the field it names (once, not twice).
    expect(await screen.findByText('Your card was declined.')).toBeTruthy();
    expect(screen.getAllByText('Your card was declined.')).toHaveLength(1);
    expect(screen.getByLabelText('Card number').getAttribute('aria-invalid')).toBe('true');
    expect(router.location().pathname).toBe('/accounts/editPaymentMethod');
    expect(JSON.stringify(window.dataLayer)).not.toContain('4000');
  });

  it('shows a decline that names no field at the top of the form', async () => {
    const u = userEvent.setup();
    await openForm([
      stub(
        accountsApi.ccUpdate,
        failure(402, 'CARD_DECLINED', 'Your card has insufficient funds.'),
      ),
    ]);
    await fill(u, { ccnum: '4000 0000 0000 9995', ccexp: '12/30', cccvv: '123' });
    await u.click(screen.getByLabelText(consentText));
    await u.click(screen.getByRole('button', { name: 'Save card' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Your card has insufficient funds.',
    );
  });

  it('saves the card, says so, and goes back to /accounts', async () => {
    const u = userEvent.setup();
    const newCard = { brand: 'Visa', last4: '4242', exp_month: 1, exp_year: 2031, expired: false };
    let saved = false;
    const { api, router } = await openForm([
      stub(accountsApi.ccUpdate, () => {
        saved = true;
        return { card: newCard, retries: [] };
      }),
      stub(accountsApi.accountData, () => buildAccountData(saved ? { card: newCard } : {})),
    ]);
    await fill(u, { ccnum: '4242 4242 4242 4242', ccexp: '01/31', cccvv: '123' });
    await u.click(screen.getByLabelText('Use my shipping address as the billing address'));
    await u.click(screen.getByLabelText(consentText));
    await u.click(screen.getByRole('button', { name: 'Save card' }));
    expect(await screen.findByText('Payment method updated')).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 1, name: 'Accounts' })).toBeTruthy();
    expect(router.location().pathname).toBe('/accounts');
    expect(api.callsTo(accountsApi.ccUpdate)[0]).toEqual({
      ccnum: '4242424242424242',
      ccexp: '01/31',
      cccvv: '123',
      consent: true,
      shipping: 1,
    });
    const payment = await screen.findByRole('region', { name: 'Payment method' });
    expect(within(payment).getByText('Expires 01/31')).toBeTruthy();
    expect(JSON.stringify(window.dataLayer)).not.toContain('4242');
  });

  describe('after a failed payment, the card is charged for that order at once', () => {
    const newCard = { brand: 'Visa', last4: '4242', exp_month: 1, exp_year: 2031, expired: false };
    async function save(retry: { outcome: 'paid' | 'failed' | 'pending'; reason: string | null }) {
      const u = userEvent.setup();
      const result = await openForm([
        stub(accountsApi.ccUpdate, {
          card: newCard,
          retries: [{ order_number: 'PW-100104', amount_cents: 1750, ...retry }],
        }),
      ]);
      await fill(u, { ccnum: '4242 4242 4242 4242', ccexp: '01/31', cccvv: '123' });
      await u.click(screen.getByLabelText(consentText));
      await u.click(screen.getByRole('button', { name: 'Save card' }));
      return result;
    }

    it('says the order was charged now, how much and which order, and stays', async () => {
      const { router } = await save({ outcome: 'paid', reason: null });
      const result = await screen.findByRole('status', {
        name: 'Card saved and your order is paid',
      });
      expect(result.textContent).toContain(
        'We charged $17.50 to your Visa ending in 4242 for order PW-100104.',
      );
      expect(document.activeElement).toBe(result);
      expect(
        within(result).getByRole('link', { name: 'See order PW-100104' }).getAttribute('href'),
      ).toBe('/orders#PW-100104');
      expect(router.location().pathname).toBe('/accounts/editPaymentMethod');
    });

    it('says the order was not charged, and why, when the new card is declined too', async () => {
      await save({ outcome: 'failed', reason: 'Your card has insufficient funds.' });
      const result = await screen.findByRole('alert', {
        name: 'Card saved, but your order was not charged',
      });
      expect(result.textContent).toContain(
        'Order PW-100104 ($17.50) was not charged: Your card has insufficient funds. Your new card is saved, but the order is still unpaid.',
      );
    });

    it('says a charge still under way is being made', async () => {
      await save({ outcome: 'pending', reason: null });
      const result = await screen.findByRole('status', { name: 'Card saved' });
      expect(result.textContent).toContain('Order PW-100104 ($17.50) is being charged');
    });
  });

  it("shows 'No card on file' and an 'Expired' badge where they apply", async () => {
    await openForm([], buildAccountData({ card: null }));
    expect(screen.getByText('No card on file')).toBeTruthy();
    cleanup();
    await openForm(
      [],
      buildAccountData({
        card: { brand: 'Mastercard', last4: '4444', exp_month: 1, exp_year: 2024, expired: true },
      }),
    );
    expect(screen.getByText('Expired')).toBeTruthy();
  });
});
