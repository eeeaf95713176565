import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStaff } from '#server/db/seed-demo.ts';
import { authApi } from '#shared/auth.ts';
import { ordersApi } from '#shared/orders.ts';
import { pharmacyApi, type NewRxMessage, type PharmacyEvent } from '#shared/pharmacy.ts';
import { reviewsApi } from '#shared/reviews.ts';
import { subscriptionsApi } from '#shared/subscriptions.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs, dataOf } from '#test/contract.ts';
import { insertCustomer, sessionCookie, staffCookie, type TestCustomer } from '#test/factories.ts';
import { sentMessages } from '#test/outbox.ts';
// The real fetch, taken before test/setup.ts stubs it: these tests talk to a local fake pharmacy.
import { realFetch } from '#test/real-fetch.ts';
import {
  sendCallback,
  startFakePharmacy,
  type FakePharmacy,
} from '#test/pharmacy/fake-pharmacy.ts';
import { approveWithPrescription, submittedEdVisit } from '#test/visits.ts';
import { createPartnerPharmacy, signPharmacyCallback } from '#server/adapters/pharmacy.ts';
import { runPharmacy } from './pharmacy.service.ts';

const provider = demoStaff.find((s) => s.role === 'provider')!;
const operations = demoStaff.find((s) => s.role === 'operations')!;
const SECRET = 'whsec_pharmacy_test_0123456789abcdef';

/** Runs the pharmacy job until it has nothing left (errors surface, unlike the job runner's). */
async function drainPharmacy(t: TestApp): Promise<void> {
  while (await runPharmacy(t.app.ctx));
}

/** A patient with an approved ED visit (6 tablets, 2 refills): its order and prescription. */
async function approvedVisit(t: TestApp, c: TestCustomer) {
  const { visitId, orderNumber } = await submittedEdVisit(t.app, c, 'OR');
  const cookie = await staffCookie(t, provider);
  const approve = () => approveWithPrescription(t.app, cookie, visitId);
  const approved = await approve();
  expect(approved.statusCode, approved.body).toBe(200);
  // Approving again changes nothing: the visit is decided, and its NewRx was queued once.
  expect((await approve()).json()).toMatchObject({ code: 'VISIT_DECIDED' });
  const order = await t.app.db
    .selectFrom('orders')
    .select(['id', 'status', 'tracking_number'])
    .where('order_number', '=', orderNumber)
    .executeTakeFirstOrThrow();
  const prescription = await t.app.db
    .selectFrom('prescriptions')
    .select('id')
    .where('visit_id', '=', visitId)
    .executeTakeFirstOrThrow();
  return { visitId, orderNumber, orderId: order.id, prescriptionId: prescription.id };
}

const messagesOf = (t: TestApp, orderId: number) =>
  t.app.db
    .selectFrom('pharmacy_messages')
    .select(['message_key', 'kind', 'status', 'attempts', 'last_error'])
    .where('order_id', '=', orderId)
    .execute();

/** The order as its patient reads it, logging them in again when the clock outran their session. */
async function orderOf(t: TestApp, c: TestCustomer, orderNumber: string) {
  const ask = () =>
    callAs(t.app, ordersApi.order, { leads_id: c.leadsId, order_number: orderNumber }, c);
  let answer = await ask();
  if (answer.statusCode === 401) {
    c.cookie = sessionCookie(
      await callAs(t.app, authApi.login, { email: c.email, password: c.password }),
    );
    answer = await ask();
  }
  return dataOf(ordersApi.order, answer).order;
}

const stepsOf = async (t: TestApp, c: TestCustomer, orderNumber: string) =>
  (await orderOf(t, c, orderNumber)).pharmacy?.steps.map((s) => s.step) ?? [];

