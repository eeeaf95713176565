import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStaff } from '#server/db/seed-demo.ts';
import { ordersApi, type Lander, type Order } from '#shared/orders.ts';
import { accountsApi, type PatientData } from '#shared/accounts.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { insertCustomer, staffCookie, type TestCustomer } from '#test/factories.ts';
import { submittedEdVisit } from '#test/visits.ts';
import { reviewsApi } from '#shared/reviews.ts';
import { operationsApi } from '#shared/operations.ts';
import { messagesApi } from '#shared/messages.ts';
import type { BodyOf } from '#shared/contract.ts';
import { callAs } from '#test/contract.ts';

const provider = demoStaff.find((s) => s.role === 'provider')!;
const ops = demoStaff.find((s) => s.role === 'operations')!;
const directions = 'Take one tablet about an hour before sex. No more than one a day.';

/**
 * A visit's order as its patient reads it on Orders and Home: the clinical state in words (under
 * review → approved or declined → shipped → delivered) and, once approved, the prescription with its
 * directions; only ever on the patient's own orders.
 */
describe(`a visit's order: clinical state and prescription (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
  });
  afterAll(() => t.close());

  /** A day `days` after the test clock's today, `YYYY-MM-DD`. */
  const dayAfter = (days: number) =>
    new Date(t.clock.now().getTime() + days * 86_400_000).toISOString().slice(0, 10);

  async function orderOf(c: TestCustomer, orderNumber: string): Promise<Order | undefined> {
    const response = await callAs(
      t.app,
      ordersApi.ordersDetails,
      { leads_id: c.leadsId },
      c.cookie,
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ message: Lander }>().message.order_history[orderNumber];
  }

  async function homeOrderOf(c: TestCustomer, orderNumber: string): Promise<Order | undefined> {
    const response = await callAs(
      t.app,
      accountsApi.patientData,
      { leads_id: c.leadsId },
      c.cookie,
    );
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json<{ data?: PatientData; message?: PatientData }>();
    return (data.data ?? data.message)?.lander.order_history[orderNumber];
  }

  async function orderId(orderNumber: string): Promise<number> {
    const row = await t.app.db
      .selectFrom('orders')
      .select('id')
      .where('order_number', '=', orderNumber)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  type Prescription = BodyOf<typeof reviewsApi.approve>['prescription'];
  const approve = async (visitId: number, prescription: Partial<Prescription>) =>
    callAs(
      t.app,
      reviewsApi.approve,
      {
        visit_id: visitId,
        prescription: {
          drug: 'sildenafil',
          dosage: '50mg',
          quantity: 6,
          refills: 2,
          valid_until: dayAfter(200),
          directions,
          ...prescription,
        },
      },
      await staffCookie(t, provider),
    );

  it('is under review while waiting, approved with the prescription in words after, then shipped and delivered', async () => {
    const patient = await insertCustomer(t.app);
    const visit = await submittedEdVisit(t.app, patient);

    const waiting = await orderOf(patient, visit.orderNumber);
    expect(waiting).toMatchObject({
      order_status: 'PENDING_REVIEW',
      visit: { state: 'UNDER_REVIEW', prescription: null },
    });

    const validUntil = dayAfter(200);
    const approved = await approve(visit.visitId, { valid_until: validUntil });
    expect(approved.statusCode, approved.body).toBe(200);

    const order = await orderOf(patient, visit.orderNumber);
    // The spec's status stays; the clinical state and prescription come beside it.
    expect(order?.order_status).toBe('PROCESSING');
    expect(order?.visit).toEqual({
      state: 'APPROVED',
      prescription: {
        drug: 'Sildenafil (generic Viagra®)',
        dose: '50 mg',
        quantity: 6,
        refills_left: 2,
        valid_until: validUntil,
        directions,
      },
    });
    // Home reads the same order from the patient data.
    expect((await homeOrderOf(patient, visit.orderNumber))?.visit).toEqual(order?.visit);

    const cookie = await staffCookie(t, ops);
    const id = await orderId(visit.orderNumber);
    const shipped = await callAs(
      t.app,
      operationsApi.ship,
      { order_id: id, tracking_number: '9400111899223197428111' },
      cookie,
    );
    expect(shipped.statusCode, shipped.body).toBe(200);
    expect(await orderOf(patient, visit.orderNumber)).toMatchObject({
      order_status: 'SHIPPED',
      tracking_number: '9400111899223197428111',
      visit: { state: 'SHIPPED', prescription: { directions } },
    });

    const delivered = await callAs(t.app, operationsApi.deliver, { order_id: id }, cookie);
    expect(delivered.statusCode, delivered.body).toBe(200);
    expect(await orderOf(patient, visit.orderNumber)).toMatchObject({
      order_status: 'DELIVERED',
      visit: { state: 'DELIVERED', prescription: { refills_left: 2 } },
    });

    // A cancelled refill plan leaves no refills to come.
    await t.app.db
      .updateTable('subscriptions')
      .set({ status: 'CANCELLED' })
      .where('customer_id', '=', patient.customerId)
      .execute();
    expect((await orderOf(patient, visit.orderNumber))?.visit?.prescription?.refills_left).toBe(0);
  });

  it('a decline says "Declined" with no prescription, and the reason waits in Messages', async () => {
    const patient = await insertCustomer(t.app);
    const visit = await submittedEdVisit(t.app, patient);
    const reason = 'Your blood pressure reading needs an in-person check before we can prescribe.';
    const declined = await callAs(
      t.app,
      reviewsApi.decline,
      { visit_id: visit.visitId, reason },
      await staffCookie(t, provider),
    );
    expect(declined.statusCode, declined.body).toBe(200);
    expect(await orderOf(patient, visit.orderNumber)).toMatchObject({
      order_status: 'DECLINED',
      decline_reason: reason,
      visit: { state: 'DECLINED', prescription: null },
    });
    const threads = await callAs(
      t.app,
      messagesApi.getAll,
      { leads_id: patient.leadsId },
      patient.cookie,
    );
    expect(threads.statusCode, threads.body).toBe(200);
    expect(threads.body).toContain(reason);
  });

  it('a prescription written before directions were asked for shows none', async () => {
    const patient = await insertCustomer(t.app);
    const visit = await submittedEdVisit(t.app, patient);
    expect((await approve(visit.visitId, { refills: 0 })).statusCode).toBe(200);
    await t.app.db
      .updateTable('prescriptions')
      .set({ directions: null })
      .where('customer_id', '=', patient.customerId)
      .execute();
    expect((await orderOf(patient, visit.orderNumber))?.visit?.prescription).toMatchObject({
      refills_left: 0,
      directions: null,
    });
  });

  it('the approval needs directions, in a sentence or two', async () => {
    const patient = await insertCustomer(t.app);
    const visit = await submittedEdVisit(t.app, patient);
    const missing = await approve(visit.visitId, { directions: undefined });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      code: 'VALIDATION',
      fields: { 'prescription.directions': 'Enter the directions for the patient' },
    });
    const blank = await approve(visit.visitId, { directions: '   ' });
    expect(blank.json()).toMatchObject({
      fields: { 'prescription.directions': 'Enter the directions for the patient' },
    });
    const long = await approve(visit.visitId, { directions: 'x'.repeat(301) });
    expect(long.json()).toMatchObject({
      fields: {
        'prescription.directions':
          'Keep the directions to 300 characters or fewer (a sentence or two)',
      },
    });
    expect((await orderOf(patient, visit.orderNumber))?.visit?.state).toBe('UNDER_REVIEW');
  });

  it('only the patient sees their visit and prescription: another customer sees neither', async () => {
    const patient = await insertCustomer(t.app);
    const visit = await submittedEdVisit(t.app, patient);
    expect((await approve(visit.visitId, {})).statusCode).toBe(200);

    const other = await insertCustomer(t.app);
    const theirs = await callAs(
      t.app,
      ordersApi.ordersDetails,
      { leads_id: other.leadsId },
      other.cookie,
    );
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json<{ message: Lander }>().message.order_history).toEqual({});
    expect(theirs.body).not.toContain(directions);

    // Naming the patient's leads id with another session is refused, and tells nothing.
    const named = await callAs(
      t.app,
      ordersApi.ordersDetails,
      { leads_id: patient.leadsId },
      other.cookie,
    );
    expect(named.statusCode).toBe(403);
    expect(named.body).not.toContain(directions);
    expect(named.body).not.toContain(visit.orderNumber);
    const home = await callAs(
      t.app,
      accountsApi.patientData,
      { leads_id: patient.leadsId },
      other.cookie,
    );
    expect(home.statusCode).toBe(403);
    expect(home.body).not.toContain(directions);

    // A prescription row pointing at a visit of someone else's is never shown with the order.
    await t.app.db
      .updateTable('prescriptions')
      .set({ customer_id: other.customerId })
      .where('customer_id', '=', patient.customerId)
      .execute();
    expect((await orderOf(patient, visit.orderNumber))?.visit).toEqual({
      state: 'APPROVED',
      prescription: null,
    });
    const visitor = await callAs(t.app, ordersApi.ordersDetails, { leads_id: patient.leadsId });
    expect(visitor.statusCode).toBe(401);
  });
});
