import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '#server/features/auth/passwords.ts';
import { runBilling } from '#server/features/billing/billing.service.ts';
import { createStaff } from '#server/features/staff/staff.service.ts';
import { latestQuestionnaire } from '#shared/questionnaires/registry.ts';
import { authApi } from '#shared/auth.ts';
import { cartApi } from '#shared/cart.ts';
import { offers } from '#shared/catalog.ts';
import { checkoutApi } from '#shared/checkout.ts';
import { dashboardApi, type Dashboard, type DashboardDay } from '#shared/dashboard.ts';
import { operationsApi } from '#shared/operations.ts';
import { subscriptionsApi } from '#shared/subscriptions.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs, malformed } from '#test/contract.ts';
import {
  buildPlaceOrder,
  insertCustomer,
  insertSubscriber,
  staffCookie,
  type StaffCredentials,
  type TestCustomer,
} from '#test/factories.ts';

const ops: StaffCredentials = {
  email: 'ops@dashboard.test',
  password: 'dashboard ops passphrase',
  totpSecret: 'KVKFKRCPNZQUYMLX',
};
const provider: StaffCredentials = {
  email: 'provider@dashboard.test',
  password: 'dashboard provider passphrase',
  totpSecret: 'JBSWY3DPEHPK3PXP',
};

/** The moment the dashboard is read: its window is 2026-10-23 to 2026-11-21 (UTC). */
const NOW = '2026-11-21T12:00:00.000Z';