describe(`the built-in pharmacy fills an approved prescription (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      env: { SEED_DEMO: 'true', PHARMACY_SIMULATOR_DELAY_SECONDS: '600' },
    });
  });
  afterAll(() => t.close());

  it('sends one NewRx naming prescriber, patient and medicine, and the order follows each step to Delivered', async () => {
    const c = await insertCustomer(t.app);
    const { orderNumber, orderId, prescriptionId } = await approvedVisit(t, c);
    const queued = await t.app.db
      .selectFrom('pharmacy_messages')
      .select(['message_key', 'kind', 'payload'])
      .where('order_id', '=', orderId)
      .execute();
    expect(queued.map((m) => [m.message_key, m.kind])).toEqual([
      [`newrx:${prescriptionId}`, 'NewRx'],
    ]);
    const rx = JSON.parse(queued[0]!.payload) as NewRxMessage;
    const customer = await t.app.db
      .selectFrom('customers')
      .select(['first_name', 'last_name', 'dob'])
      .where('id', '=', c.customerId)
      .executeTakeFirstOrThrow();
    expect(rx).toMatchObject({
      type: 'NewRx',
      order_number: orderNumber,
      prescriber: {
        name: provider.name,
        npi: '1234567893',
        state_licence: { state: 'OR', number: expect.stringMatching(/^OR-MD-/) },
      },
      patient: {
        first_name: customer.first_name,
        last_name: customer.last_name,
        date_of_birth: customer.dob,
        address: { line1: '5 Oak St', state: 'OR' },
      },
      medication: {
        drug: 'sildenafil',
        strength: '50mg',
        quantity: 6,
        days_supply: 30,
        refills: 2,
        directions: 'Take one tablet about an hour before, no more than once a day.',
        substitution: 'allowed',
      },
    });
    expect(await stepsOf(t, c, orderNumber)).toEqual([]);

    await drainPharmacy(t);
    expect(await messagesOf(t, orderId)).toMatchObject([{ status: 'sent', attempts: 1 }]);
    // The simulator received it at once.
    expect(await stepsOf(t, c, orderNumber)).toEqual(['sent', 'received']);

    t.clock.advance(600 * 1000);
    await drainPharmacy(t);
    expect(await stepsOf(t, c, orderNumber)).toEqual(['sent', 'received', 'filled']);
    expect((await orderOf(t, c, orderNumber)).order_status).toBe('PROCESSING');

    t.clock.advance(600 * 1000);
    await drainPharmacy(t);
    const shipped = await orderOf(t, c, orderNumber);
    expect(shipped.order_status).toBe('SHIPPED');
    expect(shipped.tracking_number).toMatch(/^9400\d{18}$/);

    t.clock.advance(600 * 1000);
    await drainPharmacy(t);
    const delivered = await orderOf(t, c, orderNumber);
    expect(delivered.order_status).toBe('DELIVERED');
    expect(delivered.pharmacy?.steps.map((s) => s.step)).toEqual([
      'sent',
      'received',
      'filled',
      'shipped',
      'delivered',
    ]);
    expect(delivered.pharmacy?.rejected_reason).toBeNull();

    const mail = (await sentMessages(t)).filter((m) => m.to === c.email);
    expect(mail.filter((m) => m.subject.includes(`order ${orderNumber} has shipped`))).toHaveLength(
      1,
    );
    expect(
      mail.filter((m) => m.subject.includes(`order ${orderNumber} has been delivered`)),
    ).toHaveLength(1);
    // No medicine in any email the pharmacy's steps send.
    for (const m of mail) expect(m.text).not.toMatch(/sildenafil/i);

    // One NewRx at the pharmacy, however often the job ran.
    expect(await t.app.db.selectFrom('simulator_pharmacy').select('message_key').execute()).toEqual(
      expect.arrayContaining([{ message_key: `newrx:${prescriptionId}` }]),
    );
  });

  it('a paid refill period is one refill at the pharmacy; cancelling the plan sends one CancelRx', async () => {
    const c = await insertCustomer(t.app);
    const { prescriptionId } = await approvedVisit(t, c);
    await drainPharmacy(t);
    const plan = await t.app.db
      .selectFrom('subscriptions')
      .select(['id', 'next_billing_date'])
      .where('prescription_id', '=', prescriptionId)
      .executeTakeFirstOrThrow();
    t.clock.set(new Date(`${plan.next_billing_date}T12:00:00.000Z`));
    await t.app.ctx.jobs.drain('billing');
    const refillOrder = await t.app.db
      .selectFrom('orders')
      .select(['id', 'order_number', 'payment_status'])
      .where('subscription_id', '=', plan.id)
      .executeTakeFirstOrThrow();
    expect(refillOrder.payment_status).toBe('paid');
    expect(await messagesOf(t, refillOrder.id)).toMatchObject([
      { message_key: `refill:${refillOrder.id}`, kind: 'Refill' },
    ]);
    await drainPharmacy(t);
    expect(await stepsOf(t, c, refillOrder.order_number)).toEqual(['sent', 'received']);

    const cancelled = await callAs(
      t.app,
      subscriptionsApi.subscriptionUpdate,
      {
        leads_id: c.leadsId,
        subscription_id: plan.id,
        change: { action: 'cancel', reason: 'Other' },
      },
      c,
    );
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    await drainPharmacy(t);
    const cancels = await t.app.db
      .selectFrom('pharmacy_messages')
      .select(['message_key', 'status', 'payload'])
      .where('kind', '=', 'CancelRx')
      .where('prescription_id', '=', prescriptionId)
      .execute();
    expect(cancels).toHaveLength(1);
    expect(cancels[0]).toMatchObject({ message_key: `cancelrx:${prescriptionId}`, status: 'sent' });
    expect(JSON.parse(cancels[0]!.payload)).toMatchObject({
      type: 'CancelRx',
      new_rx_message_id: `newrx:${prescriptionId}`,
    });
    // The refill paid before the cancel still ships: it was paid for.
    t.clock.advance(3 * 600 * 1000);
    await drainPharmacy(t);
    const refill = await orderOf(t, c, refillOrder.order_number);
    expect(refill.pharmacy?.steps.map((s) => s.step)).toEqual([
      'sent',
      'received',
      'filled',
      'shipped',
      'delivered',
    ]);
    expect(refill.order_status).toBe('DELIVERED');
  });
});

describe(`a partner pharmacy over HTTP (${testDialect})`, () => {
  let t: TestApp;
  let pharmacy: FakePharmacy;
  beforeAll(async () => {
    pharmacy = await startFakePharmacy();
    const env = {
      SEED_DEMO: 'true',
      PHARMACY_URL: pharmacy.url,
      PHARMACY_API_KEY: pharmacy.apiKey,
      PHARMACY_WEBHOOK_SECRET: SECRET,
    };
    t = await buildTestApp({
      env,
      pharmacy: createPartnerPharmacy({
        url: pharmacy.url,
        apiKey: pharmacy.apiKey,
        fetch: realFetch,
      }),
    });
  });
  afterAll(async () => {
    await t.close();
    await pharmacy.close();
  });

  const event = (
    messageId: string,
    type: PharmacyEvent['type'],
    extra: Partial<PharmacyEvent> = {},
  ) => ({
    id: `evt_${messageId}_${type}_${extra.id ?? ''}`,
    message_id: messageId,
    type,
    occurred_at: t.clock.now().toISOString(),
    ...extra,
  });

  it('a NewRx whose answer was lost is sent again under the same key once its claim lapses: one prescription at the pharmacy', async () => {
    const c = await insertCustomer(t.app);
    const { orderId, prescriptionId, orderNumber } = await approvedVisit(t, c);
    const key = `newrx:${prescriptionId}`;
    pharmacy.dropNextAnswer();
    await drainPharmacy(t);
    expect(pharmacy.deliveries.get(key)).toBe(1);
    expect(await messagesOf(t, orderId)).toMatchObject([
      { status: 'pending', attempts: 1, last_error: 'The pharmacy could not be reached.' },
    ]);
    // Retried later; meanwhile nothing is sent twice at once.
    t.clock.advance(5 * 60 * 1000);
    await drainPharmacy(t);
    expect(pharmacy.deliveries.get(key)).toBe(2);
    expect(pharmacy.messages.has(key)).toBe(true);
    expect([...pharmacy.messages.keys()].filter((k) => k === key)).toHaveLength(1);
    expect(await messagesOf(t, orderId)).toMatchObject([{ status: 'sent', attempts: 2 }]);
    expect(await stepsOf(t, c, orderNumber)).toEqual(['sent']);
    expect(pharmacy.requests.at(-1)).toEqual({
      authorization: `Bearer ${pharmacy.apiKey}`,
      idempotencyKey: key,
    });
  });

  it('a message sent by one sender is not sent by another while its claim holds (a crash mid-send is finished once)', async () => {
    const c = await insertCustomer(t.app);
    const { orderId, prescriptionId } = await approvedVisit(t, c);
    const key = `newrx:${prescriptionId}`;
    // A sender claimed it and died (SIGKILL) before it could send or record anything.
    await t.app.db
      .updateTable('pharmacy_messages')
      .set({ claimed_until: new Date(t.clock.now().getTime() + 60_000).toISOString() })
      .where('message_key', '=', key)
      .execute();
    await drainPharmacy(t);
    expect(pharmacy.deliveries.get(key)).toBeUndefined();
    t.clock.advance(61_000);
    await drainPharmacy(t);
    await drainPharmacy(t);
    expect(pharmacy.deliveries.get(key)).toBe(1);
    expect(await messagesOf(t, orderId)).toMatchObject([{ status: 'sent', attempts: 1 }]);
  });

  it('refuses a callback that is unsigned, signed with another secret, altered or stale, and changes nothing', async () => {
    const c = await insertCustomer(t.app);
    const { prescriptionId, orderNumber } = await approvedVisit(t, c);
    await drainPharmacy(t);
    const shipped = event(`newrx:${prescriptionId}`, 'shipped', { tracking_number: '9400111' });
    const body = JSON.stringify(shipped);
    const refusals = [
      await sendCallback(t.app, shipped, { secret: SECRET, signature: '' }),
      await sendCallback(t.app, shipped, { secret: 'whsec_someone_else_0123456789abcd' }),
      await sendCallback(t.app, shipped, {
        secret: SECRET,
        signature: signPharmacyCallback(SECRET, body, Math.floor(t.clock.now().getTime() / 1000)),
        body: body.replace('9400111', '9400999'),
      }),
      await sendCallback(t.app, shipped, {
        secret: SECRET,
        at: new Date(t.clock.now().getTime() - 10 * 60 * 1000),
      }),
    ];
    for (const refused of refusals) {
      expect(refused.statusCode, refused.body).toBe(401);
      expect(refused.json()).toEqual({
        received: false,
        error: 'The signature does not match this callback.',
      });
    }
    expect(await stepsOf(t, c, orderNumber)).toEqual(['sent']);
    expect(
      await t.app.db
        .selectFrom('pharmacy_events')
        .select('event_id')
        .where('event_id', '=', shipped.id)
        .execute(),
    ).toEqual([]);

    const unknown = await sendCallback(t.app, event('newrx:999999', 'received'), {
      secret: SECRET,
    });
    expect(unknown.statusCode).toBe(404);
    const malformed = await sendCallback(
      t.app,
      { ...shipped, type: 'teleported' },
      { secret: SECRET },
    );
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({
      received: false,
      error: expect.stringMatching(/type/),
    });
  });

  it('callbacks repeated and out of order end at the right state: Delivered, with its tracking number, told once each', async () => {
    const c = await insertCustomer(t.app);
    const { prescriptionId, orderNumber } = await approvedVisit(t, c);
    await drainPharmacy(t);
    const id = `newrx:${prescriptionId}`;
    const delivered = event(id, 'delivered');
    const filled = event(id, 'filled');
    const shipped = event(id, 'shipped', { tracking_number: '9400100000000000000042' });
    const received = event(id, 'received');
    for (const callback of [delivered, filled, delivered, shipped, received, shipped, filled]) {
      const answer = await sendCallback(t.app, callback, { secret: SECRET });
      expect(answer.statusCode, answer.body).toBe(200);
    }
    // A second delivery of the same step under a new id changes nothing either.
    await sendCallback(t.app, { ...delivered, id: 'evt_other_delivered' }, { secret: SECRET });
    const order = await orderOf(t, c, orderNumber);
    expect(order.order_status).toBe('DELIVERED');
    expect(order.tracking_number).toBe('9400100000000000000042');
    expect(order.pharmacy?.steps.map((s) => s.step)).toEqual([
      'sent',
      'received',
      'filled',
      'shipped',
      'delivered',
    ]);
    const mail = (await sentMessages(t)).filter((m) => m.to === c.email);
    expect(mail.filter((m) => m.subject.includes(`order ${orderNumber} has shipped`))).toHaveLength(
      1,
    );
    expect(
      mail.filter((m) => m.subject.includes(`order ${orderNumber} has been delivered`)),
    ).toHaveLength(1);
  });

  it('a rejection is kept with its reason, told to the patient once in their visit conversation, flagged for operations, and a provider’s task until one writes to the patient', async () => {
    const c = await insertCustomer(t.app, { first_name: 'Robin', last_name: 'Hale' });
    const { prescriptionId, orderNumber, visitId } = await approvedVisit(t, c);
    await drainPharmacy(t);
    const rejected = event(`newrx:${prescriptionId}`, 'rejected', {
      reason: 'The prescriber’s licence could not be verified.',
    });
    for (const callback of [rejected, rejected, { ...rejected, id: 'evt_again_rejected' }])
      expect((await sendCallback(t.app, callback, { secret: SECRET })).statusCode).toBe(200);
    const order = await orderOf(t, c, orderNumber);
    expect(order.pharmacy).toMatchObject({
      rejected_reason: 'The prescriber’s licence could not be verified.',
    });
    const told = await t.app.db
      .selectFrom('messages')
      .innerJoin('message_threads', 'message_threads.id', 'messages.thread_id')
      .select(['messages.body', 'messages.sender'])
      .where('message_threads.visit_id', '=', visitId)
      .where('messages.body', 'like', '%pharmacy could not fill%')
      .execute();
    expect(told).toHaveLength(1);
    expect(told[0]?.sender).toBe('care_team');
    const ops = await staffCookie(t, operations);
    const queue = dataOf(pharmacyApi.queue, await callAs(t.app, pharmacyApi.queue, undefined, ops));
    expect(queue.orders.find((o) => o.order_number === orderNumber)).toMatchObject({
      step: 'rejected',
      stuck: true,
      rejected_reason: 'The prescriber’s licence could not be verified.',
    });

    // A provider's task, in the review queue and on the chart, until one writes to the patient.
    const doctor = await staffCookie(t, provider);
    const tasks = async () =>
      dataOf(
        reviewsApi.queue,
        await callAs(t.app, reviewsApi.queue, {}, await staffCookie(t, provider)),
      ).pharmacy_rejections.filter((task) => task.order_number === orderNumber);
    expect(await tasks()).toEqual([
      {
        visit_id: visitId,
        order_number: orderNumber,
        patient: 'Robin H.',
        state: 'OR',
        category: 'ed',
        reason: 'The prescriber’s licence could not be verified.',
        rejected_at: rejected.occurred_at,
      },
    ]);
    const chartOf = async () =>
      dataOf(
        reviewsApi.chart,
        await callAs(
          t.app,
          reviewsApi.chart,
          { visit_id: visitId },
          await staffCookie(t, provider),
        ),
      ).chart;
    expect((await chartOf()).pharmacy_rejections).toEqual([
      {
        order_number: orderNumber,
        reason: 'The prescriber’s licence could not be verified.',
        rejected_at: rejected.occurred_at,
      },
    ]);
    const reply = await callAs(
      t.app,
      reviewsApi.sendMessage,
      { visit_id: visitId, body: 'I have sent your prescription again with my licence details.' },
      doctor,
    );
    expect(reply.statusCode, reply.body).toBe(200);
    expect(await tasks()).toEqual([]);
    expect((await chartOf()).pharmacy_rejections).toEqual([]);
    const closed = await t.app.db
      .selectFrom('pharmacy_messages')
      .select(['rejected_at', 'rejection_closed_by'])
      .where('message_key', '=', `newrx:${prescriptionId}`)
      .executeTakeFirstOrThrow();
    const providerId = await t.app.db
      .selectFrom('staff_users')
      .select('id')
      .where('email', '=', provider.email)
      .executeTakeFirstOrThrow();
    expect(closed).toEqual({
      rejected_at: rejected.occurred_at,
      rejection_closed_by: providerId.id,
    });
  });

  it('operations see a fill stuck a day at one step, and a message the pharmacy refused, with its error code only', async () => {
    const c = await insertCustomer(t.app);
    const { orderNumber } = await approvedVisit(t, c);
    await drainPharmacy(t);
    const other = await insertCustomer(t.app);
    const refused = await approvedVisit(t, other);
    pharmacy.refuseNext(422, 'invalid_npi');
    await drainPharmacy(t);
    expect(await messagesOf(t, refused.orderId)).toMatchObject([
      { status: 'failed', last_error: 'HTTP 422: invalid_npi' },
    ]);
    let ops = await staffCookie(t, operations);
    const queueOf = async () =>
      dataOf(pharmacyApi.queue, await callAs(t.app, pharmacyApi.queue, undefined, ops)).orders;
    expect((await queueOf()).find((o) => o.order_number === orderNumber)).toMatchObject({
      step: 'sent',
      stuck: false,
    });
    expect((await queueOf()).find((o) => o.order_number === refused.orderNumber)).toMatchObject({
      step: null,
      stuck: true,
      message_status: 'failed',
      last_error: 'HTTP 422: invalid_npi',
    });
    t.clock.advance(25 * 3600 * 1000);
    ops = await staffCookie(t, operations);
    const later = await queueOf();
    expect(later.find((o) => o.order_number === orderNumber)).toMatchObject({ stuck: true });
    // Providers do not see operations' queue.
    const providerAnswer = await callAs(
      t.app,
      pharmacyApi.queue,
      undefined,
      await staffCookie(t, provider),
    );
    expect(providerAnswer.statusCode).toBe(403);
  });
});
