import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStaff } from '#server/db/seed-demo.ts';
import { type Subscription, subscriptionsApi } from '#shared/subscriptions.ts';
import { type VisitCheckoutSummary, visitsApi } from '#shared/visits.ts';
import { reviewsApi } from '#shared/reviews.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import { insertCustomer, staffCookie, type TestCustomer } from '#test/factories.ts';
import { sentMessages } from '#test/outbox.ts';
import { edVisitAtCheckout, visitCheckoutBody } from '#test/visits.ts';

const provider = demoStaff.find((s) => s.role === 'provider')!;

/**
 * Issue 13, finding 2: the visit's checkout shows the treatment, the amount authorised now and what
 * each refill costs, from the server, which holds and bills exactly those amounts.
 */
describe(`the visit checkout's summary (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
  });
  afterAll(() => t.close());

  const summaryOf = (c: TestCustomer, visitId: number) =>
    callAs(t.app, visitsApi.checkoutSummary, { visit_id: visitId }, c.cookie);
  const summaryData = async (c: TestCustomer, visitId: number) => {
    const response = await summaryOf(c, visitId);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: { summary: VisitCheckoutSummary } }>().data.summary;
  };

  it('names the chosen treatment and the amount the checkout then holds and each refill charges', async () => {
    const c = await insertCustomer(t.app);
    const visitId = await edVisitAtCheckout(t.app, c);
    expect(await summaryData(c, visitId)).toEqual({
      treatment: 'Sildenafil (generic Viagra®)',
      dose: '50 mg',
      supply: '6 doses a month, as needed',
      authorized_cents: 3000,
      refill_cents: 3000,
    });

    // A change of mind at checkout changes the price shown, and the price held.
    const changed = await callAs(
      t.app,
      visitsApi.frequency,
      { visit_id: visitId, frequency: 'as-needed-10' },
      c.cookie,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    const summary = await summaryData(c, visitId);
    expect(summary).toMatchObject({
      supply: '10 doses a month, as needed',
      authorized_cents: 4500,
      refill_cents: 4500,
    });

    const checkout = await callAs(t.app, visitsApi.checkout, visitCheckoutBody(visitId), c.cookie);
    expect(checkout.statusCode, checkout.body).toBe(200);
    expect(checkout.json()).toMatchObject({ data: { amount_cents: summary.authorized_cents } });
    const held = await t.app.db
      .selectFrom('payment_ledger')
      .select(['amount_cents', 'status'])
      .where('visit_id', '=', visitId)
      .where('operation', '=', 'authorize')
      .execute();
    expect(held).toEqual([{ amount_cents: summary.authorized_cents, status: 'succeeded' }]);
    // Once submitted, the summary is the order's (a resubmission answers that order).
    expect(await summaryData(c, visitId)).toEqual(summary);
    // The email that acknowledges the visit repeats the amount and the renewal terms.
    const received = (await sentMessages(t)).find(
      (m) => m.to === c.email && m.subject === 'We received your online visit',
    );
    expect(received?.text).toContain('Your card has been authorised for $45.00');
    expect(received?.text).toContain(
      'If your treatment is approved with refills, $45.00 is charged to your card automatically each month, starting a month after approval, until the refills run out or you cancel. You can cancel any time on the Subscriptions page of your account',
    );

    // Approved with refills: each refill bills the amount the summary said.
    const validUntil = new Date(t.clock.now().getTime() + 180 * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const approved = await callAs(
      t.app,
      reviewsApi.approve,
      {
        visit_id: visitId,
        prescription: {
          drug: 'sildenafil',
          dosage: '50mg',
          quantity: 10,
          refills: 2,
          valid_until: validUntil,
          directions: 'Take one tablet about an hour before, no more than once a day.',
        },
      },
      await staffCookie(t, provider),
    );
    expect(approved.statusCode, approved.body).toBe(200);
    const plans = await callAs(
      t.app,
      subscriptionsApi.subscriptions,
      { leads_id: c.leadsId },
      c.cookie,
    );
    expect(plans.json<{ data: { subscriptions: Subscription[] } }>().data.subscriptions).toEqual([
      expect.objectContaining({ frequency: 'MONTHLY', price_cents: summary.refill_cents }),
    ]);
    // A decided visit has no checkout left to summarise.
    expect((await summaryOf(c, visitId)).json()).toMatchObject({ code: 'VISIT_CLOSED' });
  });

  it('is only for a visit at its checkout, and only for its own patient', async () => {
    const c = await insertCustomer(t.app);
    const started = await callAs(
      t.app,
      visitsApi.startProgram,
      { leads_id: c.leadsId, new_category: 'ed' },
      c.cookie,
    );
    const early = started.json<{ data: { visit_id: number } }>().data.visit_id;
    const tooSoon = await summaryOf(c, early);
    expect(tooSoon.statusCode).toBe(409);
    expect(tooSoon.json()).toMatchObject({
      code: 'VISIT_STEP',
      message: 'Please finish the earlier steps of your visit first.',
    });

    const visitId = await edVisitAtCheckout(t.app, c);
    const other = await insertCustomer(t.app);
    const theirs = await summaryOf(other, visitId);
    const nobodys = await summaryOf(other, 987_654_321);
    const withoutRequestId = (body: Record<string, unknown>) => ({ ...body, requestId: null });
    expect(theirs.statusCode).toBe(404);
    expect(withoutRequestId(theirs.json())).toEqual(withoutRequestId(nobodys.json()));
    expect(theirs.body).not.toContain('Sildenafil');
    expect((await callAs(t.app, visitsApi.checkoutSummary, { visit_id: visitId })).statusCode).toBe(
      401,
    );
    expect((await summaryOf(c, 0)).json()).toMatchObject({
      code: 'VALIDATION',
      fields: { visit_id: 'Choose a visit' },
    });
  });
});
