import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, apiUrl } from '#shared/api.ts';
import { demoStaff } from '#server/db/seed-demo.ts';
import { runBilling } from '#server/features/billing/billing.service.ts';
import { type Lander, ordersApi } from '#shared/orders.ts';
import type { UsStateCode } from '#shared/us-states.ts';
import { type Subscription, subscriptionsApi } from '#shared/subscriptions.ts';
import { type Chart, reviewsApi } from '#shared/reviews.ts';
import { accountsApi } from '#shared/accounts.ts';
import { authApi } from '#shared/auth.ts';
import { visitsApi } from '#shared/visits.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import { insertCustomer, sessionCookie, staffCookie, type TestCustomer } from '#test/factories.ts';
import {
  edVisitAtCheckout,
  submittedEdVisit,
  visitCheckoutBody,
  setLicensedStates,
} from '#test/visits.ts';

const provider = demoStaff.find((s) => s.role === 'provider')!;

describe(`provider review (${testDialect})`, () => {
  let t: TestApp;
  let step = 0;
  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
  });
  afterAll(() => t.close());

  async function providerCookie(who: (typeof demoStaff)[number] = provider): Promise<string> {
    step++;
    return staffCookie(t, who);
  }

  const charges = async (status: 'succeeded' | 'authorized' | 'released' | 'failed') =>
    (
      await t.app.db
        .selectFrom('simulator_charges')
        .select('id')
        .where('status', '=', status)
        .where('id', 'like', 'au_%')
        .execute()
    ).length;

  const submitted = (c: TestCustomer, state: UsStateCode = 'OR') =>
    submittedEdVisit(t.app, c, state);

  it('checkout holds the price on the card without charging it, and the order waits for review', async () => {
    const c = await insertCustomer(t.app);
    const before = await charges('succeeded');
    const { orderNumber } = await submitted(c);
    expect(await charges('succeeded')).toBe(before);
    const history = await callAs(t.app, ordersApi.ordersDetails, { leads_id: c.leadsId }, c.cookie);
    expect(history.json<{ message: Lander }>().message.order_history[orderNumber]).toMatchObject({
      order_status: 'PENDING_REVIEW',
      order_total_cents: 3000,
    });
  });

  it('a declined card at visit checkout says why and leaves no order', async () => {
    const c = await insertCustomer(t.app);
    const visitId = await edVisitAtCheckout(t.app, c);
    const response = await callAs(
      t.app,
      visitsApi.checkout,
      visitCheckoutBody(visitId, '4000 0000 0000 0002'),
      c.cookie,
    );
    expect(response.statusCode).toBe(402);
    expect(response.json()).toMatchObject({ message: 'Your card was declined.' });
    expect(
      await t.app.db
        .selectFrom('orders')
        .select('id')
        .where('customer_id', '=', c.customerId)
        .execute(),
    ).toHaveLength(0);
  });

  it('a provider sees the visits of their states, oldest first, and every chart view is audited', async () => {
    const c = await insertCustomer(t.app);
    const { visitId } = await submitted(c);
    const cookie = await providerCookie();
    const queue = await callAs(t.app, reviewsApi.queue, {}, cookie);
    const visits = queue.json<{ data: { visits: { visit_id: number; state: string }[] } }>().data
      .visits;
    expect(visits.map((v) => v.visit_id)).toContain(visitId);
    const chart = await callAs(t.app, reviewsApi.chart, { visit_id: visitId }, cookie);
    const body = chart.json<{ data: { chart: Chart } }>().data.chart;
    expect(body).toMatchObject({
      status: 'PENDING_REVIEW',
      patient: { state: 'OR', customer_id: c.customerId },
      preferences: { drug: 'sildenafil' },
      order: { payment_status: 'authorized' },
    });
    expect(body.answers.length).toBeGreaterThan(5);
    expect(body.photo_upload_key).toMatch(/^[\w-]{22}$/);
    const photo = await callAs(t.app, visitsApi.photoId, undefined, cookie, {
      params: { id: body.photo_upload_key ?? '' },
    });
    expect(photo.statusCode).toBe(200);
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select(['action', 'subject_type'])
      .where('customer_id', '=', c.customerId)
      .execute();
    expect(audit).toEqual(
      expect.arrayContaining([
        { action: 'view', subject_type: 'visit' },
        { action: 'view', subject_type: 'upload' },
      ]),
    );
  });

  it('a provider not licensed in the state neither sees nor opens the visit', async () => {
    const c = await insertCustomer(t.app);
    const { visitId } = await submitted(c, 'TX');
    await setLicensedStates(t.app, provider.email, ['NY']);
    try {
      const cookie = await providerCookie();
      const queue = await callAs(t.app, reviewsApi.queue, {}, cookie);
      expect(
        queue
          .json<{ data: { visits: { visit_id: number }[] } }>()
          .data.visits.map((v) => v.visit_id),
      ).not.toContain(visitId);
      expect(
        (await callAs(t.app, reviewsApi.chart, { visit_id: visitId }, cookie)).statusCode,
      ).toBe(404);
    } finally {
      await setLicensedStates(t.app, provider.email, provider.licensedStates);
    }
  });

  it('approval charges the held amount exactly once', async () => {
    const c = await insertCustomer(t.app);
    const { visitId, orderNumber } = await submitted(c);
    const cookie = await providerCookie();
    const before = await charges('succeeded');
    const prescription = {
      drug: 'sildenafil',
      dosage: '50mg',
      quantity: 6,
      refills: 5,
      valid_until: '2027-11-21',
      directions: 'Take one tablet about an hour before, no more than once a day.',
    };
    const approved = await callAs(
      t.app,
      reviewsApi.approve,
      { visit_id: visitId, prescription },
      cookie,
    );
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({
      data: { chart: { status: 'APPROVED', order: { payment_status: 'paid' } } },
    });
    const again = await callAs(
      t.app,
      reviewsApi.approve,
      { visit_id: visitId, prescription },
      cookie,
    );
    expect(again.statusCode).toBe(409);
    expect((await charges('succeeded')) - before).toBe(1);
    const history = await callAs(t.app, ordersApi.ordersDetails, { leads_id: c.leadsId }, c.cookie);
    expect(history.json<{ message: Lander }>().message.order_history[orderNumber]).toMatchObject({
      order_status: 'PROCESSING',
    });
    const rx = await t.app.db
      .selectFrom('prescriptions')
      .select(['drug', 'refills'])
      .where('visit_id', '=', visitId)
      .execute();
    expect(rx).toEqual([{ drug: 'sildenafil', refills: 5 }]);
  });

  it('a decline charges nothing, releases the hold, and the patient sees Declined with the reason', async () => {
    const c = await insertCustomer(t.app);
    const { visitId, orderNumber } = await submitted(c);
    const cookie = await providerCookie();
    const before = await charges('succeeded');
    const short = await callAs(
      t.app,
      reviewsApi.decline,
      { visit_id: visitId, reason: 'No.' },
      cookie,
    );
    expect(short.json()).toMatchObject({
      fields: { reason: 'Tell the patient why, in a sentence or two' },
    });
    const reason =
      'Your blood pressure readings need an in-person check before this medicine is safe for you.';
    const declined = await callAs(t.app, reviewsApi.decline, { visit_id: visitId, reason }, cookie);
    expect(declined.json()).toMatchObject({
      data: { chart: { status: 'DECLINED', order: { payment_status: 'voided' } } },
    });
    expect(await charges('succeeded')).toBe(before);
    const history = await callAs(t.app, ordersApi.ordersDetails, { leads_id: c.leadsId }, c.cookie);
    expect(history.json<{ message: Lander }>().message.order_history[orderNumber]).toMatchObject({
      order_status: 'DECLINED',
      decline_reason: reason,
    });
    expect(step).toBeGreaterThan(0);
  });

  it('the chart keeps the decision: who and when, the photo ID opened before it, and the prescription or the reason', async () => {
    const cookie = await providerCookie();
    const c = await insertCustomer(t.app);
    const { visitId } = await submitted(c);
    const waiting = (await callAs(t.app, reviewsApi.chart, { visit_id: visitId }, cookie)).json<{
      data: { chart: Chart };
    }>().data.chart;
    expect(waiting.decision).toBeNull();
    const photo = await t.app.inject({
      method: 'GET',
      url: apiUrl(apiPaths.visitUpload, { id: waiting.photo_upload_key ?? '' }),
      headers: { cookie },
    });
    expect(photo.statusCode).toBe(200);
    t.clock.advance(60_000);
    const prescription = {
      drug: 'sildenafil',
      dosage: '50mg',
      quantity: 6,
      refills: 3,
      valid_until: '2027-11-21',
      directions: 'Take one tablet about an hour before, no more than once a day.',
    };
    const approved = await callAs(
      t.app,
      reviewsApi.approve,
      { visit_id: visitId, prescription },
      cookie,
    );
    expect(approved.statusCode, approved.body).toBe(200);
    const after = (await callAs(t.app, reviewsApi.chart, { visit_id: visitId }, cookie)).json<{
      data: { chart: Chart };
    }>().data.chart;
    expect(after.decision).toEqual({
      outcome: 'approved',
      provider: provider.name,
      decided_at: t.clock.now().toISOString(),
      photo_id_viewed_at: new Date(t.clock.now().getTime() - 60_000).toISOString(),
      prescription: {
        ...prescription,
        medicine: expect.stringMatching(/^Sildenafil .*50 mg$/) as string,
      },
      reason: null,
    });

    // Declined without opening the photo: the chart says so, with the reason the patient read.
    const other = await insertCustomer(t.app);
    const { visitId: declinedId } = await submitted(other);
    const reason =
      'Your answers suggest a heart condition that needs an in-person examination first.';
    const declined = await callAs(
      t.app,
      reviewsApi.decline,
      { visit_id: declinedId, reason },
      cookie,
    );
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json<{ data: { chart: Chart } }>().data.chart.decision).toEqual({
      outcome: 'declined',
      provider: provider.name,
      decided_at: t.clock.now().toISOString(),
      photo_id_viewed_at: null,
      prescription: null,
      reason,
    });
  });

  it('operations staff and customers cannot reach the provider console', async () => {
    const c = await insertCustomer(t.app);
    expect((await callAs(t.app, reviewsApi.queue, {}, c.cookie)).statusCode).toBe(401);
    const ops = demoStaff.find((s) => s.role === 'operations')!;
    const cookie = await providerCookie(ops);
    expect((await callAs(t.app, reviewsApi.queue, {}, cookie)).statusCode).toBe(403);
  });

  it('/doctor names the assigned provider, /risk/assessment/ is for the provider only, and /survey/ and /feedback/ are kept', async () => {
    const c = await insertCustomer(t.app);
    const visitId = await edVisitAtCheckout(t.app, c);
    const early = await callAs(
      t.app,
      visitsApi.survey,
      { visit_id: visitId, rating: 5, would_recommend: true },
      c.cookie,
    );
    expect(early.statusCode).toBe(409);
    expect(
      (await callAs(t.app, visitsApi.doctor, { visit_id: visitId }, c.cookie)).json(),
    ).toMatchObject({ data: { provider: null } });
    await callAs(t.app, visitsApi.checkout, visitCheckoutBody(visitId), c.cookie);
    expect(
      (await callAs(t.app, visitsApi.doctor, { visit_id: visitId }, c.cookie)).json(),
    ).toMatchObject({ data: { provider: { name: provider.name } } });
    const other = await insertCustomer(t.app);
    expect(
      (await callAs(t.app, visitsApi.doctor, { visit_id: visitId }, other.cookie)).statusCode,
    ).toBe(404);

    expect(
      (await callAs(t.app, reviewsApi.riskAssessment, { visit_id: visitId }, c.cookie)).statusCode,
    ).toBe(401);
    const cookie = await providerCookie();
    const risk = await callAs(t.app, reviewsApi.riskAssessment, { visit_id: visitId }, cookie);
    expect(risk.statusCode).toBe(200);
    expect(Array.isArray(risk.json<{ data: { flags: unknown[] } }>().data.flags)).toBe(true);

    const badSurvey = await callAs(
      t.app,
      visitsApi.survey,
      { visit_id: visitId, rating: 9, would_recommend: true },
      c.cookie,
    );
    expect(badSurvey.json()).toMatchObject({ fields: { rating: 'Choose a rating' } });
    expect(
      (
        await callAs(
          t.app,
          visitsApi.survey,
          { visit_id: visitId, rating: 5, would_recommend: true, comments: 'Quick and kind.' },
          c.cookie,
        )
      ).json(),
    ).toMatchObject({ status: 'SUCCESS' });
    expect(
      (await callAs(t.app, visitsApi.feedback, { message: '' }, c.cookie)).json(),
    ).toMatchObject({
      fields: { message: 'Tell us what you think' },
    });
    expect(
      (
        await callAs(t.app, visitsApi.feedback, { message: 'Lovely site.', rating: 5 }, c.cookie)
      ).json(),
    ).toMatchObject({ status: 'SUCCESS' });
    const kept = await t.app.db
      .selectFrom('feedback')
      .select(['kind', 'rating'])
      .where('customer_id', '=', c.customerId)
      .orderBy('id')
      .execute();
    expect(kept).toEqual([
      { kind: 'survey', rating: 5 },
      { kind: 'feedback', rating: 5 },
    ]);
  });

  it('approval with refills starts a monthly refill plan that bills each refill once, then completes', async () => {
    const c = await insertCustomer(t.app);
    const { visitId } = await submitted(c);
    const cookie = await providerCookie();
    const approve = (valid_until: string, refills = 2, id = visitId) =>
      callAs(
        t.app,
        reviewsApi.approve,
        {
          visit_id: id,
          prescription: {
            drug: 'sildenafil',
            dosage: '50mg',
            quantity: 6,
            refills,
            valid_until,
            directions: 'Take one tablet about an hour before, no more than once a day.',
          },
        },
        cookie,
      );
    // A prescription must still be valid tomorrow, and for at most a year.
    expect((await approve('2026-11-21')).json()).toMatchObject({
      code: 'VALIDATION',
      fields: { 'prescription.valid_until': 'Choose a date after today.' },
    });
    expect((await approve('2027-12-01')).json()).toMatchObject({
      fields: { 'prescription.valid_until': 'A prescription is valid for at most a year.' },
    });
    const approved = await approve('2027-09-17');
    expect(approved.statusCode, approved.body).toBe(200);

    // Months pass in this test: the patient logs in again when their session has run out.
    const patientCookie = async () => {
      const me = await callAs(t.app, accountsApi.basics, {}, c.cookie);
      if (me.statusCode === 200) return c.cookie;
      const login = await callAs(t.app, authApi.login, {
        email: c.email,
        password: c.password,
      });
      return sessionCookie(login);
    };
    const plans = async () => {
      const cookie = await patientCookie();
      const response = await callAs(
        t.app,
        subscriptionsApi.subscriptions,
        { leads_id: c.leadsId },
        cookie,
      );
      return response.json<{ data: { subscriptions: Subscription[] } }>().data.subscriptions;
    };
    expect(await plans()).toEqual([
      expect.objectContaining({
        product_id: null,
        name: 'Sildenafil (generic Viagra®) 50 mg',
        category: 'ed',
        frequency: 'MONTHLY',
        price_cents: 3000,
        status: 'ACTIVE',
        next_billing_date: '2026-12-21',
        swap_options: [],
        refill: { refills_remaining: 2, valid_until: '2027-09-17' },
      }),
    ]);
    // The prescription, not the patient, decides what a refill is.
    const [plan] = await plans();
    const swap = await callAs(
      t.app,
      subscriptionsApi.subscriptionUpdate,
      {
        leads_id: c.leadsId,
        subscription_id: plan!.id,
        change: { action: 'change_quantity', quantity: 3 },
      },
      c.cookie,
    );
    expect(swap.json()).toMatchObject({
      message: 'Your prescription sets this. Message your provider to change it.',
    });

    // Four months of daily billing runs: two refills, each billed once, then the plan is complete.
    for (let day = 0; day < 120; day++) {
      t.clock.advance(24 * 60 * 60_000);
      await runBilling(t.app.ctx);
    }
    const renewals = await t.app.db
      .selectFrom('orders')
      .innerJoin('order_items', 'order_items.order_id', 'orders.id')
      .select(['orders.billing_period', 'orders.payment_status', 'order_items.product_name'])
      .select(['order_items.unit_price_cents', 'order_items.category'])
      .where('orders.customer_id', '=', c.customerId)
      .where('orders.kind', '=', 'renewal')
      .orderBy('orders.id')
      .execute();
    expect(renewals).toEqual(
      ['2026-12-21', '2027-01-21'].map((period) => ({
        billing_period: period,
        payment_status: 'paid',
        product_name: 'Sildenafil (generic Viagra®) 50 mg',
        unit_price_cents: 3000,
        category: 'ed',
      })),
    );
    expect(await plans()).toEqual([
      expect.objectContaining({
        status: 'COMPLETED',
        refill: { refills_remaining: 0, valid_until: '2027-09-17' },
      }),
    ]);

    // No refills prescribed: no plan.
    const other = await insertCustomer(t.app);
    const second = await submitted(other);
    const once = await callAs(
      t.app,
      reviewsApi.approve,
      {
        visit_id: second.visitId,
        prescription: {
          drug: 'sildenafil',
          dosage: '50mg',
          quantity: 6,
          refills: 0,
          valid_until: '2027-06-01',
          directions: 'Take one tablet about an hour before, no more than once a day.',
        },
      },
      await providerCookie(),
    );
    expect(once.statusCode, once.body).toBe(200);
    expect(
      await t.app.db
        .selectFrom('subscriptions')
        .select('id')
        .where('customer_id', '=', other.customerId)
        .execute(),
    ).toEqual([]);
  });
});