describe(`the operator's dashboard (${testDialect})`, () => {
  let t: TestApp;
  let orderRefunded: number;
  /** Operations staff's console session, logged in at NOW (the clock stays there from then on). */
  let opsNow: string;

  beforeAll(async () => {
    t = await buildTestApp();
    const db = t.app.ctx.db;
    for (const [who, role] of [
      [ops, 'operations'],
      [provider, 'provider'],
    ] as const)
      await createStaff(t.app.ctx, {
        email: who.email,
        name: role === 'operations' ? 'Ops Dashboard' : 'Dr. Dashboard',
        role,
        passwordHash: await hashPassword(who.password),
        totpSecret: who.totpSecret,
        licences:
          role === 'provider'
            ? [{ state: 'OR', number: 'OR-TEST-1', expiresOn: '2099-12-31' }]
            : [],
      });

    /** A new customer buys `quantity` of product `productId` at `at` (the clock's time). */
    const buy = async (at: string, productId: number, quantity = 1, card?: string) => {
      t.clock.set(at);
      const customer = await insertCustomer(t.app);
      await callAs(t.app, cartApi.addProduct, { product_id: productId, quantity }, customer.cookie);
      const placed = await callAs(
        t.app,
        checkoutApi.placeOrder,
        buildPlaceOrder(
          card
            ? { payment: { method: 'card' as const, ccnum: card, ccexp: '12/30', cccvv: '123' } }
            : undefined,
        ),
        customer.cookie,
      );
      return { customer, placed };
    };

    // Store orders: one a moment before the window (not counted), one at its first instant.
    expect((await buy('2026-10-22T23:59:59.999Z', offers.sleep.oneTime)).placed.statusCode).toBe(
      200,
    );
    expect((await buy('2026-10-23T00:00:00.000Z', offers.sleep.oneTime)).placed.statusCode).toBe(
      200,
    );
    // A monthly Sleep Gummies on 18 November: a store order of $17.50 and a subscription started.
    const subscriber = await buy('2026-11-18T15:00:00.000Z', offers.sleep.monthly);
    expect(subscriber.placed.statusCode).toBe(200);
    // Two on 19 November ($49.98 and $24.99, the second refunded $5.00 later); a declined card
    // that day places nothing.
    expect((await buy('2026-11-19T09:00:00.000Z', offers.sleep.oneTime, 2)).placed.statusCode).toBe(
      200,
    );
    expect(
      (await buy('2026-11-19T10:00:00.000Z', offers.sleep.oneTime, 1, '4000 0000 0000 0002')).placed
        .statusCode,
    ).toBe(402);
    const refunded = await buy('2026-11-19T23:59:59.999Z', offers.sleep.oneTime);
    orderRefunded = refunded.placed.json<{ data: { orders_id: number } }>().data.orders_id;
    t.clock.set('2026-11-20T08:00:00.000Z');
    const opsCookie = await staffCookie(t, ops);
    const refund = await callAs(
      t.app,
      operationsApi.refund,
      { order_id: orderRefunded, amount_cents: 500, reason: 'Arrived damaged' },
      opsCookie,
    );
    expect(refund.statusCode, refund.body).toBe(200);

    // The subscriber cancels on 20 November.
    const again = await logIn(subscriber.customer);
    const list = await callAs(
      t.app,
      subscriptionsApi.subscriptions,
      { leads_id: subscriber.customer.leadsId },
      again,
    );
    const subscriptionId = list.json<{ data: { subscriptions: { id: number }[] } }>().data
      .subscriptions[0]?.id;
    const cancel = await callAs(
      t.app,
      subscriptionsApi.subscriptionUpdate,
      {
        leads_id: subscriber.customer.leadsId,
        subscription_id: subscriptionId!,
        change: { action: 'cancel', reason: 'Too many bottles' },
      },
      again,
    );
    expect(cancel.statusCode, cancel.body).toBe(200);

    // Churn: two supplement subscriptions open when the window begins (23 October), one of them
    // cancelled on 5 November; one started and cancelled before the window, which is not counted.
    for (const [startedAt, cancelledAt] of [
      ['2026-09-01T10:00:00.000Z', null],
      ['2026-09-02T10:00:00.000Z', '2026-11-05T09:00:00.000Z'],
      ['2026-09-03T10:00:00.000Z', '2026-10-01T09:00:00.000Z'],
    ] as const) {
      const { subscriptionId } = await insertSubscriber(db, {
        nextBillingDate: '2026-12-15',
        now: startedAt,
      });
      if (cancelledAt)
        await db
          .updateTable('subscriptions')
          .set({ status: 'CANCELLED', cancelled_at: cancelledAt })
          .where('id', '=', subscriptionId)
          .execute();
    }

    // Renewals: one started 1 November pays on the 20th; two started 2 November fail on the
    // 10th; one of them has a working card by the first retry (11th), the other never.
    t.clock.set('2026-11-01T10:00:00.000Z');
    await insertSubscriber(db, { nextBillingDate: '2026-11-20', now: t.clock.now().toISOString() });
    t.clock.set('2026-11-02T10:00:00.000Z');
    const recovering = await insertSubscriber(db, {
      nextBillingDate: '2026-11-10',
      token: 'sim_fail_recovering',
      now: t.clock.now().toISOString(),
    });
    await insertSubscriber(db, {
      nextBillingDate: '2026-11-10',
      token: 'sim_fail_forever',
      now: t.clock.now().toISOString(),
    });
    t.clock.set('2026-11-10T06:00:00.000Z');
    expect(await runBilling(t.app.ctx)).toEqual({ renewed: 0, failed: 2, recovered: 0 });
    await db
      .updateTable('payment_methods')
      .set({ gateway_token: 'sim_ok_recovered' })
      .where('customer_id', '=', recovering.customerId)
      .execute();
    t.clock.set('2026-11-11T07:00:00.000Z');
    expect(await runBilling(t.app.ctx)).toEqual({ renewed: 0, failed: 0, recovered: 1 });
    t.clock.set('2026-11-20T06:00:00.000Z');
    expect(await runBilling(t.app.ctx)).toEqual({ renewed: 1, failed: 0, recovered: 0 });

    // Visits: three waiting (50 hours, exactly the 24-hour target, 2 h 30 min) and one decided.
    const patient = await insertCustomer(t.app);
    const questionnaire = latestQuestionnaire('ed');
    for (const [status, submittedAt] of [
      ['PENDING_REVIEW', '2026-11-19T10:00:00.000Z'],
      ['PENDING_REVIEW', '2026-11-20T12:00:00.000Z'],
      ['PENDING_REVIEW', '2026-11-21T09:30:00.000Z'],
      ['APPROVED', '2026-11-01T09:30:00.000Z'],
    ] as const)
      await db
        .insertInto('visits')
        .values({
          customer_id: patient.customerId,
          category: 'ed',
          status,
          step: 'checkout',
          questionnaire_id: questionnaire.id,
          questionnaire_version: questionnaire.version,
          current_link_id: null,
          state: 'OR',
          dob: '1990-04-12',
          submitted_at: submittedAt,
          created_at: submittedAt,
          updated_at: submittedAt,
        })
        .execute();

    t.clock.set(NOW);
    opsNow = await staffCookie(t, ops, { advanceClock: false });
  });
  afterAll(() => t.close());

  const logIn = async (c: TestCustomer) => {
    const response = await callAs(t.app, authApi.login, {
      email: c.email,
      password: c.password,
    });
    expect(response.statusCode, response.body).toBe(200);
    const cookie = response.cookies.find((k) => k.name.endsWith('pw_session'));
    return `${cookie?.name}=${cookie?.value}`;
  };

  /** Reads the dashboard as operations staff at NOW. */
  const read = async (): Promise<Dashboard> => {
    const response = await callAs(t.app, dashboardApi.summary, {}, opsNow);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: Dashboard }>().data;
  };

  it('counts each of the last 30 UTC days, with zeros on the days with nothing', async () => {
    const data = await read();
    const zero = {
      orders: 0,
      revenue_cents: 0,
      started: 0,
      cancelled: 0,
      failed: 0,
      recovered: 0,
      recovered_cents: 0,
    };
    const expected: Record<string, Partial<DashboardDay>> = {
      '2026-10-23': { orders: 1, revenue_cents: 2499 },
      '2026-11-01': { started: 1 },
      '2026-11-02': { started: 2 },
      '2026-11-10': { failed: 2 },
      '2026-11-11': { recovered: 1, recovered_cents: 1750 },
      '2026-11-05': { cancelled: 1 },
      '2026-11-18': { orders: 1, revenue_cents: 1750, started: 1 },
      '2026-11-19': { orders: 2, revenue_cents: 4998 + 2499 },
      '2026-11-20': { cancelled: 1 },
    };
    expect(data.from).toBe('2026-10-23');
    expect(data.to).toBe('2026-11-21');
    expect(data.days).toHaveLength(30);
    expect(data.days.map((d) => d.day)).toEqual(
      Array.from({ length: 30 }, (_, i) =>
        new Date(Date.UTC(2026, 9, 23 + i)).toISOString().slice(0, 10),
      ),
    );
    for (const day of data.days)
      expect(day).toEqual({ day: day.day, ...zero, ...expected[day.day] });
  });

  it('adds up the window and tells what stands now', async () => {
    const data = await read();
    expect(data.totals).toEqual({
      orders: 4,
      revenue_cents: 2499 + 1750 + 4998 + 2499,
      refunded_cents: 500,
      started: 4,
      cancelled: 2,
      failed: 2,
      recovered: 1,
      recovered_cents: 1750,
    });
    // Active: the one that renewed, the one recovered… The one whose card never works ran out
    // of retries in the run of the 20th (on the 13th's and the 17th's) and is paused: its renewal
    // is still owed, and still counts once among the failures, on the 10th.
    // …and the one open since September. Churn: of the two supplement subscriptions open on 23
    // October, one was cancelled since (the refill-free ones only; none of these has a prescription).
    expect(data.subscriptions).toEqual({
      active: 3,
      past_due: 0,
      paused: 1,
      churn: { open_at_start: 2, cancelled_since: 1 },
    });
    expect(data.payments).toEqual({ unpaid: 1, unpaid_cents: 1750 });
    expect(data.visits).toEqual({
      target_hours: 24,
      waiting: 3,
      over_target: 1,
      oldest: [
        { submitted_at: '2026-11-19T10:00:00.000Z', waited_minutes: 50 * 60 },
        { submitted_at: '2026-11-20T12:00:00.000Z', waited_minutes: 24 * 60 },
        { submitted_at: '2026-11-21T09:30:00.000Z', waited_minutes: 150 },
      ],
    });
  });

  it('is for operations staff only, and each view is audited', async () => {
    const providerCookie = await staffCookie(t, provider, { advanceClock: false });
    expect((await callAs(t.app, dashboardApi.summary, {}, providerCookie)).statusCode).toBe(403);
    const customer = await insertCustomer(t.app);
    expect((await callAs(t.app, dashboardApi.summary, {}, customer.cookie)).statusCode).toBe(401);
    expect((await callAs(t.app, dashboardApi.summary, {})).statusCode).toBe(401);

    const views = () =>
      t.app.ctx.db
        .selectFrom('audit_log as a')
        .innerJoin('staff_users as s', 's.id', 'a.staff_id')
        .select(['a.action', 's.email'])
        .where('a.subject_type', '=', 'dashboard')
        .execute();
    const before = await views();
    await read();
    expect((await views()).slice(before.length)).toEqual([{ action: 'view', email: ops.email }]);
  });

  it('answers 400 to a body with anything in it', async () => {
    const response = await callAs(t.app, dashboardApi.summary, malformed({ days: 90 }), opsNow);
    expect(response.statusCode).toBe(400);
  });
});
