import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStaff } from '#server/db/seed-demo.ts';
import { runPharmacy } from '#server/features/pharmacy/pharmacy.service.ts';
import { reviewsApi } from '#shared/reviews.ts';
import { addDays } from '#shared/subscriptions.ts';
import { treatmentRequestsApi } from '#shared/treatment-requests.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs, dataOf } from '#test/contract.ts';
import { asPatient, insertCustomer, staffCookie, type TestCustomer } from '#test/factories.ts';
import { sentMessages } from '#test/outbox.ts';
import { approveWithPrescription, setLicensedStates, submittedEdVisit } from '#test/visits.ts';

const provider = demoStaff.find((s) => s.role === 'provider')!;

/** A patient with an approved ED visit in Oregon and its refill plan. */
async function patientOnPlan(t: TestApp, refills = 3) {
  const c = await insertCustomer(t.app);
  const { visitId } = await submittedEdVisit(t.app, c, 'OR');
  const cookie = await staffCookie(t, provider);
  const approved = await approveWithPrescription(t.app, cookie, visitId, {
    refills,
    validDays: 300,
  });
  expect(approved.statusCode, approved.body).toBe(200);
  const plan = await t.app.db
    .selectFrom('subscriptions')
    .select(['id', 'prescription_id', 'next_billing_date', 'refills_remaining'])
    .where('customer_id', '=', c.customerId)
    .executeTakeFirstOrThrow();
  return { c, visitId, plan, cookie };
}

const ask = (
  t: TestApp,
  c: TestCustomer,
  body: {
    subscription_id: number;
    kind: 'early_refill' | 'dose_change' | 'side_effect';
    reason: string;
    details: string;
  },
) => asPatient(t, c, () => callAs(t.app, treatmentRequestsApi.create, body, c));

const listOf = async (t: TestApp, c: TestCustomer) =>
  dataOf(
    treatmentRequestsApi.list,
    await asPatient(t, c, () => callAs(t.app, treatmentRequestsApi.list, {}, c)),
  ).requests;

