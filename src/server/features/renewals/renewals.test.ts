import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStaff } from '#server/db/seed-demo.ts';
import { messagesApi } from '#shared/messages.ts';
import { ordersApi } from '#shared/orders.ts';
import { latestRenewalQuestionnaire } from '#shared/questionnaires/registry.ts';
import { renewalsApi } from '#shared/renewals.ts';
import { reviewsApi } from '#shared/reviews.ts';
import { visitsApi } from '#shared/visits.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs, dataOf } from '#test/contract.ts';
import { asPatient, insertCustomer, staffCookie, type TestCustomer } from '#test/factories.ts';
import { sentMessages } from '#test/outbox.ts';
import {
  approveWithPrescription,
  completeQuestions,
  knockoutAnswer,
  safeAnswer,
  submittedEdVisit,
} from '#test/visits.ts';
import { runPharmacy } from '#server/features/pharmacy/pharmacy.service.ts';

const provider = demoStaff.find((s) => s.role === 'provider')!;

const renewalsOf = async (t: TestApp, c: TestCustomer) =>
  dataOf(
    ordersApi.ordersDetails,
    await asPatient(t, c, () => callAs(t.app, ordersApi.ordersDetails, { leads_id: c.leadsId }, c)),
  ).renewals;

/** A patient with an approved ED visit: the visit, its prescription and its refill plan. */
async function approvedVisit(
  t: TestApp,
  c: TestCustomer,
  prescription: { refills: number; validDays: number },
) {
  const { visitId } = await submittedEdVisit(t.app, c, 'OR');
  const cookie = await staffCookie(t, provider);
  const approved = await approveWithPrescription(t.app, cookie, visitId, prescription);
  expect(approved.statusCode, approved.body).toBe(200);
  const rx = await t.app.db
    .selectFrom('prescriptions')
    .select('id')
    .where('visit_id', '=', visitId)
    .executeTakeFirstOrThrow();
  return { visitId, prescriptionId: rx.id };
}

const plansOf = (t: TestApp, c: TestCustomer) =>
  t.app.db
    .selectFrom('subscriptions')
    .select([
      'id',
      'prescription_id',
      'refills_remaining',
      'refill_until',
      'status',
      'next_billing_date',
      'cancel_reason',
    ])
    .where('customer_id', '=', c.customerId)
    .execute();

const planOrders = (t: TestApp, subscriptionId: number) =>
  t.app.db
    .selectFrom('orders')
    .select(['id', 'order_number', 'payment_status', 'total_cents'])
    .where('subscription_id', '=', subscriptionId)
    .orderBy('id')
    .execute();

const pharmacyMessagesOf = (t: TestApp, c: TestCustomer) =>
  t.app.db
    .selectFrom('pharmacy_messages')
    .select(['message_key', 'kind', 'order_id', 'prescription_id'])
    .where('customer_id', '=', c.customerId)
    .orderBy('id')
    .execute();

/** Opens the renewal, answers it (`answer` may change an offered answer) and sends it. */
async function renewedAndSent(
  t: TestApp,
  c: TestCustomer,
  answer?: NonNullable<Parameters<typeof completeQuestions>[4]>['answer'],
) {
  const opened = dataOf(
    renewalsApi.startRenewal,
    await asPatient(t, c, () => callAs(t.app, renewalsApi.startRenewal, { category: 'ed' }, c)),
  );
  expect(opened.destination).toBe('/visit/ed/questions');
  const offered = await completeQuestions(t.app, c, opened.visit_id, 'ed', {
    questionnaire: latestRenewalQuestionnaire('ed'),
    ...(answer ? { answer } : {}),
  });
  const review = dataOf(
    visitsApi.reviewAnswers,
    await callAs(t.app, visitsApi.reviewAnswers, { visit_id: opened.visit_id }, c),
  );
  expect(review.destination).toBe('/visit/ed/send');
  const unconfirmed = await callAs(
    t.app,
    renewalsApi.sendRenewal,
    // The box left unchecked, as a form would send it.
    { visit_id: opened.visit_id, confirm: false as unknown as true },
    c,
  );
  expect(unconfirmed.statusCode).toBe(400);
  const sent = await callAs(
    t.app,
    renewalsApi.sendRenewal,
    { visit_id: opened.visit_id, confirm: true },
    c,
  );
  expect(sent.statusCode, sent.body).toBe(200);
  expect(dataOf(renewalsApi.sendRenewal, sent).destination).toBe('/visit/ed/submitted');
  return { visitId: opened.visit_id, offered };
}

