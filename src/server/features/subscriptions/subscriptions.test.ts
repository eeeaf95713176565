import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Subscription } from '#shared/subscriptions.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { buildPlaceOrder, insertCustomer, post, type TestCustomer } from '#test/factories.ts';

describe(`subscriptions API (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  /** A customer who bought Sleep Gummies monthly: their subscription starts with the order. */
  async function subscriber(): Promise<{ c: TestCustomer; sub: Subscription }> {
    const c = await insertCustomer(t.app);
    await post(t.app, '/lapi/v2/ecom/add-product', { product_id: 41, quantity: 1 }, c.cookie);
    await post(t.app, '/lapi/v2/ecom/place-order', buildPlaceOrder(), c.cookie);
    const list = await post(
      t.app,
      '/lapi/account/subscriptions/',
      { leads_id: c.leadsId },
      c.cookie,
    );
    const sub = list.json<{ data: { subscriptions: Subscription[] } }>().data.subscriptions[0];
    if (!sub) throw new Error('no subscription');
    return { c, sub };
  }

  const update = (c: TestCustomer, subscriptionId: number, change: object, preview = false) =>
    post(
      t.app,
      '/lapi/subscription/update/',
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
        { product_id: 31, name: 'Biotin Gummies' },
        { product_id: 36, name: 'Immunity Gummies' },
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
        subscription: { frequency: 'QUARTERLY', price_cents: 4500, product_id: 42 },
      },
    });
    const unchanged = await post(
      t.app,
      '/lapi/account/subscriptions/',
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
    const back = await post(
      t.app,
      '/lapi/account/shipfrequency/',
      { leads_id: c.leadsId, subscription_id: sub.id, frequency: 'MONTHLY' },
      c.cookie,
    );
    expect(back.json()).toMatchObject({
      data: { subscription: { frequency: 'MONTHLY', product_id: 41, price_cents: 1750 } },
    });
  });

  it('skips, moves the date, pauses, resumes, changes quantity, swaps, cancels and reactivates', async () => {
    const { c, sub } = await subscriber();
    const steps: [object, object][] = [
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
        { action: 'swap', product_id: 36 },
        { product_id: 36, name: 'Immunity Gummies' },
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
    const swap = await update(c, sub.id, { action: 'swap', product_id: 160 });
    expect(swap.json()).toMatchObject({ message: 'Reactivate this subscription to change it.' });
    const noReason = await update(c, sub.id, { action: 'cancel', reason: '' });
    expect(noReason.json()).toMatchObject({
      fields: { 'change.reason': 'Tell us why you are cancelling' },
    });
  });

  it("another customer's subscription is not found and cannot be changed", async () => {
    const { c, sub } = await subscriber();
    const other = await insertCustomer(t.app);
    const theirs = await post(
      t.app,
      '/lapi/subscription/update/',
      {
        leads_id: other.leadsId,
        subscription_id: sub.id,
        change: { action: 'skip' },
        preview: false,
      },
      other.cookie,
    );
    expect(theirs.statusCode).toBe(404);
    const wrongLeads = await post(
      t.app,
      '/lapi/subscription/update/',
      { leads_id: c.leadsId, subscription_id: sub.id, change: { action: 'skip' }, preview: false },
      other.cookie,
    );
    expect(wrongLeads.statusCode).toBe(403);
    const list = await post(
      t.app,
      '/lapi/account/subscriptions/',
      { leads_id: c.leadsId },
      other.cookie,
    );
    expect(list.statusCode).toBe(403);
    const mine = await post(
      t.app,
      '/lapi/account/subscriptions/',
      { leads_id: c.leadsId },
      c.cookie,
    );
    expect(mine.json()).toMatchObject({
      data: { subscriptions: [{ next_billing_date: '2026-12-21', status: 'ACTIVE' }] },
    });
  });
});