const planOf = (t: TestApp, id: number) =>
  t.app.db
    .selectFrom('subscriptions')
    .select(['prescription_id', 'next_billing_date', 'refills_remaining', 'status', 'updated_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

const threadMessages = (t: TestApp, threadId: number) =>
  t.app.db
    .selectFrom('messages')
    .select(['sender', 'body'])
    .where('thread_id', '=', threadId)
    .orderBy('id')
    .execute();

describe(`requests between visits (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
  });
  afterAll(() => t.close());

  it('an early refill: asked once, in the queue, approved with a date the plan moves to, charged once on it', async () => {
    const { c, plan, cookie } = await patientOnPlan(t);

    // Bad input: each field's message, nothing written.
    const bad = await ask(t, c, {
      subscription_id: plan.id,
      kind: 'early_refill',
      reason: 'mild',
      details: '  ',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({
      reason: 'Choose a reason',
      details: 'Tell your provider a little more',
    });
    // Another patient's plan is not found.
    const stranger = await insertCustomer(t.app);
    const theirs = await ask(t, stranger, {
      subscription_id: plan.id,
      kind: 'early_refill',
      reason: 'travel',
      details: 'Not my plan.',
    });
    expect(theirs.statusCode).toBe(404);

    // Asked twice at once: one request, one conversation.
    const body = {
      subscription_id: plan.id,
      kind: 'early_refill' as const,
      reason: 'travel',
      details: 'I leave for three weeks on the 2nd and my refill would arrive after.',
    };
    const answers = await Promise.all([ask(t, c, body), ask(t, c, body)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.statusCode === 409)?.json().code).toBe('REQUEST_OPEN');
    const [request] = await listOf(t, c);
    expect(await listOf(t, c)).toHaveLength(1);
    expect(request).toMatchObject({
      kind: 'early_refill',
      status: 'OPEN',
      reason: "I'm travelling when my next refill would arrive",
      outcome: null,
    });
    expect(await threadMessages(t, request!.thread_id)).toEqual([
      {
        sender: 'patient',
        body: "I'm travelling when my next refill would arrive.\n\nI leave for three weeks on the 2nd and my refill would arrive after.",
      },
    ]);
    expect(
      await t.app.db
        .selectFrom('message_threads')
        .select('id')
        .where('customer_id', '=', c.customerId)
        .where('subject', '=', 'Early refill request')
        .execute(),
    ).toHaveLength(1);

    // The provider's queue and the conversation carry it.
    const queue = dataOf(reviewsApi.queue, await callAs(t.app, reviewsApi.queue, {}, cookie));
    expect(queue.requests.find((r) => r.request_id === request!.id)).toMatchObject({
      thread_id: request!.thread_id,
      kind: 'early_refill',
      state: 'OR',
      category: 'ed',
      medicine: expect.stringContaining('50'),
    });
    const opened = dataOf(
      reviewsApi.patientThread,
      await callAs(t.app, reviewsApi.patientThread, { thread_id: request!.thread_id }, cookie),
    );
    expect(opened.request).toMatchObject({
      id: request!.id,
      status: 'OPEN',
      outcomes: ['refill_date', 'decline', 'answer'],
      plan: { status: 'ACTIVE', next_billing_date: plan.next_billing_date },
      prescription: { drug: 'sildenafil', dosage: '50mg' },
      decision: null,
    });

    // A provider no longer licensed in Oregon (nor assigned) neither sees nor decides it.
    const thread = await t.app.db
      .selectFrom('message_threads')
      .select('provider_id')
      .where('id', '=', request!.thread_id)
      .executeTakeFirstOrThrow();
    await t.app.db
      .updateTable('message_threads')
      .set({ provider_id: null })
      .where('id', '=', request!.thread_id)
      .execute();
    await setLicensedStates(t.app, provider.email, ['TX']);
    const unlicensed = dataOf(reviewsApi.queue, await callAs(t.app, reviewsApi.queue, {}, cookie));
    expect(unlicensed.requests.find((r) => r.request_id === request!.id)).toBeUndefined();
    const notTheirs = await callAs(
      t.app,
      reviewsApi.decideRequest,
      { request_id: request!.id, outcome: 'answer', message: 'Not mine to answer, really.' },
      cookie,
    );
    expect(notTheirs.statusCode).toBe(404);
    await setLicensedStates(t.app, provider.email, provider.licensedStates, '2028-06-30');
    await t.app.db
      .updateTable('message_threads')
      .set({ provider_id: thread.provider_id })
      .where('id', '=', request!.thread_id)
      .execute();

    // Refused decisions change nothing: the wrong kind of decision, a date not earlier.
    const wrongKind = await callAs(
      t.app,
      reviewsApi.decideRequest,
      {
        request_id: request!.id,
        outcome: 'new_prescription',
        prescription: {
          drug: 'sildenafil',
          dosage: '100mg',
          quantity: 6,
          refills: 1,
          valid_until: addDays(plan.next_billing_date, 100),
          directions: 'One tablet an hour before.',
        },
        message: 'A new dose for you.',
      },
      cookie,
    );
    expect(wrongKind.statusCode).toBe(400);
    const late = await callAs(
      t.app,
      reviewsApi.decideRequest,
      {
        request_id: request!.id,
        outcome: 'refill_date',
        date: plan.next_billing_date,
        message: 'Your refill comes on its usual date.',
      },
      cookie,
    );
    expect(late.statusCode).toBe(400);
    expect(late.json()).toMatchObject({
      code: 'SUBSCRIPTION_REFUSED',
      fields: { date: expect.any(String) },
    });
    expect((await listOf(t, c))[0]!.status).toBe('OPEN');
    expect(await threadMessages(t, request!.thread_id)).toHaveLength(1);
    expect(await planOf(t, plan.id)).toMatchObject({ next_billing_date: plan.next_billing_date });

    // Approved twice at once: one decision, one message, one e-mail.
    const today = t.clock.now().toISOString().slice(0, 10);
    const early = addDays(today, 2);
    const messageMails = async () =>
      (await sentMessages(t)).filter(
        (m) => m.to === c.email && m.subject === 'You have a new message from your care team',
      );
    const mailsBefore = (await messageMails()).length;
    const decide = () =>
      callAs(
        t.app,
        reviewsApi.decideRequest,
        {
          request_id: request!.id,
          outcome: 'refill_date',
          date: early,
          message: 'Safe travels. Your next refill is sent before you leave.',
        },
        cookie,
      );
    const decisions = await Promise.all([decide(), decide()]);
    expect(decisions.map((d) => d.statusCode).sort()).toEqual([200, 409]);
    expect(decisions.find((d) => d.statusCode === 409)?.json().code).toBe('REQUEST_DECIDED');
    expect(
      dataOf(
        reviewsApi.decideRequest,
        decisions.find((d) => d.statusCode === 200)!,
      ).request,
    ).toMatchObject({
      status: 'APPROVED',
      outcomes: [],
      decision: { outcome: 'refill_date', refill_date: early, provider: provider.name },
    });
    expect(await planOf(t, plan.id)).toMatchObject({ next_billing_date: early, status: 'ACTIVE' });
    expect(await threadMessages(t, request!.thread_id)).toEqual([
      expect.objectContaining({ sender: 'patient' }),
      { sender: 'care_team', body: 'Safe travels. Your next refill is sent before you leave.' },
    ]);
    // One e-mail, which says only that a message waits.
    const mails = await messageMails();
    expect(mails.length - mailsBefore).toBe(1);
    expect(mails.at(-1)!.text).not.toMatch(/sildenafil|refill|travel/i);
    expect((await listOf(t, c))[0]).toMatchObject({
      status: 'APPROVED',
      outcome: expect.stringContaining('your next refill is sent on'),
    });
    const after = dataOf(reviewsApi.queue, await callAs(t.app, reviewsApi.queue, {}, cookie));
    expect(after.requests.find((r) => r.request_id === request!.id)).toBeUndefined();

    // On the new date the plan bills once, and the pharmacy gets the refill with it.
    t.clock.set(new Date(`${early}T12:00:00.000Z`));
    await t.app.ctx.jobs.drain('billing');
    await t.app.ctx.jobs.drain('billing');
    const orders = await t.app.db
      .selectFrom('orders')
      .select(['id', 'payment_status'])
      .where('subscription_id', '=', plan.id)
      .execute();
    expect(orders).toEqual([expect.objectContaining({ payment_status: 'paid' })]);
    const billed = await planOf(t, plan.id);
    expect(billed.refills_remaining).toBe(plan.refills_remaining! - 1);
    // The dates go on from the early one: a month later, not the old date.
    expect(billed.next_billing_date.slice(8, 10)).toBe(early.slice(8, 10));
    expect(billed.next_billing_date > early).toBe(true);
    while (await runPharmacy(t.app.ctx));
    const refill = await t.app.db
      .selectFrom('pharmacy_messages')
      .select(['kind', 'order_id'])
      .where('order_id', '=', orders[0]!.id)
      .execute();
    expect(refill).toEqual([{ kind: 'Refill', order_id: orders[0]!.id }]);
  });

  it('a dose change: approved with a new prescription the same plan continues under; the visit keeps its own', async () => {
    const { c, visitId, plan, cookie } = await patientOnPlan(t, 2);
    const asked = await ask(t, c, {
      subscription_id: plan.id,
      kind: 'dose_change',
      reason: 'not_working',
      details: 'The 50 mg works only half the time.',
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const { request } = dataOf(treatmentRequestsApi.create, asked);
    const validUntil = addDays(t.clock.now().toISOString().slice(0, 10), 200);
    const decided = await callAs(
      t.app,
      reviewsApi.decideRequest,
      {
        request_id: request.id,
        outcome: 'new_prescription',
        prescription: {
          drug: 'sildenafil',
          dosage: '100mg',
          quantity: 6,
          refills: 2,
          valid_until: validUntil,
          directions: 'Take one tablet about an hour before, no more than once a day.',
        },
        message: 'Let us try 100 mg: it starts with your next refill.',
      },
      cookie,
    );
    expect(decided.statusCode, decided.body).toBe(200);
    expect(dataOf(reviewsApi.decideRequest, decided).request.decision).toMatchObject({
      outcome: 'new_prescription',
      prescription: { dosage: '100mg', refills: 2, valid_until: validUntil },
    });

    const prescriptions = await t.app.db
      .selectFrom('prescriptions')
      .select(['id', 'dosage', 'request_id', 'visit_id'])
      .where('customer_id', '=', c.customerId)
      .orderBy('id')
      .execute();
    expect(prescriptions).toEqual([
      { id: plan.prescription_id, dosage: '50mg', request_id: null, visit_id: visitId },
      { id: expect.any(Number), dosage: '100mg', request_id: request.id, visit_id: visitId },
    ]);
    const written = prescriptions[1]!.id;
    // The same plan, its date unchanged, now billing the new prescription's first fill and refills.
    expect(await planOf(t, plan.id)).toMatchObject({
      prescription_id: written,
      next_billing_date: plan.next_billing_date,
      refills_remaining: 3,
      status: 'ACTIVE',
    });
    // Beside the patient's messages, only the prescription that replaced the one asked about.
    const conversation = dataOf(
      reviewsApi.patientThread,
      await callAs(t.app, reviewsApi.patientThread, { thread_id: request.thread_id }, cookie),
    );
    expect(conversation.prescriptions.map((p) => p.medicine)).toEqual([
      expect.stringContaining('100'),
    ]);
    // The visit's chart still records what was decided at the visit.
    const { chart } = dataOf(
      reviewsApi.chart,
      await callAs(t.app, reviewsApi.chart, { visit_id: visitId }, cookie),
    );
    expect(chart.decision?.prescription).toMatchObject({ dosage: '50mg' });
    expect((await listOf(t, c))[0]).toMatchObject({
      status: 'APPROVED',
      outcome: expect.stringContaining('100'),
    });

    // The old prescription is cancelled at the pharmacy; the new one goes with the next charge.
    t.clock.set(new Date(`${plan.next_billing_date}T12:00:00.000Z`));
    await t.app.ctx.jobs.drain('billing');
    while (await runPharmacy(t.app.ctx));
    const toPharmacy = await t.app.db
      .selectFrom('pharmacy_messages')
      .select(['kind', 'prescription_id'])
      .where('customer_id', '=', c.customerId)
      .orderBy('id')
      .execute();
    expect(toPharmacy).toEqual([
      { kind: 'NewRx', prescription_id: plan.prescription_id },
      { kind: 'CancelRx', prescription_id: plan.prescription_id },
      { kind: 'NewRx', prescription_id: written },
    ]);
  });

  it('declined with a reason: the plan as it was, the reason in the conversation, the card says so', async () => {
    const { c, plan, cookie } = await patientOnPlan(t);
    const asked = await ask(t, c, {
      subscription_id: plan.id,
      kind: 'early_refill',
      reason: 'running_out',
      details: 'I take one most days now.',
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const { request } = dataOf(treatmentRequestsApi.create, asked);
    const before = await planOf(t, plan.id);
    const reason =
      'Six a month is the safe amount for you; let us talk about how often you take it first.';
    const declined = await callAs(
      t.app,
      reviewsApi.decideRequest,
      { request_id: request.id, outcome: 'decline', message: reason },
      cookie,
    );
    expect(declined.statusCode, declined.body).toBe(200);
    expect(await planOf(t, plan.id)).toEqual(before);
    expect((await threadMessages(t, request.thread_id)).at(-1)).toEqual({
      sender: 'care_team',
      body: reason,
    });
    expect((await listOf(t, c))[0]).toMatchObject({
      status: 'DECLINED',
      outcome: 'Declined: your provider explains why in Messages.',
    });
    // Too short a message is refused with its words, and a decided request stays decided.
    const again = await callAs(
      t.app,
      reviewsApi.decideRequest,
      { request_id: request.id, outcome: 'answer', message: 'OK.' },
      cookie,
    );
    expect(again.statusCode).toBe(400);
    expect(again.json().fields).toEqual({ message: 'Write to the patient, in a sentence or two' });
    const twice = await callAs(
      t.app,
      reviewsApi.decideRequest,
      { request_id: request.id, outcome: 'answer', message: 'One more thing to add here.' },
      cookie,
    );
    expect(twice.json()).toMatchObject({ code: 'REQUEST_DECIDED' });
  });

  it('a side effect: advice, not a decline; a plan that has ended takes no request', async () => {
    const { c, plan, cookie } = await patientOnPlan(t, 1);
    const asked = await ask(t, c, {
      subscription_id: plan.id,
      kind: 'side_effect',
      reason: 'mild',
      details: 'A headache the morning after.',
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const { request } = dataOf(treatmentRequestsApi.create, asked);
    const declined = await callAs(
      t.app,
      reviewsApi.decideRequest,
      { request_id: request.id, outcome: 'decline', message: 'There is nothing to decline.' },
      cookie,
    );
    expect(declined.statusCode).toBe(400);
    const answered = await callAs(
      t.app,
      reviewsApi.decideRequest,
      {
        request_id: request.id,
        outcome: 'answer',
        message: 'Common and mild: drink water, and tell us if it lasts.',
      },
      cookie,
    );
    expect(answered.statusCode, answered.body).toBe(200);
    expect((await listOf(t, c))[0]).toMatchObject({ status: 'ANSWERED' });
    // Answered, so another report may follow.
    const again = await ask(t, c, {
      subscription_id: plan.id,
      kind: 'side_effect',
      reason: 'moderate',
      details: 'It lasted all day this time.',
    });
    expect(again.statusCode, again.body).toBe(200);

    await t.app.db
      .updateTable('subscriptions')
      .set({ status: 'CANCELLED' })
      .where('id', '=', plan.id)
      .execute();
    const ended = await ask(t, c, {
      subscription_id: plan.id,
      kind: 'dose_change',
      reason: 'lower',
      details: 'A lower dose, please.',
    });
    expect(ended.statusCode).toBe(400);
    expect(ended.json()).toMatchObject({ code: 'SUBSCRIPTION_REFUSED' });
  });
});