describe(`renewing a prescription (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
  });
  afterAll(() => t.close());

  it('due at one refill left: Home and one e-mail say so; the approved renewal continues the same plan, one charge a period', async () => {
    const c = await insertCustomer(t.app);
    const first = await approvedVisit(t, c, { refills: 1, validDays: 180 });
    const [plan] = await plansOf(t, c);
    expect(plan).toMatchObject({ prescription_id: first.prescriptionId, refills_remaining: 1 });

    // Due: Home says so, and the patient is e-mailed once, naming nothing.
    expect(await renewalsOf(t, c)).toEqual([
      expect.objectContaining({
        category: 'ed',
        status: 'due',
        refills_remaining: 1,
        href: '/visit/ed/renew',
        medicine: expect.stringContaining('50'),
      }),
    ]);
    await t.app.ctx.jobs.drain('renewal-due');
    await t.app.ctx.jobs.drain('renewal-due');
    const reminders = (await sentMessages(t)).filter(
      (m) => m.to === c.email && m.subject === 'Time for your check-in',
    );
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.text).toContain('/dashboard');
    expect(reminders[0]!.text).not.toMatch(/sildenafil|[Ee]rectile|\bED\b|50 ?mg/);

    // The renewal: lasting answers are offered from the first visit; the patient adds an allergy.
    const { visitId, offered } = await renewedAndSent(t, c, (item, offer) =>
      item.linkId === 'allergies'
        ? true
        : item.linkId === 'allergies_list'
          ? 'Penicillin: a rash.'
          : (offer ?? safeAnswer(item)),
    );
    expect(offered).toMatchObject({
      nitrates: ['none'],
      interacting_medicines: ['none'],
      other_medicines: false,
      allergies: false,
      // Questions about now are never offered.
      chest_pain: null,
      side_effects: null,
    });
    expect(await renewalsOf(t, c)).toEqual([expect.objectContaining({ status: 'in_review' })]);
    expect(
      (await sentMessages(t)).filter(
        (m) => m.to === c.email && m.subject === 'We received your answers',
      ),
    ).toHaveLength(1);
    // Nothing was ordered or held for it.
    expect(
      await t.app.db
        .selectFrom('visits')
        .select(['order_id', 'kind', 'renews_prescription_id', 'status'])
        .where('id', '=', visitId)
        .executeTakeFirstOrThrow(),
    ).toEqual({
      order_id: null,
      kind: 'renewal',
      renews_prescription_id: first.prescriptionId,
      status: 'PENDING_REVIEW',
    });

    // The provider's Renewals queue, and the chart against the last visit.
    const cookie = await staffCookie(t, provider);
    const queue = dataOf(reviewsApi.queue, await callAs(t.app, reviewsApi.queue, {}, cookie));
    expect(queue.visits.find((v) => v.visit_id === visitId)).toMatchObject({
      kind: 'renewal',
      treatment: 'Renewal',
    });
    const { chart } = dataOf(
      reviewsApi.chart,
      await callAs(t.app, reviewsApi.chart, { visit_id: visitId }, cookie),
    );
    expect(chart.kind).toBe('renewal');
    expect(chart.renewal?.renews).toMatchObject({ drug: 'sildenafil', dosage: '50mg', refills: 1 });
    expect(chart.renewal?.previous_visit.visit_id).toBe(first.visitId);
    const compared = new Map(chart.renewal?.comparison.map((row) => [row.linkId, row]));
    expect(compared.get('allergies')).toMatchObject({
      answer: 'Yes',
      previous: 'No',
      changed: true,
    });
    expect(compared.get('nitrates')).toMatchObject({ changed: false });
    expect(compared.get('side_effects')).toMatchObject({ previous: null, changed: false });
    expect(chart.renewal?.fills).toHaveLength(1);

    // Approved twice: one decision, one prescription more, the same plan.
    const approve = () =>
      approveWithPrescription(t.app, cookie, visitId, { refills: 2, validDays: 300 });
    expect((await approve()).statusCode).toBe(200);
    expect((await approve()).json()).toMatchObject({ code: 'VISIT_DECIDED' });
    const renewed = await t.app.db
      .selectFrom('prescriptions')
      .select(['id', 'refills'])
      .where('visit_id', '=', visitId)
      .execute();
    expect(renewed).toHaveLength(1);
    const plans = await plansOf(t, c);
    expect(plans).toHaveLength(1);
    expect(plans[0]).toMatchObject({
      id: plan!.id,
      prescription_id: renewed[0]!.id,
      // The renewal's first fill and its 2 refills, all billed by the plan.
      refills_remaining: 3,
      status: 'ACTIVE',
      next_billing_date: plan!.next_billing_date,
    });
    expect(await renewalsOf(t, c)).toEqual([]);
    const thread = dataOf(
      messagesApi.getAll,
      await asPatient(t, c, () => callAs(t.app, messagesApi.getAll, { leads_id: c.leadsId }, c)),
    );
    expect(JSON.stringify(thread)).toContain('Your prescription is renewed');

    // Across the billing date: one charge, and the pharmacy gets the new prescription with it.
    t.clock.set(new Date(`${plan!.next_billing_date}T12:00:00.000Z`));
    await t.app.ctx.jobs.drain('billing');
    await t.app.ctx.jobs.drain('billing');
    const period1 = await planOrders(t, plan!.id);
    expect(period1).toEqual([expect.objectContaining({ payment_status: 'paid' })]);
    while (await runPharmacy(t.app.ctx));
    const toPharmacy = await pharmacyMessagesOf(t, c);
    expect(toPharmacy.map((m) => [m.kind, m.prescription_id, m.order_id])).toEqual([
      ['NewRx', first.prescriptionId, expect.any(Number)],
      ['CancelRx', first.prescriptionId, null],
      ['NewRx', renewed[0]!.id, period1[0]!.id],
    ]);

    // The next period is a refill of the renewed prescription: still one charge.
    const [after] = await plansOf(t, c);
    t.clock.set(new Date(`${after!.next_billing_date}T12:00:00.000Z`));
    await t.app.ctx.jobs.drain('billing');
    const period2 = await planOrders(t, plan!.id);
    expect(period2).toHaveLength(2);
    expect((await pharmacyMessagesOf(t, c)).at(-1)).toMatchObject({
      kind: 'Refill',
      prescription_id: renewed[0]!.id,
      order_id: period2[1]!.id,
    });
    expect((await plansOf(t, c))[0]).toMatchObject({ refills_remaining: 1, status: 'ACTIVE' });
  });

  it('declined: the plan ends after the supply already paid for, and Messages say why', async () => {
    const c = await insertCustomer(t.app);
    const first = await approvedVisit(t, c, { refills: 2, validDays: 200 });
    expect(await renewalsOf(t, c)).toEqual([]);
    const [plan] = await plansOf(t, c);
    // The first refill is paid: one fill left, so the renewal is due.
    t.clock.set(new Date(`${plan!.next_billing_date}T12:00:00.000Z`));
    await t.app.ctx.jobs.drain('billing');
    const paid = await planOrders(t, plan!.id);
    expect(paid).toEqual([expect.objectContaining({ payment_status: 'paid' })]);
    expect(await renewalsOf(t, c)).toEqual([
      expect.objectContaining({ status: 'due', refills_remaining: 1 }),
    ]);

    const { visitId } = await renewedAndSent(t, c);
    const cookie = await staffCookie(t, provider);
    const reason = 'Your blood pressure reading needs a check in person before we continue.';
    const declined = await callAs(t.app, reviewsApi.decline, { visit_id: visitId, reason }, cookie);
    expect(declined.statusCode, declined.body).toBe(200);
    expect((await plansOf(t, c))[0]).toMatchObject({
      status: 'CANCELLED',
      cancel_reason: 'Your provider did not renew this prescription.',
    });
    while (await runPharmacy(t.app.ctx));
    // The paid refill went to the pharmacy before the cancellation.
    expect((await pharmacyMessagesOf(t, c)).map((m) => m.kind)).toEqual([
      'NewRx',
      'Refill',
      'CancelRx',
    ]);
    const thread = dataOf(
      messagesApi.getAll,
      await asPatient(t, c, () => callAs(t.app, messagesApi.getAll, { leads_id: c.leadsId }, c)),
    );
    expect(JSON.stringify(thread)).toContain(reason);
    const told = (await sentMessages(t)).filter(
      (m) => m.to === c.email && m.text.includes('decided not to continue your refills'),
    );
    expect(told).toHaveLength(1);
    expect(told[0]!.text).not.toContain(reason);

    // Nothing is charged at the next date.
    const [ended] = await plansOf(t, c);
    t.clock.set(new Date(`${ended!.next_billing_date}T12:00:00.000Z`));
    await t.app.ctx.jobs.drain('billing');
    expect(await planOrders(t, plan!.id)).toHaveLength(1);
    expect(await renewalsOf(t, c)).toEqual([]);
    expect(first.prescriptionId).toBeGreaterThan(0);
  });

  it('a knock-out still stops a renewal; nothing is due, or someone else’s, opens nothing', async () => {
    const c = await insertCustomer(t.app);
    const other = await insertCustomer(t.app);
    expect(
      (await callAs(t.app, renewalsApi.startRenewal, { category: 'ed' }, c)).json(),
    ).toMatchObject({ code: 'NOT_FOUND' });
    await approvedVisit(t, c, { refills: 0, validDays: 60 });
    const opened = dataOf(
      renewalsApi.startRenewal,
      await asPatient(t, c, () => callAs(t.app, renewalsApi.startRenewal, { category: 'ed' }, c)),
    );
    // Opening again resumes it.
    expect(
      dataOf(
        renewalsApi.startRenewal,
        await callAs(t.app, renewalsApi.startRenewal, { category: 'ed' }, c),
      ).visit_id,
    ).toBe(opened.visit_id);
    // Another patient finds nothing; a first visit's steps are not a renewal's; nor is sending early.
    expect(
      (
        await callAs(
          t.app,
          renewalsApi.sendRenewal,
          { visit_id: opened.visit_id, confirm: true },
          other,
        )
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await callAs(
          t.app,
          renewalsApi.sendRenewal,
          { visit_id: opened.visit_id, confirm: true },
          c,
        )
      ).json(),
    ).toMatchObject({ code: 'VISIT_STEP' });
    expect(
      (
        await callAs(t.app, visitsApi.consent, { visit_id: opened.visit_id, consent: true }, c)
      ).json(),
    ).toMatchObject({ code: 'VISIT_STEP' });

    const questionnaire = latestRenewalQuestionnaire('ed');
    const nitrates = questionnaire.items.find((i) => i.linkId === 'nitrates')!;
    const saved = await callAs(
      t.app,
      visitsApi.v2SubmitQuestion,
      { visit_id: opened.visit_id, linkId: 'nitrates', value: knockoutAnswer(nitrates) },
      c,
    );
    expect(saved.json<{ data: { knockout: unknown } }>().data.knockout).not.toBeNull();
    const closed = await callAs(t.app, visitsApi.confirmKnockout, { visit_id: opened.visit_id }, c);
    expect(closed.json<{ data: { destination: string } }>().data.destination).toBe(
      '/visit/ed/not-a-fit',
    );
    expect(await renewalsOf(t, c)).toEqual([]);
    // Opening it again shows why it closed: a knock-out is not answered away by starting over.
    expect(
      dataOf(
        renewalsApi.startRenewal,
        await callAs(t.app, renewalsApi.startRenewal, { category: 'ed' }, c),
      ),
    ).toEqual({ visit_id: opened.visit_id, destination: '/visit/ed/not-a-fit' });

    // Sent to a provider as answered, it is theirs to approve: nothing needs holding for a renewal.
    // A prescription written without refills had no plan; the renewal starts one, billing today.
    expect(
      (await callAs(t.app, visitsApi.requestReview, { visit_id: opened.visit_id }, c)).statusCode,
    ).toBe(200);
    const cookie = await staffCookie(t, provider);
    const approved = await approveWithPrescription(t.app, cookie, opened.visit_id, {
      refills: 2,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await plansOf(t, c)).toEqual([
      expect.objectContaining({
        status: 'ACTIVE',
        refills_remaining: 3,
        next_billing_date: t.clock.now().toISOString().slice(0, 10),
      }),
    ]);
  });
});
