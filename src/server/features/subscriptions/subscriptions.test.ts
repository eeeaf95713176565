import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartApi } from '#shared/cart.ts';
import { offers } from '#shared/catalog.ts';
import { checkoutApi } from '#shared/checkout.ts';
import {
  subscriptionsApi,
  type Subscription,
  type SubscriptionChange,
} from '#shared/subscriptions.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import { buildPlaceOrder, insertCustomer, type TestCustomer } from '#test/factories.ts';

describe(`subscriptions API (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  /** A customer who bought Sleep Gummies monthly: their subscription starts with the order. */
  async function subscriber(): Promise<{ c: TestCustomer; sub: Subscription }> {
    const c = await insertCustomer(t.app);
    await callAs(
      t.app,
      cartApi.addProduct,
      { product_id: offers.sleep.monthly, quantity: 1 },
      c.cookie,
    );
    await callAs(t.app, checkoutApi.placeOrder, buildPlaceOrder(), c.cookie);
    const list = await callAs(
      t.app,
      subscriptionsApi.subscriptions,
      { leads_id: c.leadsId },
      c.cookie,
    );
    const sub = list.json<{ data: { subscriptions: Subscription[] } }>().data.subscriptions[0];
    if (!sub) throw new Error('no subscription');
    return { c, sub };
  }

  const update = (
    c: TestCustomer,
    subscriptionId: number,
    change: SubscriptionChange,
    preview = false,
  ) =>
    callAs(
      t.app,
      subscriptionsApi.subscriptionUpdate,
      { leads_id: c.leadsId, subscription_id: subscriptionId, change, preview },
      c.cookie,
    );

  it('lists the subscription with product, frequency, price, next billing date, status and card', async () => {
    const { sub } = await subscriber();
    expect(sub).toMatchObject({
      name: 'Sleep Gummies',
      frequency: 'MONTHLY',
      quantity: 1,
      price_cents: 1750,
      status: 'ACTIVE',
      next_billing_date: '2026-12-21',
      card: { brand: 'Visa', last4: '4242' },
      swap_options: [
        { product_id: offers.biotin.monthly, name: 'Biotin Gummies' },
        { product_id: offers.immunity.monthly, name: 'Immunity Gummies' },
      ],
    });
  });

  it('previews a change (new price and date) without making it, then makes it', async () => {
    const { c, sub } = await subscriber();
    const preview = await update(
      c,
      sub.id,
      { action: 'change_frequency', frequency: 'QUARTERLY' },
      true,
    );
    expect(preview.json()).toMatchObject({
      data: {
        preview: true,
        subscription: {
          frequency: 'QUARTERLY',
          price_cents: 4500,
          product_id: offers.sleep.quarterly,
        },
      },
    });
    const unchanged = await callAs(
      t.app,
      subscriptionsApi.subscriptions,
      { leads_id: c.leadsId },
      c.cookie,
    );
    expect(unchanged.json()).toMatchObject({ data: { subscriptions: [{ frequency: 'MONTHLY' }] } });
    const done = await update(c, sub.id, { action: 'change_frequency', frequency: 'QUARTERLY' });
    expect(done.json()).toMatchObject({
      status: 'SUCCESS',
      message: 'Your subscription now ships every quarter.',
      data: {
        preview: false,
        subscription: {
          frequency: 'QUARTERLY',
          price_cents: 4500,
          next_billing_date: '2026-12-21',
        },
      },
    });
    const back = await callAs(
      t.app,
      subscriptionsApi.shipFrequency,
      { leads_id: c.leadsId, subscription_id: sub.id, frequency: 'MONTHLY' },
      c.cookie,
    );
    expect(back.json()).toMatchObject({
      data: {
        subscription: {
          frequency: 'MONTHLY',
          product_id: offers.sleep.monthly,
          price_cents: 1750,
        },
      },
    });
  });

  it('skips, moves the date, pauses, resumes, changes quantity, swaps, cancels and reactivates', async () => {
    const { c, sub } = await subscriber();
    const steps: [SubscriptionChange, object][] = [
      [{ action: 'skip' }, { next_billing_date: '2027-01-21' }],
      [{ action: 'move_date', date: '2026-12-30' }, { next_billing_date: '2026-12-30' }],
      [
        { action: 'pause', until: '2027-02-01' },
        { status: 'PAUSED', paused_until: '2027-02-01', next_billing_date: '2027-02-01' },
      ],
      [{ action: 'resume' }, { status: 'ACTIVE', paused_until: null }],
      [
        { action: 'change_quantity', quantity: 2 },
        { quantity: 2, price_cents: 3500 },
      ],
      [
        { action: 'swap', product_id: offers.immunity.monthly },
        { product_id: offers.immunity.monthly, name: 'Immunity Gummies' },
      ],
      [
        { action: 'cancel', reason: 'Too many bottles at home' },
        { status: 'CANCELLED', cancel_reason: 'Too many bottles at home' },
      ],
      [{ action: 'reactivate' }, { status: 'ACTIVE', cancel_reason: null }],
    ];
    for (const [change, expected] of steps) {
      const response = await update(c, sub.id, change);
      expect(response.statusCode, JSON.stringify(change)).toBe(200);
      expect(
        response.json<{ data: { subscription: Subscription } }>().data.subscription,
      ).toMatchObject(expected);
    }
  });

  it('a refused change says why', async () => {
    const { c, sub } = await subscriber();
    await update(c, sub.id, { action: 'cancel', reason: 'No longer needed' });
    const skip = await update(c, sub.id, { action: 'skip' });
    expect(skip.statusCode).toBe(400);
    expect(skip.json()).toMatchObject({
      status: 'FAILURE',
      message: 'Only an active subscription can skip a delivery.',
    });
    const swap = await update(c, sub.id, { action: 'swap', product_id: offers.bundle.oneTime });
    expect(swap.json()).toMatchObject({ message: 'Reactivate this subscription to change it.' });
    const noReason = await update(c, sub.id, { action: 'cancel', reason: '' });
    expect(noReason.json()).toMatchObject({
      fields: { 'change.reason': 'Tell us why you are cancelling' },
    });
  });

  it("another customer's subscription is not found and cannot be changed", async () => {
    const { c, sub } = await subscriber();
    const other = await insertCustomer(t.app);
    const theirs = await callAs(
      t.app,
      subscriptionsApi.subscriptionUpdate,
      {
        leads_id: other.leadsId,
        subscription_id: sub.id,
        change: { action: 'skip' },
        preview: false,
      },
      other.cookie,
    );
    expect(theirs.statusCode).toBe(404);
    const wrongLeads = await callAs(
      t.app,
      subscriptionsApi.subscriptionUpdate,
      { leads_id: c.leadsId, subscription_id: sub.id, change: { action: 'skip' }, preview: false },
      other.cookie,
    );
    expect(wrongLeads.statusCode).toBe(403);
    const list = await callAs(
      t.app,
      subscriptionsApi.subscriptions,
      { leads_id: c.leadsId },
      other.cookie,
    );
    expect(list.statusCode).toBe(403);
    const mine = await callAs(
      t.app,
      subscriptionsApi.subscriptions,
      { leads_id: c.leadsId },
      c.cookie,
    );
    expect(mine.json()).toMatchObject({
      data: { subscriptions: [{ next_billing_date: '2026-12-21', status: 'ACTIVE' }] },
    });
  });
});
