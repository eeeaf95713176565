import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visitsApi } from '#shared/visits.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import { insertCustomer, type TestCustomer } from '#test/factories.ts';
import {
  edVisitAtCheckout,
  insertProvider,
  visitCheckoutBody,
  setLicensedStates,
} from '#test/visits.ts';

/**
 * Issue 13, finding 9: a visit is accepted only from a state the service offers AND where an active
 * provider is licensed to review it. Elsewhere the patient is told so plainly, before any health
 * question, and no card is held for a visit nobody can review.
 */
describe(`visits only where a provider can review them (${testDialect})`, () => {
  let t: TestApp;
  /** The only provider licensed in Washington. */
  let washington: string;

  beforeAll(async () => {
    // Arizona is offered, but nobody is licensed there.
    t = await buildTestApp({ env: { STATES_ALLOWED: 'CA,FL,NY,OR,TX,WA,AZ' } });
    await insertProvider(t.app, ['CA', 'FL', 'NY', 'OR', 'TX']);
    washington = await insertProvider(t.app, ['WA']);
  });
  afterAll(() => t.close());

  const setLicences = (email: string, states: string[]) => setLicensedStates(t.app, email, states);

  const statesAllowed = async () =>
    (await callAs(t.app, visitsApi.statesAllowed, {})).json<{ data: { states: string[] } }>().data
      .states;

  async function startVisit(c: TestCustomer): Promise<number> {
    const started = await callAs(
      t.app,
      visitsApi.startProgram,
      { leads_id: c.leadsId, new_category: 'ed' },
      c.cookie,
    );
    return started.json<{ data: { visit_id: number } }>().data.visit_id;
  }

  const eligibility = (c: TestCustomer, visitId: number, state: string) =>
    callAs(t.app, visitsApi.eligibility, { visit_id: visitId, state, dob: '04/12/1985' }, c.cookie);

  const visitRow = (visitId: number) =>
    t.app.db
      .selectFrom('visits')
      .select(['status', 'step', 'closed_reason', 'provider_id', 'order_id'])
      .where('id', '=', visitId)
      .executeTakeFirstOrThrow();

  it('offers only the states with a licensed provider, in the same shape', async () => {
    const response = await callAs(t.app, visitsApi.statesAllowed, {});
    expect(response.json()).toEqual({
      status: 'SUCCESS',
      message: '',
      data: { states: ['CA', 'FL', 'NY', 'OR', 'TX', 'WA'] },
    });
  });

  it('refuses an offered state nobody is licensed in at eligibility, without promising a provider', async () => {
    const c = await insertCustomer(t.app);
    const visitId = await startVisit(c);
    const response = await eligibility(c, visitId, 'AZ');
    expect(response.statusCode).toBe(200);
    const reason =
      "We're not able to offer online visits to people living in Arizona right now. Our providers must be licensed where you live, and none is available there at the moment.";
    expect(response.json()).toMatchObject({
      data: {
        eligible: false,
        reason,
        supplement_slug: null,
        destination: '/visit/ed/ineligible',
      },
    });
    expect(await visitRow(visitId)).toMatchObject({
      status: 'INELIGIBLE',
      closed_reason: reason,
      provider_id: null,
    });
    // No health question is asked of a closed visit.
    const questions = await callAs(
      t.app,
      visitsApi.v2NextQuestion,
      { visit_id: visitId },
      c.cookie,
    );
    expect(questions.statusCode).toBe(409);
  });

  it('keeps the words for a state the service does not offer', async () => {
    const c = await insertCustomer(t.app);
    const visitId = await startVisit(c);
    const response = await eligibility(c, visitId, 'AL');
    expect(response.json()).toMatchObject({
      data: {
        eligible: false,
        reason:
          "We're not yet able to offer online visits to people living in Alabama. Our providers must be licensed where you live, and we're working to reach more states.",
      },
    });
  });

  it('holds nothing on the card when the last licensed provider went after eligibility, and takes the visit once one is back', async () => {
    const c = await insertCustomer(t.app);
    const visitId = await edVisitAtCheckout(t.app, c, 'WA');
    await setLicences(washington, []);
    try {
      const charges = async () =>
        (await t.app.db.selectFrom('simulator_charges').select('id').execute()).length;
      const chargesBefore = await charges();

      const refused = await callAs(
        t.app,
        visitsApi.checkout,
        visitCheckoutBody(visitId, undefined, 'WA'),
        c.cookie,
      );
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({
        status: 'FAILURE',
        code: 'STATE_NOT_COVERED',
        message:
          "We can't send your visit for review right now: none of our providers licensed in Washington is available at the moment. Nothing has been charged or held on your card.",
      });
      // Nothing asked of the gateway, no order, no ledger entry, no card or address kept.
      expect(await charges()).toBe(chargesBefore);
      expect(
        await t.app.db
          .selectFrom('orders')
          .select('id')
          .where('customer_id', '=', c.customerId)
          .execute(),
      ).toEqual([]);
      expect(
        await t.app.db
          .selectFrom('payment_ledger')
          .select('id')
          .where('visit_id', '=', visitId)
          .execute(),
      ).toEqual([]);
      expect(
        await t.app.db
          .selectFrom('payment_methods')
          .select('customer_id')
          .where('customer_id', '=', c.customerId)
          .execute(),
      ).toEqual([]);
      // The visit waits at checkout, and Washington is no longer offered.
      expect(await visitRow(visitId)).toMatchObject({
        status: 'IN_PROGRESS',
        step: 'checkout',
        order_id: null,
      });
      expect(await statesAllowed()).not.toContain('WA');
    } finally {
      await setLicences(washington, ['WA']);
    }

    const accepted = await callAs(
      t.app,
      visitsApi.checkout,
      visitCheckoutBody(visitId, undefined, 'WA'),
      c.cookie,
    );
    expect(accepted.statusCode, accepted.body).toBe(200);
    const provider = await t.app.db
      .selectFrom('staff_users')
      .select('id')
      .where('email', '=', washington)
      .executeTakeFirstOrThrow();
    expect(await visitRow(visitId)).toMatchObject({
      status: 'PENDING_REVIEW',
      provider_id: provider.id,
    });
  });

  it('counts only active providers', async () => {
    await t.app.db
      .updateTable('staff_users')
      .set({ active: 0 })
      .where('email', '=', washington)
      .execute();
    try {
      expect(await statesAllowed()).toEqual(['CA', 'FL', 'NY', 'OR', 'TX']);
    } finally {
      await t.app.db
        .updateTable('staff_users')
        .set({ active: 1 })
        .where('email', '=', washington)
        .execute();
    }
  });
});
