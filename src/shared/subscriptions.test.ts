import { describe, expect, it } from 'vitest';
import { offers } from './catalog.ts';
import {
  addDays,
  allowedChanges,
  applySubscriptionChange,
  canTransitionSubscription,
  nextBillingDate,
  renewalTerms,
  subscriptionStatuses,
  type SubscriptionChange,
  type SubscriptionState,
} from './subscriptions.ts';

describe('renewal dates', () => {
  it('monthly from an ordinary day keeps the day', () => {
    expect(nextBillingDate('2026-11-21', 'MONTHLY', 21)).toBe('2026-12-21');
    expect(nextBillingDate('2026-12-21', 'MONTHLY', 21)).toBe('2027-01-21');
  });

  it('month ends clamp to the last day and come back to the anchor day', () => {
    let date = '2027-01-31';
    const dates: string[] = [];
    for (let i = 0; i < 4; i++) {
      date = nextBillingDate(date, 'MONTHLY', 31);
      dates.push(date);
    }
    expect(dates).toEqual(['2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31']);
  });

  it('leap years give February 29', () => {
    expect(nextBillingDate('2028-01-31', 'MONTHLY', 31)).toBe('2028-02-29');
    expect(nextBillingDate('2028-01-30', 'MONTHLY', 30)).toBe('2028-02-29');
    expect(nextBillingDate('2027-01-29', 'MONTHLY', 29)).toBe('2027-02-28');
    expect(nextBillingDate('2100-01-29', 'MONTHLY', 29)).toBe('2100-02-28');
  });

  it('quarterly adds three months, across years and month ends', () => {
    expect(nextBillingDate('2026-11-30', 'QUARTERLY', 30)).toBe('2027-02-28');
    expect(nextBillingDate('2027-02-28', 'QUARTERLY', 30)).toBe('2027-05-30');
    expect(nextBillingDate('2027-11-30', 'QUARTERLY', 30)).toBe('2028-02-29');
    expect(nextBillingDate('2026-10-15', 'QUARTERLY', 15, 4)).toBe('2027-10-15');
  });

  it('a year of monthly renewals lands on twelve distinct dates, one a month', () => {
    let date = '2026-12-31';
    const months = new Set<string>();
    for (let i = 0; i < 12; i++) {
      date = nextBillingDate(date, 'MONTHLY', 31);
      months.add(date.slice(0, 7));
    }
    expect(months.size).toBe(12);
    expect(date).toBe('2027-12-31');
  });

  it('adds days across month and year ends', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
  });
});

describe('the renewal terms the recurring consent states', () => {
  it("says each subscription's amount, how often and its first renewal; one-time lines renew nothing", () => {
    const lines = [
      { name: 'Sleep Gummies', frequency: 'MONTHLY' as const, unitCents: 1750, quantity: 1 },
      { name: 'Biotin Gummies', frequency: 'ONE_TIME' as const, unitCents: 2499, quantity: 2 },
      { name: 'Hair Gummies', frequency: 'QUARTERLY' as const, unitCents: 4500, quantity: 2 },
    ];
    expect(renewalTerms(lines, '2026-11-30')).toEqual([
      '$17.50 for Sleep Gummies every month, starting 12/30/2026',
      '$90.00 for Hair Gummies every 3 months, starting 02/28/2027',
    ]);
    expect(renewalTerms([lines[1]!], '2026-11-30')).toEqual([]);
  });
});

