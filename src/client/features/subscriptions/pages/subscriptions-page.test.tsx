// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accountsApi } from '#shared/accounts.ts';
import { offers } from '#shared/catalog.ts';
import { addDays, subscriptionsApi, type Subscription } from '#shared/subscriptions.ts';
import { treatmentRequestsApi } from '#shared/treatment-requests.ts';
import { clearToasts } from '#client/components/ui/toast.tsx';
import { AccountLayout } from '#client/features/accounts/components/account-layout.tsx';
import { RequireAuth } from '#client/features/auth/components/route-guards.tsx';
import { resetAppStateForTests, setLeadsId } from '#client/lib/app-state.ts';
import { memberStubs } from '#client/testing/member-fixtures.ts';
import {
  failure,
  renderRoutes,
  type Reply,
  stub,
  stubApi,
  type Stub,
  waitForDialogToClose,
} from '#client/testing/render-app.tsx';
import { serverToday } from '../subscription-actions.ts';
import { SubscriptionsPage } from './subscriptions-page.tsx';

const routes: RouteObject[] = [
  {
    element: <RequireAuth />,
    children: [
      {
        element: <AccountLayout />,
        children: [{ path: '/subscriptions', element: <SubscriptionsPage /> }],
      },
    ],
  },
];

function buildSubscription(overrides: Partial<Subscription> = {}): Subscription {
  return {
    id: 7,
    product_id: offers.sleep.monthly,
    name: 'Sleep Gummies',
    slug: 'sleep-gummies',
    img: '/images/supp-sleep.webp',
    category: 'supplements',
    frequency: 'MONTHLY',
    quantity: 1,
    unit_price_cents: 1750,
    price_cents: 1750,
    status: 'ACTIVE',
    next_billing_date: '2026-06-14',
    paused_until: null,
    cancel_reason: null,
    card: { brand: 'Visa', last4: '4242' },
    swap_options: [
      { product_id: offers.biotin.monthly, name: 'Biotin Gummies' },
      { product_id: offers.immunity.monthly, name: 'Immunity Gummies' },
    ],
    refill: null,
    together: null,
    ...overrides,
  };
}

const quarterly = buildSubscription({
  product_id: offers.sleep.quarterly,
  frequency: 'QUARTERLY',
  unit_price_cents: 4500,
  price_cents: 4500,
  next_billing_date: '2026-08-14',
});

/** `/subscription/update/` answering with this subscription, worded as the change's message. */
function updated(subscription: Subscription, message: string): Stub {
  return stub(
    subscriptionsApi.subscriptionUpdate,
    // The server defaults an absent `preview` to false.
    (body) => ({ subscription, preview: body.preview ?? false }),
    { message },
  );
}

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

/** The Subscriptions page; `extra` stubs override the member's (the last match answers). */
async function openPage(extra: Stub[] = [], subscriptions: Subscription[] = [buildSubscription()]) {
  const api = stubApi([
    ...memberStubs(),
    stub(subscriptionsApi.subscriptions, { subscriptions }),
    stub(treatmentRequestsApi.list, { requests: [] }),
    ...extra,
  ]);
  const rendered = renderRoutes(routes, { path: '/subscriptions' });
  await screen.findByRole('heading', { level: 1, name: 'Subscriptions' });
  return { api, ...rendered };
}

const card = (name: string) => screen.findByRole('article', { name });

