import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStaff } from '#server/db/seed-demo.ts';
import { latestQuestionnaire } from '#shared/questionnaires/registry.ts';
import { type Flag, accountsApi } from '#shared/accounts.ts';
import { type Chart, reviewsApi } from '#shared/reviews.ts';
import {
  type ClosedVisit,
  type PendingOrder,
  type ProgramCategory,
  type QuestionState,
  visitsApi,
} from '#shared/visits.ts';
import { messagesApi } from '#shared/messages.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs, dataOf } from '#test/contract.ts';
import { insertCustomer, staffCookie, type TestCustomer } from '#test/factories.ts';
import { sentMessages } from '#test/outbox.ts';
import { insertProvider, knockoutAnswer, safeAnswer } from '#test/visits.ts';
import { notifyWaitlist, WAITLIST_JOB } from './visits.waitlist.ts';

const provider = demoStaff.find((s) => s.role === 'provider')!;

/**
 * Dead-end visits (issue 13): an ineligible or not-a-fit visit is closed — never pending, never
 * "Finish your visit" — says why, and offers what can be done instead: the waitlist for the state
 * (one email when it opens), or a provider's review of the answers as given.
 */
describe(`dead-end visits (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    // The demo provider covers CA, FL, NY, OR, TX and WA; Nevada is offered but nobody is
    // licensed there yet, and Alabama is not offered at all.
    t = await buildTestApp({
      env: { SEED_DEMO: 'true', STATES_ALLOWED: 'CA,FL,NY,OR,TX,WA,NV' },
    });
  });
  afterAll(() => t.close());

  async function start(c: TestCustomer, category: ProgramCategory = 'ed') {
    const response = await callAs(
      t.app,
      visitsApi.startProgram,
      { leads_id: c.leadsId, new_category: category },
      c.cookie,
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: { visit_id: number; destination: string } }>().data;
  }

  const eligibility = (c: TestCustomer, visitId: number, state: string, dob = '04/12/1990') =>
    callAs(t.app, visitsApi.eligibility, { visit_id: visitId, state, dob }, c.cookie);

  async function closed(c: TestCustomer, visitId: number): Promise<ClosedVisit> {
    const response = await callAs(t.app, visitsApi.closedVisit, { visit_id: visitId }, c.cookie);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: ClosedVisit }>().data;
  }

  async function nothingToFinish(c: TestCustomer) {
    const pending = await callAs(t.app, visitsApi.pendingOrders, { leads_id: c.leadsId }, c.cookie);
    expect(pending.json<{ data: PendingOrder[] }>().data).toEqual([]);
    const basics = await callAs(t.app, accountsApi.basics, {}, c.cookie);
    const flags = basics.json<{ data: { flags: Flag[] } }>().data.flags;
    expect(flags.filter((f) => f.type === 'visit_incomplete')).toEqual([]);
  }

  /** An ED visit in Oregon, answered up to its first top-level knock-out question. */
  async function knockedOut(c: TestCustomer) {
    const { visit_id } = await start(c, 'ed');
    expect((await eligibility(c, visit_id, 'OR')).statusCode).toBe(200);
    const questionnaire = latestQuestionnaire('ed');
    const item = questionnaire.items.find(
      (i) => !i.enableWhen && (i.disqualifyWhen || i.options?.some((o) => o.disqualify)),
    );
    if (!item) throw new Error('the ED questionnaire has no top-level disqualifying question');
    const value = knockoutAnswer(item);
    const response = await callAs(
      t.app,
      visitsApi.v2SubmitQuestion,
      { visit_id, linkId: item.linkId, value },
      c.cookie,
    );
    expect(response.statusCode, response.body).toBe(200);
    return { visit_id, item, state: response.json<{ data: QuestionState }>().data };
  }

  it('closes a visit ineligible for its state: nothing to finish, and opening the program again shows why instead of asking again', async () => {
    const c = await insertCustomer(t.app);
    const { visit_id } = await start(c, 'hair');
    const outcome = await eligibility(c, visit_id, 'AL');
    expect(outcome.json()).toMatchObject({ data: { eligible: false } });
    await nothingToFinish(c);

    const again = await start(c, 'hair');
    expect(again).toEqual(
      expect.objectContaining({ visit_id, destination: '/visit/hair/ineligible' }),
    );
    // The closed visit cannot be answered again with another state.
    expect((await eligibility(c, visit_id, 'OR')).json()).toMatchObject({ code: 'VISIT_CLOSED' });
    await nothingToFinish(c);

    expect(await closed(c, visit_id)).toMatchObject({
      kind: 'ineligible',
      category: 'hair',
      state: 'AL',
      state_name: 'Alabama',
      state_closed: true,
      state_open: false,
      waitlisted: false,
      review_available: false,
      supplement_slug: 'biotin-gummies',
      reason: expect.stringContaining('Alabama'),
    });
    const list = await callAs(t.app, visitsApi.closedVisits, {}, c.cookie);
    expect(list.json<{ data: ClosedVisit[] }>().data.map((v) => v.visit_id)).toEqual([visit_id]);
  });

  it('an age closure stays closed too, and offers no waitlist', async () => {
    const c = await insertCustomer(t.app);
    const { visit_id } = await start(c, 'sleep');
    await eligibility(c, visit_id, 'OR', '01/01/2015');
    expect((await start(c, 'sleep')).destination).toBe('/visit/sleep/ineligible');
    expect(await closed(c, visit_id)).toMatchObject({
      kind: 'ineligible',
      state_closed: false,
      state_open: false,
    });
    const join = await callAs(t.app, visitsApi.joinWaitlist, { visit_id }, c.cookie);
    expect(join.statusCode).toBe(409);
    expect(join.json()).toMatchObject({ code: 'VISIT_STEP' });
  });

  it("joins the waitlist once, for the session's own patient only", async () => {
    const c = await insertCustomer(t.app);
    const { visit_id } = await start(c, 'ed');
    await eligibility(c, visit_id, 'AL');
    for (let i = 0; i < 2; i++) {
      const join = await callAs(t.app, visitsApi.joinWaitlist, { visit_id }, c.cookie);
      expect(join.statusCode, join.body).toBe(200);
      expect(join.json()).toMatchObject({ data: { state: 'AL', state_name: 'Alabama' } });
    }
    const rows = await t.app.db
      .selectFrom('state_waitlist')
      .select(['state', 'notified_at'])
      .where('customer_id', '=', c.customerId)
      .execute();
    expect(rows).toEqual([{ state: 'AL', notified_at: null }]);
    expect(await closed(c, visit_id)).toMatchObject({ waitlisted: true });

    const other = await insertCustomer(t.app);
    const theirs = await callAs(t.app, visitsApi.joinWaitlist, { visit_id }, other.cookie);
    expect(theirs.statusCode).toBe(404);
    expect((await callAs(t.app, visitsApi.joinWaitlist, { visit_id })).statusCode).toBe(401);
    expect(
      (await callAs(t.app, visitsApi.closedVisit, { visit_id }, other.cookie)).statusCode,
    ).toBe(404);

    // A visit that is still open is not on any waitlist's way.
    const open = await start(other, 'ed');
    const early = await callAs(
      t.app,
      visitsApi.joinWaitlist,
      { visit_id: open.visit_id },
      other.cookie,
    );
    expect(early.statusCode).toBe(409);
  });

  it('a visitor told their state is not reached yet may leave an address, with no account, once', async () => {
    const check = (state: string) =>
      callAs(t.app, visitsApi.checkEligibility, { category: 'ed', state, dob: '04/12/1990' });
    // The state is the reason (not offered, or offered with nobody licensed): its waitlist helps.
    for (const state of ['AL', 'NV'])
      expect(dataOf(visitsApi.checkEligibility, await check(state))).toMatchObject({
        eligible: false,
        state_closed: true,
      });
    expect(dataOf(visitsApi.checkEligibility, await check('OR'))).toMatchObject({
      eligible: true,
      state_closed: false,
    });
    const tooYoung = await callAs(t.app, visitsApi.checkEligibility, {
      category: 'ed',
      state: 'OR',
      dob: `01/01/${new Date(t.clock.now()).getUTCFullYear() - 18}`,
    });
    expect(dataOf(visitsApi.checkEligibility, tooYoung)).toMatchObject({
      eligible: false,
      state_closed: false,
    });

    const join = (body: { state: string; email: string }) =>
      callAs(t.app, visitsApi.joinVisitorWaitlist, body);
    const joined = await join({ state: 'AL', email: 'Visitor.One@Example.com' });
    expect(joined.statusCode, joined.body).toBe(200);
    expect(joined.json()).toEqual({
      status: 'SUCCESS',
      message: "We'll email you once when online visits open in your state.",
      data: { state: 'AL', state_name: 'Alabama' },
    });
    // Asking again answers the same and keeps one row, the address lower-cased.
    expect((await join({ state: 'AL', email: 'visitor.one@example.com' })).json()).toEqual(
      joined.json(),
    );
    const rows = await t.app.db
      .selectFrom('visitor_waitlist')
      .select(['email', 'state'])
      .where('state', '=', 'AL')
      .execute();
    expect(rows).toEqual([{ email: 'visitor.one@example.com', state: 'AL' }]);

    // Bad input says what is wrong; a state already open says to start the visit.
    const badEmail = await join({ state: 'AL', email: 'not an address' });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json()).toMatchObject({ code: 'VALIDATION' });
    expect(badEmail.json<{ fields: Record<string, string> }>().fields.email).toBeTruthy();
    const badState = await join({ state: 'ZZ', email: 'visitor.two@example.com' });
    expect(badState.statusCode).toBe(400);
    expect(badState.json()).toMatchObject({
      fields: { state: 'Choose the state you live in' },
    });
    const open = await join({ state: 'OR', email: 'visitor.two@example.com' });
    expect(open.json()).toMatchObject({
      code: 'VISIT_STEP',
      message: 'Online visits are open in Oregon now: you can start your visit.',
    });
  });

  it('when a waiting state gains a provider, each patient and visitor is emailed once, however many runs race', async () => {
    const a = await insertCustomer(t.app);
    const b = await insertCustomer(t.app);
    // A visitor waits for Nevada too, by address alone.
    const visitor = await callAs(t.app, visitsApi.joinVisitorWaitlist, {
      state: 'NV',
      email: 'nevada.visitor@example.com',
    });
    expect(visitor.statusCode, visitor.body).toBe(200);
    const visits: number[] = [];
    for (const c of [a, b]) {
      const { visit_id } = await start(c, 'ed');
      expect((await eligibility(c, visit_id, 'NV')).json()).toMatchObject({
        data: { eligible: false },
      });
      expect((await callAs(t.app, visitsApi.joinWaitlist, { visit_id }, c.cookie)).statusCode).toBe(
        200,
      );
      visits.push(visit_id);
    }
    // Not covered yet: nobody is told.
    expect(await notifyWaitlist(t.app.ctx)).toEqual({ sent: 0, more: false });

    await insertProvider(t.app, ['NV']);
    const runs = await Promise.all([
      notifyWaitlist(t.app.ctx),
      notifyWaitlist(t.app.ctx),
      t.app.ctx.jobs.drain(WAITLIST_JOB).then(() => ({ sent: 0, more: false })),
    ]);
    const sentNow = await t.app.db
      .selectFrom('state_waitlist')
      .select('notified_at')
      .where('customer_id', 'in', [a.customerId, b.customerId])
      .execute();
    expect(sentNow.every((r) => r.notified_at !== null)).toBe(true);
    // Two patients and one visitor: however the runs raced, each was told by one of them.
    expect(runs.reduce((n, r) => n + r.sent, 0)).toBeLessThanOrEqual(3);
    await t.app.ctx.jobs.drain(WAITLIST_JOB);
    expect(await notifyWaitlist(t.app.ctx)).toEqual({ sent: 0, more: false });

    const mail = (await sentMessages(t)).filter(
      (m) => m.subject === 'Online visits are now open in Nevada',
    );
    expect(mail.map((m) => m.to).sort()).toEqual(
      [a.email, b.email, 'nevada.visitor@example.com'].sort(),
    );
    for (const m of mail.filter((m) => m.to !== 'nevada.visitor@example.com'))
      expect(m.text).toContain('/dashboard');
    // The visitor has no account: the home page, and nothing of them kept once told.
    const toVisitor = mail.find((m) => m.to === 'nevada.visitor@example.com');
    expect(toVisitor?.text).toMatch(/^Hello,$/m);
    expect(toVisitor?.text).not.toContain('/dashboard');
    expect(
      await t.app.db
        .selectFrom('visitor_waitlist')
        .select('id')
        .where('state', '=', 'NV')
        .execute(),
    ).toEqual([]);

    // Open now: the closed visit says so, and the program starts afresh.
    expect(await closed(a, visits[0]!)).toMatchObject({
      state_open: true,
      state_closed: false,
      waitlisted: false,
    });
    const fresh = await start(a, 'ed');
    expect(fresh.visit_id).not.toBe(visits[0]);
    expect(fresh.destination).toBe('/visit/ed/eligibility');
  });

  it('a knock-out answer waits for confirmation: it can be changed, and only “Yes” closes the visit', async () => {
    const c = await insertCustomer(t.app);
    const { visit_id, item, state } = await knockedOut(c);
    expect(state).toMatchObject({
      disqualified: null,
      done: false,
      item: { linkId: item.linkId },
      knockout: { linkId: item.linkId, question: item.text, reason: expect.any(String) },
      destination: '/visit/ed/questions',
    });
    const row = await t.app.db
      .selectFrom('visits')
      .select('status')
      .where('id', '=', visit_id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('IN_PROGRESS');

    // Moving on is not a way past it: the knock-out is asked about again.
    const next = await callAs(
      t.app,
      visitsApi.v2NextQuestion,
      { visit_id, linkId: item.linkId },
      c.cookie,
    );
    expect(next.json<{ data: QuestionState }>().data.knockout?.linkId).toBe(item.linkId);

    // "Change answer": a safe answer goes on to the next question.
    const changed = await callAs(
      t.app,
      visitsApi.v2SubmitQuestion,
      { visit_id, linkId: item.linkId, value: safeAnswer(item) },
      c.cookie,
    );
    const after = changed.json<{ data: QuestionState }>().data;
    expect(after.knockout).toBeNull();
    expect(after.item?.linkId).not.toBe(item.linkId);

    // With nothing to confirm, confirming changes nothing.
    const nothing = await callAs(t.app, visitsApi.confirmKnockout, { visit_id }, c.cookie);
    expect(nothing.json<{ data: QuestionState }>().data.disqualified).toBeNull();

    // Back to the knock-out, and "Yes, that's right".
    await callAs(
      t.app,
      visitsApi.v2SubmitQuestion,
      { visit_id, linkId: item.linkId, value: knockoutAnswer(item) },
      c.cookie,
    );
    const confirmed = await callAs(t.app, visitsApi.confirmKnockout, { visit_id }, c.cookie);
    expect(confirmed.json<{ data: QuestionState }>().data).toMatchObject({
      disqualified: state.knockout?.reason,
      destination: '/visit/ed/not-a-fit',
    });
    await nothingToFinish(c);
    const again = await callAs(t.app, visitsApi.confirmKnockout, { visit_id }, c.cookie);
    expect(again.json()).toMatchObject({ code: 'VISIT_CLOSED' });
  });

  it("after a not-a-fit closure a new attempt offers a provider's review: the answers go to the queue, flagged, and nothing is charged", async () => {
    const c = await insertCustomer(t.app);
    const { visit_id, state, item } = await knockedOut(c);
    await callAs(t.app, visitsApi.confirmKnockout, { visit_id }, c.cookie);

    // Opening the program again does not start over: it shows the closed visit.
    expect(await start(c, 'ed')).toEqual(
      expect.objectContaining({ visit_id, destination: '/visit/ed/not-a-fit' }),
    );
    expect(await closed(c, visit_id)).toMatchObject({
      kind: 'not-a-fit',
      reason: state.knockout?.reason,
      review_available: true,
    });

    const other = await insertCustomer(t.app);
    expect(
      (await callAs(t.app, visitsApi.requestReview, { visit_id }, other.cookie)).statusCode,
    ).toBe(404);
    for (let i = 0; i < 2; i++) {
      const asked = await callAs(t.app, visitsApi.requestReview, { visit_id }, c.cookie);
      expect(asked.statusCode, asked.body).toBe(200);
      expect(asked.json()).toMatchObject({ data: { destination: '/visit/ed/not-a-fit' } });
    }
    expect(await closed(c, visit_id)).toMatchObject({
      kind: 'review-requested',
      review_available: false,
    });
    await nothingToFinish(c);
    const visit = await t.app.db
      .selectFrom('visits')
      .select(['status', 'order_id', 'review_requested_at'])
      .where('id', '=', visit_id)
      .executeTakeFirstOrThrow();
    expect(visit).toMatchObject({ status: 'PENDING_REVIEW', order_id: null });
    expect(visit.review_requested_at).not.toBeNull();
    const orders = await t.app.db
      .selectFrom('orders')
      .select('id')
      .where('customer_id', '=', c.customerId)
      .execute();
    expect(orders).toEqual([]);

    // The provider sees it for what it is, and can decline it; approval needs a held payment.
    const cookie = await staffCookie(t, provider);
    const queue = await callAs(t.app, reviewsApi.queue, {}, cookie);
    const listed = queue
      .json<{ data: { visits: { visit_id: number; review_requested: boolean }[] } }>()
      .data.visits.find((v) => v.visit_id === visit_id);
    expect(listed).toMatchObject({ review_requested: true });
    const chart = await callAs(t.app, reviewsApi.chart, { visit_id }, cookie);
    expect(chart.json<{ data: { chart: Chart } }>().data.chart).toMatchObject({
      review_requested: true,
      order: null,
    });
    // The answer that closed the visit is the first risk flag, a high one, counted in the queue.
    const flags = chart.json<{ data: { chart: Chart } }>().data.chart.risk_flags;
    expect(flags[0]).toEqual({
      code: 'closed_visit',
      severity: 'high',
      text: expect.stringContaining(`Closed the visit. ${item.text}`) as string,
      linkId: item.linkId,
    });
    expect(
      queue
        .json<{ data: { visits: { visit_id: number; risk_flags: number }[] } }>()
        .data.visits.find((v) => v.visit_id === visit_id)?.risk_flags,
    ).toBe(flags.length);
    const approve = await callAs(
      t.app,
      reviewsApi.approve,
      {
        visit_id,
        prescription: {
          drug: 'sildenafil',
          dosage: '50mg',
          quantity: 6,
          refills: 0,
          valid_until: '2099-01-01',
          directions: 'Take one tablet at bedtime.',
        },
      },
      cookie,
    );
    expect(approve.json()).toMatchObject({ code: 'NO_AUTHORIZATION' });
    const reason = 'Please see your doctor in person about your heart medicine first.';
    const decline = await callAs(t.app, reviewsApi.decline, { visit_id, reason }, cookie);
    expect(decline.statusCode, decline.body).toBe(200);
    expect(await closed(c, visit_id)).toMatchObject({
      kind: 'not-a-fit',
      reason,
      review_available: false,
    });
    expect((await start(c, 'ed')).destination).toBe('/visit/ed/not-a-fit');
    const replied = (await sentMessages(t)).filter(
      (m) => m.to === c.email && m.subject === 'Your provider has replied',
    );
    expect(replied).toHaveLength(1);
    // The reason waits in Messages, where the patient can answer; no hold was released.
    expect(replied[0]?.text).toContain('/messages');
    expect(replied[0]?.text).not.toContain('hold on your card');
    expect(replied[0]?.text).not.toContain(reason);
    const threads = await callAs(t.app, messagesApi.getAll, { leads_id: c.leadsId }, c.cookie);
    expect(threads.body).toContain(reason);
  });

  it('a visit still open cannot be sent for review, and an open visit is not a closed one', async () => {
    const c = await insertCustomer(t.app);
    const { visit_id } = await start(c, 'ed');
    const asked = await callAs(t.app, visitsApi.requestReview, { visit_id }, c.cookie);
    expect(asked.json()).toMatchObject({ code: 'VISIT_STEP' });
    const view = await callAs(t.app, visitsApi.closedVisit, { visit_id }, c.cookie);
    expect(view.json()).toMatchObject({ code: 'VISIT_STEP' });
    const list = await callAs(t.app, visitsApi.closedVisits, {}, c.cookie);
    expect(list.json()).toMatchObject({ data: [] });
  });
});