describe('subscription changes', () => {
  const active: SubscriptionState = {
    status: 'ACTIVE',
    frequency: 'MONTHLY',
    quantity: 1,
    productId: offers.sleep.monthly,
    nextBillingDate: '2026-12-21',
    anchorDay: 21,
    pausedUntil: null,
    cancelReason: null,
    refill: null,
  };
  const today = '2026-11-21';

  it('switches monthly to quarterly with the quarterly product, keeping the date', () => {
    const outcome = applySubscriptionChange(
      active,
      { action: 'change_frequency', frequency: 'QUARTERLY' },
      today,
      { productId: offers.sleep.quarterly },
    );
    expect(outcome).toEqual({
      ok: true,
      state: { ...active, frequency: 'QUARTERLY', productId: offers.sleep.quarterly },
    });
    expect(
      applySubscriptionChange(active, { action: 'change_frequency', frequency: 'MONTHLY' }, today),
    ).toEqual({
      ok: false,
      message: 'This subscription is already delivered monthly.',
    });
  });

  it('skipping moves the next date one period on', () => {
    expect(applySubscriptionChange(active, { action: 'skip' }, today)).toMatchObject({
      ok: true,
      state: { nextBillingDate: '2027-01-21' },
    });
    const quarterly = { ...active, frequency: 'QUARTERLY' as const };
    expect(applySubscriptionChange(quarterly, { action: 'skip' }, today)).toMatchObject({
      ok: true,
      state: { nextBillingDate: '2027-03-21' },
    });
  });

  it('moves the date only into the next 90 days', () => {
    expect(
      applySubscriptionChange(active, { action: 'move_date', date: '2026-12-05' }, today),
    ).toMatchObject({ ok: true, state: { nextBillingDate: '2026-12-05' } });
    expect(applySubscriptionChange(active, { action: 'move_date', date: today }, today)).toEqual({
      ok: false,
      message: 'Choose a date after today.',
    });
    expect(
      applySubscriptionChange(active, { action: 'move_date', date: '2027-03-01' }, today),
    ).toEqual({ ok: false, message: 'Choose a date within the next 90 days.' });
  });

  it('pauses until a date (billing resumes then) and resumes', () => {
    const paused = applySubscriptionChange(active, { action: 'pause', until: '2027-02-01' }, today);
    expect(paused).toMatchObject({
      ok: true,
      state: { status: 'PAUSED', pausedUntil: '2027-02-01', nextBillingDate: '2027-02-01' },
    });
    if (!paused.ok) return;
    expect(applySubscriptionChange(paused.state, { action: 'skip' }, today)).toEqual({
      ok: false,
      message: 'Only an active subscription can skip a delivery.',
    });
    expect(
      applySubscriptionChange(paused.state, { action: 'pause', until: '2027-03-01' }, today),
    ).toMatchObject({ ok: false });
    expect(applySubscriptionChange(paused.state, { action: 'resume' }, today)).toMatchObject({
      ok: true,
      state: { status: 'ACTIVE', pausedUntil: null, nextBillingDate: '2027-02-01' },
    });
    expect(
      applySubscriptionChange(active, { action: 'pause', until: '2027-12-01' }, today),
    ).toEqual({ ok: false, message: 'You can pause for up to 180 days.' });
  });

  it('refuses a pause that ends before the next billing date, saying why', () => {
    const later = { ...active, nextBillingDate: '2027-03-07' };
    expect(applySubscriptionChange(later, { action: 'pause', until: '2027-01-15' }, today)).toEqual(
      {
        ok: false,
        message:
          'Your next delivery is on 03/07/2027, so a pause until 01/15/2027 would change nothing. Choose a later date, or skip a delivery.',
      },
    );
    expect(
      applySubscriptionChange(later, { action: 'pause', until: '2027-03-08' }, today),
    ).toMatchObject({ ok: true, state: { nextBillingDate: '2027-03-08' } });
  });

  it('cancels with a reason and reactivates with a date no earlier than tomorrow', () => {
    const cancelled = applySubscriptionChange(
      { ...active, nextBillingDate: '2026-11-01' },
      { action: 'cancel', reason: 'Moving abroad' },
      today,
    );
    expect(cancelled).toMatchObject({
      ok: true,
      state: { status: 'CANCELLED', cancelReason: 'Moving abroad' },
    });
    if (!cancelled.ok) return;
    for (const change of [
      { action: 'skip' },
      { action: 'change_quantity', quantity: 2 },
      { action: 'cancel', reason: 'again' },
    ] as const) {
      expect(applySubscriptionChange(cancelled.state, change, today).ok).toBe(false);
    }
    expect(applySubscriptionChange(cancelled.state, { action: 'reactivate' }, today)).toMatchObject(
      { ok: true, state: { status: 'ACTIVE', cancelReason: null, nextBillingDate: '2026-11-22' } },
    );
  });

  it('changes the quantity and swaps to another supplement', () => {
    expect(
      applySubscriptionChange(active, { action: 'change_quantity', quantity: 3 }, today),
    ).toMatchObject({ ok: true, state: { quantity: 3 } });
    expect(
      applySubscriptionChange(
        active,
        { action: 'swap', product_id: offers.biotin.monthly },
        today,
        { productId: offers.biotin.monthly },
      ),
    ).toMatchObject({ ok: true, state: { productId: offers.biotin.monthly } });
    expect(
      applySubscriptionChange(active, { action: 'swap', product_id: offers.sleep.monthly }, today, {
        productId: offers.sleep.monthly,
      }),
    ).toEqual({ ok: false, message: 'Choose another supplement.' });
  });

  it('allows only the transitions of the status diagram', () => {
    expect(canTransitionSubscription('ACTIVE', 'PAST_DUE')).toBe(true);
    expect(canTransitionSubscription('PAST_DUE', 'ACTIVE')).toBe(true);
    expect(canTransitionSubscription('CANCELLED', 'PAUSED')).toBe(false);
    expect(canTransitionSubscription('PAUSED', 'PAST_DUE')).toBe(false);
    expect(canTransitionSubscription('ACTIVE', 'COMPLETED')).toBe(true);
    expect(canTransitionSubscription('COMPLETED', 'ACTIVE')).toBe(false);
  });
});

