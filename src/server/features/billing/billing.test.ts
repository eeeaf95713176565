import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { createSimulatorGateway, type PaymentGateway } from '#server/adapters/payments.ts';
import { subscriptionsApi, addDays } from '#shared/subscriptions.ts';
import { buildSecondInstance, buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { insertSubscriber, sessionCookie } from '#test/factories.ts';
import { sentMessages } from '#test/outbox.ts';
import { billingJob } from './billing.jobs.ts';
import { BILLING_BATCH, runBilling } from './billing.service.ts';
import { accountsApi } from '#shared/accounts.ts';
import { authApi } from '#shared/auth.ts';
import { callAs } from '#test/contract.ts';
import { offers } from '#shared/catalog.ts';

const DAY = 24 * 60 * 60_000;
const START = '2026-11-21T09:00:00.000Z';

async function counts(t: TestApp, customerIds?: number[]) {
  let orders = t.app.db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('kind', '=', 'renewal');
  if (customerIds) orders = orders.where('customer_id', 'in', customerIds);
  const charges = await t.app.db
    .selectFrom('simulator_charges')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'succeeded')
    .executeTakeFirstOrThrow();
  return { orders: Number((await orders.executeTakeFirstOrThrow()).n), charges: Number(charges.n) };
}

describe(`renewal billing (${testDialect})`, () => {
  let t: TestApp;
  const extra: FastifyInstance[] = [];
  afterEach(async () => {
    for (const app of extra.splice(0)) await app.close();
    await t.close();
  });

  it('a year of monthly renewals for 200 subscriptions yields exactly 2,400 orders and charges', async () => {
    t = await buildTestApp();
    t.clock.set(START);
    const ids: number[] = [];
    for (let i = 0; i < 200; i++) {
      const sub = await insertSubscriber(t.app.db, {
        nextBillingDate: addDays('2026-11-22', i % 28),
        now: START,
      });
      ids.push(sub.subscriptionId);
    }
    // First billing dates spread over Nov 22 – Dec 19; a year on (Nov 21, 2027) each has billed 12 times.
    for (let day = 1; day <= 365; day++) {
      t.clock.advance(DAY);
      await runBilling(t.app.ctx);
    }
    expect(await counts(t)).toEqual({ orders: 2400, charges: 2400 });
    const perSubscription = await t.app.db
      .selectFrom('orders')
      .select(['subscription_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('kind', '=', 'renewal')
      .groupBy('subscription_id')
      .execute();
    expect(perSubscription).toHaveLength(200);
    expect(perSubscription.every((row) => Number(row.n) === 12)).toBe(true);
    const paid = await t.app.db
      .selectFrom('orders')
      .select('id')
      .where('payment_status', '!=', 'paid')
      .where('kind', '=', 'renewal')
      .execute();
    expect(paid).toHaveLength(0);
    // Each charge, one receipt to its payer, queued with the payment: 2,400, none twice.
    const receipts = await t.app.db
      .selectFrom('outbox_messages')
      .select(['subject', (eb) => eb.fn.countAll<number>().as('n')])
      .where('subject', 'like', 'Your Pairwell receipt for order %')
      .groupBy('subject')
      .execute();
    expect(receipts).toHaveLength(2400);
    expect(receipts.every((row) => Number(row.n) === 1)).toBe(true);
  }, 300_000);

  // Several instances share PostgreSQL; SQLite is the single-instance embedded default.
  it.runIf(testDialect === 'postgres')(
    'two app instances billing the same database still make one order and one charge per period',
    async () => {
      t = await buildTestApp();
      t.clock.set(START);
      const second = await buildSecondInstance(t);
      extra.push(second);
      for (let i = 0; i < 40; i++)
        await insertSubscriber(t.app.db, {
          nextBillingDate: addDays('2026-11-22', i % 28),
          now: START,
        });
      for (let day = 1; day <= 92; day++) {
        t.clock.advance(DAY);
        await Promise.all([runBilling(t.app.ctx), runBilling(second.ctx), runBilling(t.app.ctx)]);
      }
      // 40 subscriptions, billed on days 1–28 of each month, three months.
      expect(await counts(t)).toEqual({ orders: 120, charges: 120 });
    },
    120_000,
  );

  it('a renewal interrupted after the charge is completed by the next run, without a second charge', async () => {
    const simulator: { gateway?: PaymentGateway } = {};
    let crashes = 1;
    const crashingGateway: PaymentGateway = {
      cardEntry: 'fields',
      confirmWithCustomer: (request, now) => simulator.gateway!.confirmWithCustomer(request, now),
      tokenize: (card, now) => simulator.gateway!.tokenize(card, now),
      refund: (request, now) => simulator.gateway!.refund(request, now),
      authorize: (request, now) => simulator.gateway!.authorize(request, now),
      capture: (request, now) => simulator.gateway!.capture(request, now),
      release: (request, now) => simulator.gateway!.release(request, now),
      find: (query) => simulator.gateway!.find(query),
      async charge(request, now) {
        const result = await simulator.gateway!.charge(request, now);
        if (crashes > 0) {
          crashes--;
          throw new Error('the process died right after the gateway answered');
        }
        return result;
      },
    };
    t = await buildTestApp({ payments: crashingGateway });
    simulator.gateway = createSimulatorGateway(t.app.db);
    t.clock.set(START);
    const sub = await insertSubscriber(t.app.db, { nextBillingDate: '2026-11-22', now: START });
    t.clock.advance(DAY);
    await expect(runBilling(t.app.ctx)).rejects.toThrow('the process died');
    expect(await counts(t)).toEqual({ orders: 1, charges: 1 });
    // Soon after, another run leaves the in-flight order alone; once it is stale, it is finished.
    await runBilling(t.app.ctx);
    t.clock.advance(6 * 60_000);
    await runBilling(t.app.ctx);
    expect(await counts(t)).toEqual({ orders: 1, charges: 1 });
    const order = await t.app.db
      .selectFrom('orders')
      .select(['payment_status', 'billing_period'])
      .where('subscription_id', '=', sub.subscriptionId)
      .executeTakeFirstOrThrow();
    expect(order).toEqual({ payment_status: 'paid', billing_period: '2026-11-22' });
    const next = await t.app.db
      .selectFrom('subscriptions')
      .select('next_billing_date')
      .where('id', '=', sub.subscriptionId)
      .executeTakeFirstOrThrow();
    expect(next.next_billing_date).toBe('2026-12-22');
  });

  it('a job run bills one small batch and says whether more is due; the runs together bill each renewal once', async () => {
    t = await buildTestApp();
    t.clock.set(START);
    const due = 2 * BILLING_BATCH + 10;
    for (let i = 0; i < due; i++)
      await insertSubscriber(t.app.db, { nextBillingDate: '2026-11-22', now: START });
    t.clock.advance(DAY);
    const job = billingJob(t.app.ctx);
    let runs = 0;
    let billed = 0;
    let more = true;
    while (more) {
      more = await job.run();
      runs++;
      const now = (await counts(t)).orders;
      expect(now - billed).toBeLessThanOrEqual(BILLING_BATCH);
      billed = now;
      expect(runs).toBeLessThan(20);
    }
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(await counts(t)).toEqual({ orders: due, charges: due });
    // The runner's own billing job, drained, finds nothing left to bill.
    await t.app.ctx.jobs.drain('billing');
    expect(await counts(t)).toEqual({ orders: due, charges: due });
  });

  it('subscriptions billing cannot renew now do not hold up the ones due after them', async () => {
    t = await buildTestApp();
    t.clock.set(START);
    // More than a batch of subscriptions, first in line, whose customers have no shipping address.
    const stuck: number[] = [];
    for (let i = 0; i < BILLING_BATCH + 5; i++)
      stuck.push(
        (await insertSubscriber(t.app.db, { nextBillingDate: '2026-11-20', now: START }))
          .customerId,
      );
    await t.app.db.deleteFrom('customer_addresses').where('customer_id', 'in', stuck).execute();
    const ready: number[] = [];
    for (let i = 0; i < 10; i++)
      ready.push(
        (await insertSubscriber(t.app.db, { nextBillingDate: '2026-11-22', now: START }))
          .customerId,
      );
    t.clock.advance(DAY);
    await runBilling(t.app.ctx);
    expect(await counts(t, ready)).toEqual({ orders: 10, charges: 10 });
    expect((await counts(t, stuck)).orders).toBe(0);
  });

  it('a subscription several periods behind catches up in one billing run, one order per period', async () => {
    t = await buildTestApp();
    t.clock.set(START);
    const sub = await insertSubscriber(t.app.db, { nextBillingDate: '2026-08-22', now: START });
    t.clock.advance(DAY);
    await runBilling(t.app.ctx);
    const periods = await t.app.db
      .selectFrom('orders')
      .select('billing_period')
      .where('subscription_id', '=', sub.subscriptionId)
      .orderBy('billing_period')
      .execute();
    expect(periods.map((row) => row.billing_period)).toEqual([
      '2026-08-22',
      '2026-09-22',
      '2026-10-22',
      '2026-11-22',
    ]);
    expect(await counts(t)).toEqual({ orders: 4, charges: 4 });
  });

  // The write lock is SQLite's whole-database lock; another connection to the file can take it
  // only when billing holds no transaction open.
  it.runIf(testDialect === 'sqlite')(
    'billing calls the gateway with no database write lock held',
    async () => {
      const simulator: { gateway?: PaymentGateway } = {};
      const lockFree: boolean[] = [];
      const other: { connection?: SQLite.Database } = {};
      const checkedCharge: PaymentGateway['charge'] = async (request, now) => {
        try {
          other.connection!.exec('begin immediate');
          other.connection!.exec('rollback');
          lockFree.push(true);
        } catch {
          lockFree.push(false);
        }
        return simulator.gateway!.charge(request, now);
      };
      // Every other gateway call goes to the simulator as it is.
      const gateway = new Proxy({} as PaymentGateway, {
        get: (_target, name) =>
          name === 'charge' ? checkedCharge : Reflect.get(simulator.gateway!, name),
      });
      t = await buildTestApp({ payments: gateway });
      simulator.gateway = createSimulatorGateway(t.app.db);
      other.connection = new SQLite(path.join(t.dataDir, 'pairwell.db'), { timeout: 0 });
      try {
        t.clock.set(START);
        for (let i = 0; i < BILLING_BATCH + 5; i++)
          await insertSubscriber(t.app.db, { nextBillingDate: '2026-11-22', now: START });
        t.clock.advance(DAY);
        await runBilling(t.app.ctx);
      } finally {
        other.connection.close();
      }
      expect(lockFree).toHaveLength(BILLING_BATCH + 5);
      expect(lockFree.every(Boolean)).toBe(true);
      expect(await counts(t)).toEqual({ orders: BILLING_BATCH + 5, charges: BILLING_BATCH + 5 });
    },
  );

  it.runIf(testDialect === 'postgres')(
    'billing jobs on two instances, batch by batch at the same time, make one order and one charge per renewal',
    async () => {
      t = await buildTestApp();
      t.clock.set(START);
      const second = await buildSecondInstance(t);
      extra.push(second);
      const due = 3 * BILLING_BATCH;
      for (let i = 0; i < due; i++)
        await insertSubscriber(t.app.db, { nextBillingDate: '2026-11-22', now: START });
      t.clock.advance(DAY);
      const drain = async (job: ReturnType<typeof billingJob>) => {
        let more = true;
        while (more) more = await job.run();
      };
      await Promise.all([
        drain(billingJob(t.app.ctx)),
        drain(billingJob(second.ctx)),
        drain(billingJob(second.ctx)),
      ]);
      expect(await counts(t)).toEqual({ orders: due, charges: due });
    },
  );
});

describe(`failed payments (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  async function customerWithFailingCard() {
    t.clock.set(START);
    const email = `failing-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`;
    const login = await callAs(t.app, accountsApi.accountCreate, {
      email,
      first_name: 'Fay',
      last_name: 'Lure',
      password: 'a safe passphrase',
      dob: '01/02/1980',
      phoneNo: '5035550123',
      consent: true,
    });
    const cookie = sessionCookie(login);
    const leadsId = login.json<{ data: { leads_id: string } }>().data.leads_id;
    const customerId = login.json<{ data: { user: { customer_id: number } } }>().data.user
      .customer_id;
    await callAs(
      t.app,
      accountsApi.address,
      {
        leads_id: leadsId,
        address: '9 Elm St',
        city: 'Portland',
        state: 'OR',
        zip: '97201',
        billing_address: '9 Elm St',
        billing_city: 'Portland',
        billing_state: 'OR',
        billing_zip: '97201',
        phoneNo: '5035550123',
        smsallow: 0,
      },
      cookie,
    );
    // 4000 0000 0000 0341 saves, but every charge on it fails.
    await callAs(
      t.app,
      accountsApi.ccUpdate,
      { ccnum: '4000000000000341', ccexp: '12/30', cccvv: '123', consent: true },
      cookie,
    );
    const subscription = await t.app.db
      .insertInto('subscriptions')
      .values({
        customer_id: customerId,
        product_id: offers.sleep.monthly,
        frequency: 'MONTHLY',
        quantity: 1,
        unit_price_cents: 1750,
        status: 'ACTIVE',
        next_billing_date: '2026-11-22',
        billing_anchor_day: 22,
        paused_until: null,
        cancelled_at: null,
        cancel_reason: null,
        created_order_id: null,
        created_at: START,
        updated_at: START,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Sessions end after 30 idle minutes; the clock moves days here, so log in again when needed.
    const freshCookie = async () =>
      sessionCookie(await callAs(t.app, authApi.login, { email, password: 'a safe passphrase' }));
    return { email, cookie, freshCookie, leadsId, customerId, subscriptionId: subscription.id };
  }

  const attempts = (customerId: number) =>
    t.app.db
      .selectFrom('orders')
      .select(['payment_attempts', 'payment_status', 'next_retry_at', 'status'])
      .where('customer_id', '=', customerId)
      .where('kind', '=', 'renewal')
      .executeTakeFirst();
  const subscriptionStatus = async (id: number) =>
    await t.app.db
      .selectFrom('subscriptions')
      .select(['status', 'next_billing_date'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('sets billingFlag, emails, retries after 1, 3 and 7 days, then pauses; a card update clears it with one charge', async () => {
    const c = await customerWithFailingCard();
    t.clock.advance(DAY);
    await runBilling(t.app.ctx);
    expect(await attempts(c.customerId)).toMatchObject({
      payment_attempts: 1,
      payment_status: 'unpaid',
      status: 'PAYMENT_FAILED',
      next_retry_at: '2026-11-23T09:00:00.000Z',
    });
    expect(await subscriptionStatus(c.subscriptionId)).toEqual({
      status: 'PAST_DUE',
      next_billing_date: '2026-11-22',
    });
    const patient = await callAs(
      t.app,
      accountsApi.patientData,
      { leads_id: c.leadsId },
      await c.freshCookie(),
    );
    const flag = patient.json<{ message: { billingFlag: { orders_id: number } | null } }>().message
      .billingFlag;
    expect(flag?.orders_id).toBeGreaterThan(0);
    const mailTo = async (subject: string) =>
      (await sentMessages(t)).find((m) => m.to === c.email && m.subject === subject);
    // The email says what the renewal brings, in bottles.
    expect((await mailTo("We couldn't process your Pairwell payment"))?.text).toMatch(
      /for your subscription renewal of Sleep Gummies \(1 bottle a month\), order PW-\d+\./,
    );

    const schedule: (string | null)[] = [];
    for (let day = 2; day <= 9; day++) {
      t.clock.advance(DAY);
      await runBilling(t.app.ctx);
      const order = await attempts(c.customerId);
      if (order) schedule.push(`${day}:${order.payment_attempts}`);
    }
    // Day 1 (after the failure on day 0): attempt 2; day 3: attempt 3; day 7: attempt 4, then none.
    expect(schedule).toEqual(['2:2', '3:2', '4:3', '5:3', '6:3', '7:3', '8:4', '9:4']);
    expect(await attempts(c.customerId)).toMatchObject({
      payment_attempts: 4,
      next_retry_at: null,
    });
    expect(await subscriptionStatus(c.subscriptionId)).toEqual({
      status: 'PAUSED',
      next_billing_date: '2026-11-22',
    });
    expect((await mailTo('Your Pairwell subscription is paused'))?.text).toMatch(
      /for order PW-\d+, Sleep Gummies \(1 bottle a month\), so we have paused/,
    );

    const before = await t.app.db
      .selectFrom('simulator_charges')
      .select('id')
      .where('status', '=', 'succeeded')
      .execute();
    const cookie = await c.freshCookie();
    const update = await callAs(
      t.app,
      accountsApi.ccUpdate,
      { ccnum: '4242424242424242', ccexp: '12/30', cccvv: '123', consent: true },
      cookie,
    );
    expect(update.statusCode).toBe(200);
    // The answer says the failed order was charged now: its number and amount.
    expect(update.json()).toMatchObject({
      data: {
        retries: [
          {
            order_number: expect.stringMatching(/^PW-\d+$/),
            amount_cents: 1750,
            outcome: 'paid',
            reason: null,
          },
        ],
      },
    });
    const after = await t.app.db
      .selectFrom('simulator_charges')
      .select('id')
      .where('status', '=', 'succeeded')
      .execute();
    expect(after.length - before.length).toBe(1);
    expect(await attempts(c.customerId)).toMatchObject({
      payment_status: 'paid',
      status: 'PROCESSING',
    });
    const cleared = await callAs(t.app, accountsApi.patientData, { leads_id: c.leadsId }, cookie);
    expect(cleared.json()).toMatchObject({ message: { billingFlag: null } });
    expect(await subscriptionStatus(c.subscriptionId)).toEqual({
      status: 'ACTIVE',
      next_billing_date: '2026-12-22',
    });
    // The arrears the new card paid: one receipt, saying what it pays.
    const receipts = (await sentMessages(t)).filter((m) => m.subject.includes('receipt for order'));
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.text).toMatch(
      /We charged \$17\.50 to your card on file on \d\d\/\d\d\/2026 for order PW-\d+: your subscription renewal of Sleep Gummies \(1 bottle a month\)\.\nThis pays the renewal we could not charge before\./,
    );
  });

  it('cancelling a past-due subscription ends what it owed: no retry, no flag, no charge at a card update', async () => {
    const c = await customerWithFailingCard();
    t.clock.advance(DAY);
    await runBilling(t.app.ctx);
    expect(await attempts(c.customerId)).toMatchObject({ payment_status: 'unpaid' });
    const cookie = await c.freshCookie();
    const cancelled = await callAs(
      t.app,
      subscriptionsApi.subscriptionUpdate,
      {
        leads_id: c.leadsId,
        subscription_id: c.subscriptionId,
        change: { action: 'cancel', reason: 'Moving abroad' },
        preview: false,
      },
      cookie,
    );
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await attempts(c.customerId)).toMatchObject({
      payment_status: 'voided',
      status: 'CANCELLED',
      next_retry_at: null,
    });
    const before = await t.app.db.selectFrom('simulator_charges').select('id').execute();
    // The retry days pass: nothing is tried.
    for (let day = 0; day < 8; day++) {
      t.clock.advance(DAY);
      await runBilling(t.app.ctx);
    }
    const later = await c.freshCookie();
    const flag = await callAs(t.app, accountsApi.patientData, { leads_id: c.leadsId }, later);
    expect(flag.json()).toMatchObject({ message: { billingFlag: null } });
    // A new card charges nothing for it.
    const update = await callAs(
      t.app,
      accountsApi.ccUpdate,
      { ccnum: '4242424242424242', ccexp: '12/30', cccvv: '123', consent: true },
      later,
    );
    expect(update.statusCode).toBe(200);
    expect(update.json()).toMatchObject({ data: { retries: [] } });
    const after = await t.app.db.selectFrom('simulator_charges').select('id').execute();
    expect(after.length).toBe(before.length);
  });

  it('a cancel racing a card update never leaves a voided order charged', async () => {
    for (let round = 0; round < 8; round++) {
      const c = await customerWithFailingCard();
      t.clock.advance(DAY);
      await runBilling(t.app.ctx);
      const cookie = await c.freshCookie();
      const chargesBefore = await t.app.db
        .selectFrom('simulator_charges')
        .select(['id', 'amount_cents'])
        .where('status', '=', 'succeeded')
        .execute();
      const [cardUpdate, cancel] = await Promise.all([
        callAs(
          t.app,
          accountsApi.ccUpdate,
          { ccnum: '4242424242424242', ccexp: '12/30', cccvv: '123', consent: true },
          cookie,
        ),
        callAs(
          t.app,
          subscriptionsApi.subscriptionUpdate,
          {
            leads_id: c.leadsId,
            subscription_id: c.subscriptionId,
            change: { action: 'cancel', reason: 'Changed my mind' },
            preview: false,
          },
          cookie,
        ),
      ]);
      // Each answers as it should: the card is saved; the cancel is done, or refused as changed
      // meanwhile (the renewal was paid first), never a server error.
      expect(cardUpdate.statusCode, cardUpdate.body).toBe(200);
      expect([200, 409], cancel.body).toContain(cancel.statusCode);
      const known = new Set(chargesBefore.map((charge) => charge.id));
      const newCharges = (
        await t.app.db
          .selectFrom('simulator_charges')
          .select(['id', 'amount_cents'])
          .where('status', '=', 'succeeded')
          .execute()
      ).filter((charge) => !known.has(charge.id));
      const refunded = await t.app.db
        .selectFrom('simulator_refunds')
        .select(['charge_id', 'amount_cents'])
        .where(
          'charge_id',
          'in',
          newCharges.length > 0 ? newCharges.map((charge) => charge.id) : ['none'],
        )
        .execute();
      const net =
        newCharges.reduce((sum, charge) => sum + charge.amount_cents, 0) -
        refunded.reduce((sum, refund) => sum + refund.amount_cents, 0);
      const order = await attempts(c.customerId);
      // Paid once before the cancel, or voided and charged nothing: never both.
      if (order?.payment_status === 'paid') expect(net).toBe(1750);
      else {
        expect(order).toMatchObject({ payment_status: 'voided' });
        expect(net).toBe(0);
      }
    }
  });

  it('a new card that is also declined is saved, and the answer says the order was not charged and why', async () => {
    const c = await customerWithFailingCard();
    t.clock.advance(DAY);
    await runBilling(t.app.ctx);
    const failed = await attempts(c.customerId);
    expect(failed).toMatchObject({ payment_status: 'unpaid', payment_attempts: 1 });
    const update = await callAs(
      t.app,
      accountsApi.ccUpdate,
      { ccnum: '4000000000000341', ccexp: '11/31', cccvv: '123', consent: true },
      await c.freshCookie(),
    );
    expect(update.statusCode).toBe(200);
    const retries = update.json<{ data: { retries: unknown[] } }>().data.retries;
    expect(retries).toEqual([
      {
        order_number: expect.stringMatching(/^PW-\d+$/),
        amount_cents: 1750,
        outcome: 'failed',
        reason: expect.any(String),
      },
    ]);
    const stored = await t.app.db
      .selectFrom('orders')
      .select('payment_failure')
      .where('customer_id', '=', c.customerId)
      .executeTakeFirstOrThrow();
    expect(retries[0]).toMatchObject({ reason: stored.payment_failure });
    expect(await attempts(c.customerId)).toMatchObject({
      payment_status: 'unpaid',
      payment_attempts: 2,
    });
    // Another customer's update answers only their own orders.
    const other = await customerWithFailingCard();
    const theirs = await callAs(
      t.app,
      accountsApi.ccUpdate,
      { ccnum: '4242424242424242', ccexp: '12/30', cccvv: '123', consent: true },
      other.cookie,
    );
    expect(theirs.json()).toMatchObject({ data: { retries: [] } });
  });

  it('a card that expires before the next billing date sets expiredFlag', async () => {
    const c = await customerWithFailingCard();
    await t.app.db
      .updateTable('subscriptions')
      .set({ next_billing_date: '2026-12-22' })
      .where('id', '=', c.subscriptionId)
      .execute();
    await callAs(
      t.app,
      accountsApi.ccUpdate,
      { ccnum: '4242424242424242', ccexp: '11/26', cccvv: '123', consent: true },
      c.cookie,
    );
    const patient = await callAs(t.app, accountsApi.patientData, { leads_id: c.leadsId }, c.cookie);
    expect(patient.json()).toMatchObject({ message: { expiredFlag: true } });
    const basics = await callAs(t.app, accountsApi.basics, {}, c.cookie);
    expect(
      basics.json<{ data: { flags: { type: string }[] } }>().data.flags.map((f) => f.type),
    ).toContain('card_expiring');
  });
});