describe('the subscriptions page', () => {
  it('shows each subscription with its price, next date, status and card', async () => {
    await openPage(
      [],
      [
        buildSubscription({ quantity: 2, price_cents: 3500 }),
        buildSubscription({
          id: 8,
          product_id: offers.biotin.monthly,
          name: 'Biotin Gummies',
          status: 'PAST_DUE',
          next_billing_date: '2026-05-02',
          card: { brand: 'Visa', last4: '0341' },
        }),
      ],
    );
    const sleep = await card('Sleep Gummies');
    expect(sleep.textContent).toContain('$35.00/month');
    expect(sleep.textContent).toContain('2 × $17.50');
    expect(sleep.textContent).toContain('2 bottles a month');
    expect(sleep.textContent).toContain('Jun 14, 2026');
    expect(sleep.textContent).toContain('Active');
    expect(sleep.textContent).toContain('Visa ••••');
    expect(sleep.textContent).toContain('ending in 4242');
    expect(within(sleep).getByRole('link', { name: 'Change card' }).getAttribute('href')).toBe(
      '/accounts/editPaymentMethod',
    );

    const biotin = await card('Biotin Gummies');
    expect(within(biotin).getByRole('alert').textContent).toContain(
      'We were unable to process this order using the provided payment information. Please update your credit card details to resolve this issue.',
    );
    expect(
      within(biotin).getByRole('link', { name: 'Update payment method' }).getAttribute('href'),
    ).toBe('/accounts/editPaymentMethod');
    expect(biotin.textContent).toContain('Payment due');
    // A past-due subscription cannot skip or pause until it is paid.
    expect(within(biotin).queryByRole('button', { name: 'Skip next delivery' })).toBeNull();
    expect(document.title).toBe('Subscriptions — Pairwell');
  });

  it('says a quarterly plan of one brings three bottles, not one', async () => {
    await openPage([], [quarterly]);
    const sleep = await card('Sleep Gummies');
    expect(sleep.textContent).toContain('3 bottles every 3 months');
    expect(sleep.textContent).not.toContain('1 bottle');
  });

  it('invites a customer without subscriptions to the shop', async () => {
    await openPage([], []);
    expect(await screen.findByRole('heading', { name: 'No subscriptions yet' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Shop supplements' }).getAttribute('href')).toBe(
      '/shop',
    );
  });
});

describe('a prescription refill plan', () => {
  const refill = (overrides: Partial<Subscription>) =>
    buildSubscription({
      id: 9,
      product_id: null,
      name: 'Low-dose doxepin 3 mg',
      slug: '',
      img: '/images/program-sleep.svg',
      category: 'sleep',
      unit_price_cents: 3000,
      price_cents: 3000,
      swap_options: [],
      refill: { refills_remaining: 2, valid_until: '2027-05-21' },
      ...overrides,
    });

  it("shows the refills left and the prescription's end, and offers only date changes", async () => {
    await openPage([], [refill({})]);
    const plan = await card('Low-dose doxepin 3 mg');
    expect(plan.textContent).toContain('$30.00/month');
    expect(plan.textContent).toContain('2 refills left');
    expect(plan.textContent).toContain('Prescription valid until May 21, 2027');
    const buttons = within(plan)
      .getAllByRole('button')
      .map((button) => button.textContent);
    // The requests between visits (issue 29) come first, then the plan's own changes.
    expect(buttons).toEqual([
      'Ask for an early refill',
      'Ask to change my dose',
      'Report a side effect',
      'Skip next delivery',
      'Change date',
      'Pause',
      'Cancel subscription',
    ]);
    expect(within(plan).getByRole('region', { name: 'Your treatment' })).toBeTruthy();
  });

  it('a supplement subscription has no requests to the provider', async () => {
    await openPage([], [buildSubscription(), refill({})]);
    const sleep = await card('Sleep Gummies');
    await card('Low-dose doxepin 3 mg');
    expect(within(sleep).queryByRole('region', { name: 'Your treatment' })).toBeNull();
    expect(within(sleep).queryByRole('button', { name: 'Report a side effect' })).toBeNull();
  });

  it('once complete, offers a new visit instead of changes', async () => {
    await openPage(
      [],
      [
        refill({
          status: 'COMPLETED',
          refill: { refills_remaining: 0, valid_until: '2027-05-21' },
        }),
      ],
    );
    const plan = await card('Low-dose doxepin 3 mg');
    expect(plan.textContent).toContain('Completed');
    expect(plan.textContent).toContain('Every refill of this prescription has been sent.');
    expect(within(plan).getByRole('link', { name: 'start a new visit' }).getAttribute('href')).toBe(
      '/visit/sleep',
    );
    expect(within(plan).queryAllByRole('button')).toHaveLength(0);
  });
});

describe('a change to a subscription', () => {
  it('is previewed first, then confirmed, and the card shows the new state at once', async () => {
    const u = userEvent.setup();
    const { api } = await openPage([
      stub(
        subscriptionsApi.subscriptionUpdate,
        { subscription: quarterly, preview: true },
        { message: 'Your subscription now ships every quarter.' },
      ),
      stub(
        subscriptionsApi.shipFrequency,
        { subscription: quarterly, preview: false },
        { message: 'Your subscription now ships every quarter.' },
      ),
    ]);
    await u.click(
      within(await card('Sleep Gummies')).getByRole('button', { name: 'Switch to quarterly' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Switch to quarterly deliveries' });
    await within(dialog).findByRole('heading', { name: 'Review your change' });
    expect(dialog.textContent).toContain('$17.50/month');
    expect(dialog.textContent).toContain('$45.00/quarterly');
    expect(dialog.textContent).toContain('Aug 14, 2026');
    // Quarterly brings three bottles a delivery: the preview says so, from → to.
    const delivery = within(dialog).getByText('Each delivery').parentElement;
    expect(delivery?.textContent).toBe(
      'Each deliveryFrom 1 bottle a month→ to 3 bottles every 3 months',
    );
    expect(api.callsTo(subscriptionsApi.subscriptionUpdate)[0]).toEqual({
      leads_id: 'lead-1',
      subscription_id: 7,
      change: { action: 'change_frequency', frequency: 'QUARTERLY' },
      preview: true,
    });
    // Nothing is saved before Confirm.
    expect(api.callsTo(subscriptionsApi.shipFrequency)).toEqual([]);

    await u.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitForDialogToClose();
    expect(api.callsTo(subscriptionsApi.shipFrequency)[0]).toEqual({
      leads_id: 'lead-1',
      subscription_id: 7,
      frequency: 'QUARTERLY',
    });
    const sleep = await card('Sleep Gummies');
    expect(sleep.textContent).toContain('$45.00/quarterly');
    expect(sleep.textContent).toContain('3 bottles every 3 months');
    expect(sleep.textContent).toContain('Aug 14, 2026');
    expect(within(sleep).getByRole('button', { name: 'Switch to monthly' })).toBeTruthy();
    expect(await screen.findByText('Your subscription now ships every quarter.')).toBeTruthy();
    // The account frame's data reloads (flags may have changed).
    await waitFor(() => expect(api.callsTo(accountsApi.basics).length).toBe(2));
  });

  it("offers a quarterly plan's quantity in bottles and previews them from → to", async () => {
    const u = userEvent.setup();
    const doubled = { ...quarterly, quantity: 2, price_cents: 9000 };
    const { api } = await openPage(
      [
        stub(
          subscriptionsApi.subscriptionUpdate,
          { subscription: doubled, preview: true },
          { message: 'Your quantity was updated.' },
        ),
      ],
      [quarterly],
    );
    await u.click(
      within(await card('Sleep Gummies')).getByRole('button', { name: 'Change quantity' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Change quantity' });
    const select = within(dialog).getByLabelText('Bottles each delivery');
    const options = within(select)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(options.slice(0, 3)).toEqual(['3 bottles', '6 bottles', '9 bottles']);

    await u.click(within(dialog).getByRole('button', { name: 'Review change' }));
    expect(
      await within(dialog).findByText('This subscription already brings 3 bottles every 3 months.'),
    ).toBeTruthy();

    await u.selectOptions(select, '6 bottles');
    await u.click(within(dialog).getByRole('button', { name: 'Review change' }));
    await within(dialog).findByRole('heading', { name: 'Review your change' });
    expect(within(dialog).getByText('Each delivery').parentElement?.textContent).toBe(
      'Each deliveryFrom 3 bottles every 3 months→ to 6 bottles every 3 months',
    );
    expect(dialog.textContent).toContain('$90.00/quarterly');
    expect(
      (api.callsTo(subscriptionsApi.subscriptionUpdate)[0] as { change: unknown }).change,
    ).toEqual({ action: 'change_quantity', quantity: 2 });
  });

  it('asks for a date before previewing a move, and checks it first', async () => {
    const u = userEvent.setup();
    const newDate = addDays(serverToday(), 20);
    const { api } = await openPage([
      stub(
        subscriptionsApi.subscriptionUpdate,
        ({ change, preview }) => {
          // Only a move is asked for here.
          if (change.action !== 'move_date') throw new Error(`Unexpected ${change.action}`);
          return {
            subscription: buildSubscription({ next_billing_date: change.date }),
            preview: preview ?? false,
          };
        },
        { message: 'Your next delivery date was changed.' },
      ),
    ]);
    await u.click(within(await card('Sleep Gummies')).getByRole('button', { name: 'Change date' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change your next delivery date' });
    const input = within(dialog).getByLabelText('New delivery date');
    expect(input.getAttribute('min')).toBe(addDays(serverToday(), 1));
    expect(input.getAttribute('max')).toBe(addDays(serverToday(), 90));

    await u.clear(input);
    await u.type(input, serverToday());
    await u.click(within(dialog).getByRole('button', { name: 'Review change' }));
    expect(await within(dialog).findByText('Choose a date after today.')).toBeTruthy();
    expect(api.callsTo(subscriptionsApi.subscriptionUpdate)).toEqual([]);

    await u.clear(input);
    await u.type(input, newDate);
    await u.click(within(dialog).getByRole('button', { name: 'Review change' }));
    await within(dialog).findByRole('heading', { name: 'Review your change' });
    await u.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitForDialogToClose();
    const sent = api.callsTo(subscriptionsApi.subscriptionUpdate) as {
      change: unknown;
      preview: boolean;
    }[];
    expect(sent.map((body) => body.preview)).toEqual([true, false]);
    expect(sent[1]?.change).toEqual({
      action: 'move_date',
      date: newDate,
    });
  });

  it("shows the server's reason when a change is refused", async () => {
    const u = userEvent.setup();
    await openPage([
      stub(
        subscriptionsApi.subscriptionUpdate,
        failure(400, 'SUBSCRIPTION_REFUSED', 'Only an active subscription can skip a delivery.'),
      ),
    ]);
    await u.click(
      within(await card('Sleep Gummies')).getByRole('button', { name: 'Skip next delivery' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Skip your next delivery' });
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Only an active subscription can skip a delivery.',
    );
    expect(within(dialog).queryByRole('button', { name: 'Confirm' })).toBeNull();
  });

  it("says ‘Failed to update subscription.' when the server gives no reason", async () => {
    const u = userEvent.setup();
    const skipped = buildSubscription({ next_billing_date: '2026-07-14' });
    const preview = stub(
      subscriptionsApi.subscriptionUpdate,
      { subscription: skipped, preview: true },
      { message: 'Your next delivery was skipped.' },
    );
    // A gateway's page is no answer of the contract's, so stub() cannot word it: this one reply is
    // written by hand, on the stub's own endpoint (its handler is a reply, as its data is fixed).
    const badGateway: Reply = { status: 502, body: '<html>Bad gateway</html>' };
    await openPage([
      {
        ...preview,
        handler: (body) =>
          (body as { preview?: boolean }).preview ? (preview.handler as Reply) : badGateway,
      },
    ]);
    await u.click(
      within(await card('Sleep Gummies')).getByRole('button', { name: 'Skip next delivery' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Skip your next delivery' });
    await within(dialog).findByRole('heading', { name: 'Review your change' });
    expect(dialog.textContent).toContain('Jun 14, 2026');
    expect(dialog.textContent).toContain('Jul 14, 2026');
    await u.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Failed to update subscription.',
    );
    // The card still shows what is saved.
    await u.click(within(dialog).getByRole('button', { name: 'Keep as is' }));
    await waitForDialogToClose();
    expect((await card('Sleep Gummies')).textContent).toContain('Jun 14, 2026');
  });

  it("says ‘Failed to update subscription.' when the network fails", async () => {
    const u = userEvent.setup();
    const { api } = await openPage();
    const sleep = await card('Sleep Gummies');
    api.fetchMock.mockImplementationOnce(() => Promise.reject(new TypeError('Failed to fetch')));
    await u.click(within(sleep).getByRole('button', { name: 'Skip next delivery' }));
    const dialog = await screen.findByRole('dialog', { name: 'Skip your next delivery' });
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Failed to update subscription.',
    );
  });

  it('reloads and previews again when the subscription changed meanwhile', async () => {
    const u = userEvent.setup();
    const moved = buildSubscription({ next_billing_date: '2026-06-20' });
    let listed = 0;
    const { api } = await openPage([
      stub(subscriptionsApi.subscriptions, () => {
        listed++;
        return { subscriptions: [listed === 1 ? buildSubscription() : moved] };
      }),
      stub(
        subscriptionsApi.subscriptionUpdate,
        (body) =>
          body.preview
            ? {
                subscription: buildSubscription({
                  next_billing_date: listed === 1 ? '2026-07-14' : '2026-07-20',
                }),
                preview: true,
              }
            : failure(
                409,
                'SUBSCRIPTION_CHANGED',
                'This subscription just changed. Please review it and try again.',
              ),
        { message: 'Your next delivery was skipped.' },
      ),
    ]);
    await u.click(
      within(await card('Sleep Gummies')).getByRole('button', { name: 'Skip next delivery' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Skip your next delivery' });
    await within(dialog).findByRole('heading', { name: 'Review your change' });
    await u.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(
      await within(dialog).findByText(
        'This subscription just changed. Please review it and try again.',
      ),
    ).toBeTruthy();
    await waitFor(() => expect(dialog.textContent).toContain('Jul 20, 2026'));
    expect(dialog.textContent).toContain('Jun 20, 2026');
    expect(api.callsTo(subscriptionsApi.subscriptionUpdate).length).toBe(3);
  });

  it("needs a reason to cancel, and sends the reason with the customer's words", async () => {
    const u = userEvent.setup();
    const { api } = await openPage([
      updated(
        buildSubscription({ status: 'CANCELLED', cancel_reason: 'Other' }),
        'Your subscription was cancelled.',
      ),
    ]);
    await u.click(
      within(await card('Sleep Gummies')).getByRole('button', { name: 'Cancel subscription' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Cancel your subscription' });
    // The save offer comes first; cancelling is one more click.
    await u.click(within(dialog).getByRole('button', { name: 'Continue to cancel' }));
    await waitFor(() =>
      expect(document.activeElement).toBe(within(dialog).getByLabelText('Why are you cancelling?')),
    );
    await u.click(within(dialog).getByRole('button', { name: 'Review change' }));
    expect(await within(dialog).findByText('Tell us why you are cancelling')).toBeTruthy();
    await u.selectOptions(
      within(dialog).getByLabelText('Why are you cancelling?'),
      'It costs more than I want to spend',
    );
    await u.type(
      within(dialog).getByLabelText("Anything else you'd like us to know?"),
      'Back in spring',
    );
    await u.click(within(dialog).getByRole('button', { name: 'Review change' }));
    await within(dialog).findByRole('heading', { name: 'Review your change' });
    expect(
      (api.callsTo(subscriptionsApi.subscriptionUpdate)[0] as { change: unknown }).change,
    ).toEqual({ action: 'cancel', reason: 'It costs more than I want to spend: Back in spring' });
    await u.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    const cancelled = await card('Sleep Gummies');
    await waitFor(() => expect(cancelled.textContent).toContain('Cancelled'));
    expect(within(cancelled).getByRole('button', { name: 'Reactivate' })).toBeTruthy();
    // The button that opened the dialog is gone: focus lands on the card, not lost.
    await waitFor(() => expect(document.activeElement).toBe(cancelled));
  });

  it('offers a skip or a pause before cancelling, and a skip taken there is previewed and saved', async () => {
    const u = userEvent.setup();
    const skipped = buildSubscription({ next_billing_date: '2026-07-14' });
    const { api } = await openPage([updated(skipped, 'Your next delivery was skipped.')]);
    await u.click(
      within(await card('Sleep Gummies')).getByRole('button', { name: 'Cancel subscription' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Cancel your subscription' });
    const offer = within(dialog).getByRole('heading', { name: 'Need a break instead?' });
    // A screen reader lands on the offer, and each choice says what it does.
    await waitFor(() => expect(document.activeElement).toBe(offer));
    const skip = within(dialog).getByRole('button', { name: 'Skip the next delivery' });
    expect(skip.getAttribute('aria-describedby')).toBeTruthy();
    expect(
      document.getElementById(skip.getAttribute('aria-describedby') ?? '')?.textContent,
    ).toContain('Nothing ships or is charged on Jun 14, 2026');
    expect(within(dialog).getByRole('button', { name: 'Pause for a while' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Keep my subscription' })).toBeTruthy();
    // Nothing is asked of the server until the customer chooses.
    expect(api.callsTo(subscriptionsApi.subscriptionUpdate)).toEqual([]);

    // From the keyboard: Tab to the skip, Enter; the same review as the card's own skip.
    await u.tab();
    expect(document.activeElement).toBe(skip);
    await u.keyboard('{Enter}');
    const skipDialog = await screen.findByRole('dialog', { name: 'Skip your next delivery' });
    await within(skipDialog).findByRole('heading', { name: 'Review your change' });
    expect(skipDialog.textContent).toContain('Jul 14, 2026');
    // Back returns to the offer, not out of the dialog.
    await u.click(within(skipDialog).getByRole('button', { name: 'Back' }));
    await screen.findByRole('heading', { name: 'Need a break instead?' });
    await u.click(screen.getByRole('button', { name: 'Skip the next delivery' }));
    const again = await screen.findByRole('dialog', { name: 'Skip your next delivery' });
    await u.click(await within(again).findByRole('button', { name: 'Confirm' }));
    await waitForDialogToClose();
    const changes = api.callsTo(subscriptionsApi.subscriptionUpdate) as {
      change: unknown;
      preview: boolean;
    }[];
    expect(changes.at(-1)).toEqual(
      expect.objectContaining({ change: { action: 'skip' }, preview: false }),
    );
    expect(changes.some((c) => (c.change as { action: string }).action === 'cancel')).toBe(false);
    await waitFor(async () =>
      expect((await card('Sleep Gummies')).textContent).toContain('Jul 14, 2026'),
    );
  });

  it('a pause taken from the offer asks for its date, with focus on it', async () => {
    const u = userEvent.setup();
    await openPage();
    await u.click(
      within(await card('Sleep Gummies')).getByRole('button', { name: 'Cancel subscription' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Cancel your subscription' });
    await u.click(within(dialog).getByRole('button', { name: 'Pause for a while' }));
    const pause = await screen.findByRole('dialog', { name: 'Pause your subscription' });
    await waitFor(() =>
      expect(document.activeElement).toBe(within(pause).getByLabelText('Pause until')),
    );
  });

  it('offers no skip or pause to a subscription that cannot take them', async () => {
    const u = userEvent.setup();
    await openPage([], [buildSubscription({ status: 'PAST_DUE' })]);
    await u.click(
      within(await card('Sleep Gummies')).getByRole('button', { name: 'Cancel subscription' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Cancel your subscription' });
    expect(within(dialog).queryByRole('button', { name: 'Skip the next delivery' })).toBeNull();
    expect(within(dialog).getByLabelText('Why are you cancelling?')).toBeTruthy();
  });
});

describe("gifts and couples' plans (issue 26)", () => {
  const gift = (role: 'payer' | 'recipient', overrides: Partial<Subscription> = {}) =>
    buildSubscription({
      id: 11,
      card: role === 'payer' ? { brand: 'Visa', last4: '4242' } : null,
      swap_options: [],
      together: {
        kind: 'gift',
        role,
        with_first_name: role === 'payer' ? 'Sam' : 'Alex',
        lines: [{ name: 'Sleep Gummies', quantity: 1, for: role === 'payer' ? 'partner' : 'you' }],
      },
      ...overrides,
    });

  it('the payer sees "Gift to Sam", its card and date, and a link to the partner page instead of changes', async () => {
    await openPage([], [gift('payer')]);
    const sleep = await card('Sleep Gummies');
    expect(sleep.textContent).toContain('Gift to Sam');
    expect(sleep.textContent).toContain('Sleep Gummies for Sam');
    expect(sleep.textContent).toContain('Jun 14, 2026');
    expect(sleep.textContent).toContain('ending in 4242');
    expect(
      within(sleep).getByRole('link', { name: 'Manage on your partner page' }).getAttribute('href'),
    ).toBe('/accounts/partner');
    expect(within(sleep).queryAllByRole('button')).toEqual([]);
  });

  it('the recipient sees "Gift from Alex", who pays, and never a card or a way to change it', async () => {
    await openPage([], [gift('recipient', { status: 'PAST_DUE' })]);
    const sleep = await card('Sleep Gummies');
    expect(sleep.textContent).toContain('Gift from Alex');
    expect(sleep.textContent).toContain('Payment due since');
    expect(sleep.textContent).toContain('Sleep Gummies for you');
    expect(sleep.textContent).toContain('Paid by Alex');
    expect(sleep.textContent).not.toContain('No card on file');
    expect(within(sleep).getByRole('alert').textContent).toBe(
      'Payment due: Alex has been asked to update their card.',
    );
    expect(within(sleep).queryByRole('link', { name: /card|payment method/i })).toBeNull();
    expect(within(sleep).queryAllByRole('button')).toEqual([]);
    expect(within(sleep).getByRole('link', { name: 'Manage on your partner page' })).toBeTruthy();
  });

  it("a couples' plan shows with the other's name, both lines and its one price, beside an own subscription", async () => {
    await openPage(
      [],
      [
        buildSubscription({ id: 3, product_id: offers.biotin.monthly, name: 'Biotin Gummies' }),
        buildSubscription({
          id: 12,
          unit_price_cents: 1575,
          price_cents: 3150,
          card: null,
          swap_options: [],
          together: {
            kind: 'plan',
            role: 'partner',
            with_first_name: 'Alex',
            lines: [
              { name: 'Sleep Gummies', quantity: 1, for: 'partner' },
              { name: 'Immunity Gummies', quantity: 1, for: 'you' },
            ],
          },
        }),
      ],
    );
    const plan = await card('Sleep Gummies');
    expect(plan.textContent).toContain("Couples' plan with Alex");
    expect(plan.textContent).toContain('Sleep Gummies for Alex');
    expect(plan.textContent).toContain('Immunity Gummies for you');
    expect(plan.textContent).toContain('$31.50/month');
    expect(plan.textContent).toContain('Paid by Alex');
    // Alex is billed; Sam is told when it comes.
    expect(plan.textContent).toContain('Next delivery');
    expect(plan.textContent).not.toContain('Next billing date');
    // The customer's own subscription keeps its changes.
    const own = await card('Biotin Gummies');
    expect(within(own).getByRole('button', { name: 'Skip next delivery' })).toBeTruthy();
    expect(own.textContent).not.toContain('partner page');
  });
});