describe('refill plan changes', () => {
  const today = '2026-11-21';
  const plan: SubscriptionState = {
    status: 'ACTIVE',
    frequency: 'MONTHLY',
    quantity: 1,
    productId: null,
    nextBillingDate: '2026-12-21',
    anchorDay: 21,
    pausedUntil: null,
    cancelReason: null,
    refill: { remaining: 2, until: '2027-01-31' },
  };
  const prescribed = 'Your prescription sets this. Message your provider to change it.';

  it('leaves what the prescription sets to the provider', () => {
    expect(
      applySubscriptionChange(plan, { action: 'change_frequency', frequency: 'QUARTERLY' }, today),
    ).toEqual({ ok: false, message: prescribed });
    expect(
      applySubscriptionChange(plan, { action: 'change_quantity', quantity: 2 }, today),
    ).toEqual({ ok: false, message: prescribed });
    expect(
      applySubscriptionChange(plan, { action: 'swap', product_id: offers.biotin.monthly }, today, {
        productId: offers.biotin.monthly,
      }),
    ).toEqual({ ok: false, message: prescribed });
  });

  it('moves, skips and pauses only within the prescription', () => {
    expect(
      applySubscriptionChange(plan, { action: 'move_date', date: '2027-01-10' }, today),
    ).toMatchObject({ ok: true, state: { nextBillingDate: '2027-01-10' } });
    expect(
      applySubscriptionChange(plan, { action: 'move_date', date: '2027-02-01' }, today),
    ).toEqual({
      ok: false,
      message: 'Your prescription ends on 2027-01-31. Choose an earlier date.',
    });
    expect(applySubscriptionChange(plan, { action: 'skip' }, today)).toMatchObject({
      ok: true,
      state: { nextBillingDate: '2027-01-21' },
    });
    expect(
      applySubscriptionChange(
        { ...plan, nextBillingDate: '2027-01-21' },
        { action: 'skip' },
        today,
      ),
    ).toEqual({
      ok: false,
      message: 'Skipping would move your refill past the end of your prescription on 2027-01-31.',
    });
    expect(applySubscriptionChange(plan, { action: 'pause', until: '2027-03-01' }, today)).toEqual({
      ok: false,
      message: 'Your prescription ends on 2027-01-31. Choose an earlier date.',
    });
  });

  it('reactivates only while refills and the prescription remain, and never once complete', () => {
    const cancelled = { ...plan, status: 'CANCELLED' as const, cancelReason: 'Feeling better' };
    expect(applySubscriptionChange(cancelled, { action: 'reactivate' }, today)).toMatchObject({
      ok: true,
      state: { status: 'ACTIVE' },
    });
    expect(
      applySubscriptionChange(
        { ...cancelled, refill: { remaining: 0, until: '2027-01-31' } },
        { action: 'reactivate' },
        today,
      ),
    ).toEqual({ ok: false, message: 'This prescription has no refills left.' });
    expect(applySubscriptionChange(cancelled, { action: 'reactivate' }, '2027-02-01')).toEqual({
      ok: false,
      message: 'This prescription has ended. Start a new visit to renew it.',
    });
    expect(
      applySubscriptionChange({ ...plan, status: 'COMPLETED' }, { action: 'skip' }, today),
    ).toEqual({
      ok: false,
      message: 'This refill plan is complete. Start a new visit to renew your prescription.',
    });
  });
});

