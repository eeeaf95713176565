import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { site } from '#shared/site.ts';
import { cartApi } from '#shared/cart.ts';
import { offers } from '#shared/catalog.ts';
import { checkoutApi } from '#shared/checkout.ts';
import { addDays, subscriptionsApi, type SubscriptionChange } from '#shared/subscriptions.ts';
import { buildSecondInstance, buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import { buildPlaceOrder, insertCustomer, type TestCustomer } from '#test/factories.ts';
import {
  RENEWAL_REMINDER_DAYS,
  RENEWAL_REMINDER_JOB,
  remindRenewals,
} from './subscriptions.emails.ts';

describe(`subscription emails (${testDialect})`, () => {
  let t: TestApp;
  /** Another instance on the same database; SQLite is the single-instance embedded default. */
  let second: FastifyInstance;
  beforeAll(async () => {
    t = await buildTestApp();
    second = testDialect === 'postgres' ? await buildSecondInstance(t) : t.app;
  });
  afterAll(async () => {
    if (second !== t.app) await second.close();
    await t.close();
  });

  const today = () => t.clock.now().toISOString().slice(0, 10);
  type Subscriber = TestCustomer & { subscriptionId: number };

  /** A customer who bought Sleep Gummies monthly, whose next renewal is on `nextBillingDate`. */
  async function subscriber(nextBillingDate: string): Promise<Subscriber> {
    const c = await insertCustomer(t.app);
    await callAs(
      t.app,
      cartApi.addProduct,
      { product_id: offers.sleep.monthly, quantity: 1 },
      c.cookie,
    );
    const placed = await callAs(t.app, checkoutApi.placeOrder, buildPlaceOrder(), c.cookie);
    expect(placed.statusCode, placed.body).toBe(200);
    const row = await t.app.db
      .updateTable('subscriptions')
      .set({ next_billing_date: nextBillingDate })
      .where('customer_id', '=', c.customerId)
      .returning('id')
      .executeTakeFirstOrThrow();
    return { ...c, subscriptionId: row.id };
  }

  /** The subscription emails the outbox holds for a subscriber, queued or sent. */
  function queuedFor(s: Subscriber) {
    return t.app.db
      .selectFrom('outbox_messages')
      .selectAll()
      .where('recipient', '=', s.email)
      .where((eb) =>
        eb.or([
          eb('subject', 'like', '%subscription renews on%'),
          eb('subject', 'like', '%subscription is cancelled'),
        ]),
      )
      .orderBy('id')
      .execute();
  }

  const change = (s: Subscriber, body: SubscriptionChange, preview = false) =>
    callAs(
      t.app,
      subscriptionsApi.subscriptionUpdate,
      { leads_id: s.leadsId, subscription_id: s.subscriptionId, change: body, preview },
      s.cookie,
    );

  it(`reminds once, ${RENEWAL_REMINDER_DAYS} days ahead, even when the job runs twice at once (on two instances on PostgreSQL)`, async () => {
    const due = await subscriber(addDays(today(), RENEWAL_REMINDER_DAYS));
    const later = await subscriber(addDays(today(), RENEWAL_REMINDER_DAYS + 1));
    await Promise.all([
      t.app.ctx.jobs.drain(RENEWAL_REMINDER_JOB),
      second.ctx.jobs.drain(RENEWAL_REMINDER_JOB),
      remindRenewals(t.app.ctx),
      remindRenewals(second.ctx),
    ]);
    await t.app.ctx.jobs.drain(RENEWAL_REMINDER_JOB);
    const mails = await queuedFor(due);
    expect(mails).toHaveLength(1);
    const date = addDays(today(), RENEWAL_REMINDER_DAYS).split('-');
    const us = `${date[1]}/${date[2]}/${date[0]}`;
    expect(mails[0]?.subject).toBe(`Your ${site.name} subscription renews on ${us}`);
    const text = JSON.stringify(mails[0]);
    expect(text).toContain('$17.50 for Sleep Gummies (1 bottle a month)');
    expect(text).toContain('/subscriptions');
    expect(await queuedFor(later)).toHaveLength(0);
    const claims = await t.app.db
      .selectFrom('renewal_reminders')
      .selectAll()
      .where('subscription_id', '=', due.subscriptionId)
      .execute();
    expect(claims).toHaveLength(1);

    // The next period is announced again, once.
    await t.app.db
      .updateTable('subscriptions')
      .set({ next_billing_date: addDays(today(), 2) })
      .where('id', '=', due.subscriptionId)
      .execute();
    await t.app.ctx.jobs.drain(RENEWAL_REMINDER_JOB);
    await second.ctx.jobs.drain(RENEWAL_REMINDER_JOB);
    expect(await queuedFor(due)).toHaveLength(2);
  });

  it('does not remind a paused or cancelled subscription, nor one whose date has passed', async () => {
    const paused = await subscriber(addDays(today(), 2));
    const cancelled = await subscriber(addDays(today(), 2));
    const past = await subscriber(addDays(today(), -1));
    const dueToday = await subscriber(today());
    const pausedUntil = addDays(today(), 20);
    const pause = await change(paused, { action: 'pause', until: pausedUntil });
    expect(pause.statusCode, pause.body).toBe(200);
    // Paused past the date it would have renewed on: nothing to announce yet.
    expect(pause.json()).toMatchObject({ data: { subscription: { status: 'PAUSED' } } });
    await t.app.db
      .updateTable('subscriptions')
      .set({ next_billing_date: addDays(today(), 2) })
      .where('id', '=', paused.subscriptionId)
      .execute();
    const cancel = await change(cancelled, { action: 'cancel', reason: 'Moving abroad' });
    expect(cancel.statusCode, cancel.body).toBe(200);
    await t.app.ctx.jobs.drain(RENEWAL_REMINDER_JOB);
    for (const s of [paused, past, dueToday]) expect(await queuedFor(s)).toEqual([]);
    expect((await queuedFor(cancelled)).map((m) => m.subject)).toEqual([
      `Your ${site.name} subscription is cancelled`,
    ]);
  });

  it('cancelling queues one confirmation, in the same change, with the way back', async () => {
    const s = await subscriber(addDays(today(), 10));
    const cancel = await change(s, { action: 'cancel', reason: 'Too many bottles at home' });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const mails = await queuedFor(s);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe(`Your ${site.name} subscription is cancelled`);
    const body = JSON.stringify(mails[0]);
    expect(body).toContain('Sleep Gummies (1 bottle a month)');
    expect(body).toContain('We will not charge you for it again');
    expect(body).toContain('restart it any time');
    // The reason is the customer's own words: not repeated in email.
    expect(body).not.toContain('Too many bottles');

    // A preview, or a refused second cancel, queues nothing.
    const again = await change(s, { action: 'cancel', reason: 'Again' });
    expect(again.json()).toMatchObject({
      status: 'FAILURE',
      message: 'This subscription is already cancelled.',
    });
    const other = await subscriber(addDays(today(), 10));
    const preview = await change(other, { action: 'cancel', reason: 'Just looking' }, true);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(await queuedFor(s)).toHaveLength(1);
    expect(await queuedFor(other)).toHaveLength(0);
  });
});