describe('the changes a subscription allows: one rule for the server and the card', () => {
  const today = '2026-11-21';
  const supplement: SubscriptionState = {
    status: 'ACTIVE',
    frequency: 'MONTHLY',
    quantity: 1,
    productId: offers.sleep.monthly,
    nextBillingDate: '2026-12-21',
    anchorDay: 21,
    pausedUntil: null,
    cancelReason: null,
    refill: null,
  };
  const plan: SubscriptionState = {
    ...supplement,
    productId: null,
    refill: { remaining: 2, until: '2027-06-30' },
  };
  // One acceptable example of each change: only the status and the plan decide the outcome.
  const examples: SubscriptionChange[] = [
    { action: 'change_frequency', frequency: 'QUARTERLY' },
    { action: 'skip' },
    { action: 'move_date', date: addDays(today, 10) },
    { action: 'pause', until: addDays(today, 40) },
    { action: 'resume' },
    { action: 'change_quantity', quantity: 2 },
    { action: 'swap', product_id: offers.sleep.quarterly },
    { action: 'cancel', reason: 'Other' },
    { action: 'reactivate' },
  ];

  it('the server makes exactly the changes allowed, and they move the status as the diagram does', () => {
    for (const base of [supplement, plan])
      for (const status of subscriptionStatuses) {
        const state = { ...base, status };
        const allowed = allowedChanges(state);
        for (const change of examples) {
          const outcome = applySubscriptionChange(state, change, today, {
            productId: offers.sleep.quarterly,
          });
          const label = `${base.refill ? 'refill' : 'supplement'} ${status} ${change.action}`;
          expect(outcome.ok, label).toBe(allowed.includes(change.action));
          if (outcome.ok && outcome.state.status !== status)
            expect(canTransitionSubscription(status, outcome.state.status), label).toBe(true);
        }
      }
  });

  it('lists them in the order the card offers them', () => {
    expect(allowedChanges(supplement)).toEqual([
      'change_frequency',
      'skip',
      'move_date',
      'change_quantity',
      'swap',
      'pause',
      'cancel',
    ]);
    expect(allowedChanges({ ...supplement, status: 'PAUSED' })).toEqual([
      'resume',
      'change_frequency',
      'change_quantity',
      'swap',
      'cancel',
    ]);
    expect(allowedChanges(plan)).toEqual(['skip', 'move_date', 'pause', 'cancel']);
  });

  it('a cancelled refill plan comes back only while refills remain', () => {
    expect(allowedChanges({ ...plan, status: 'CANCELLED' })).toEqual(['reactivate']);
    const usedUp = {
      ...plan,
      status: 'CANCELLED' as const,
      refill: { remaining: 0, until: '2027-06-30' },
    };
    expect(allowedChanges(usedUp)).toEqual([]);
    expect(applySubscriptionChange(usedUp, { action: 'reactivate' }, today)).toEqual({
      ok: false,
      message: 'This prescription has no refills left.',
    });
  });
});
