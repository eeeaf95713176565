import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStaff } from '#server/db/seed-demo.ts';
import { receiptsApi } from '#shared/receipts.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs, dataOf } from '#test/contract.ts';
import { asPatient, insertCustomer, staffCookie, type TestCustomer } from '#test/factories.ts';
import { approveWithPrescription, submittedEdVisit } from '#test/visits.ts';

const provider = demoStaff.find((s) => s.role === 'provider')!;

const receiptOf = (t: TestApp, c: TestCustomer, orderNumber: string) =>
  asPatient(t, c, () => callAs(t.app, receiptsApi.careReceipt, { order_number: orderNumber }, c));

describe(`receipts a patient can claim (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      env: { SEED_DEMO: 'true', PHARMACY_NAME: 'Cascade Compounding Pharmacy' },
    });
  });
  afterAll(() => t.close());

  it("a visit's and a refill's order: once charged, itemised with the prescriber's NPI and the pharmacy", async () => {
    const c = await insertCustomer(t.app);
    const { visitId, orderNumber } = await submittedEdVisit(t.app, c, 'OR');

    // Held, not charged: no receipt yet.
    expect((await receiptOf(t, c, orderNumber)).statusCode).toBe(404);

    const cookie = await staffCookie(t, provider);
    const approved = await approveWithPrescription(t.app, cookie, visitId, {
      refills: 2,
      validDays: 300,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const order = await t.app.db
      .selectFrom('orders')
      .select(['total_cents', 'created_at'])
      .where('order_number', '=', orderNumber)
      .executeTakeFirstOrThrow();
    const today = t.clock.now().toISOString().slice(0, 10);
    const names = await t.app.db
      .selectFrom('customers')
      .select(['first_name', 'last_name'])
      .where('id', '=', c.customerId)
      .executeTakeFirstOrThrow();
    const visit = await receiptOf(t, c, orderNumber);
    expect(visit.statusCode, visit.body).toBe(200);
    expect(dataOf(receiptsApi.careReceipt, visit).receipt).toEqual({
      order_number: orderNumber,
      kind: 'visit',
      patient: `${names.first_name} ${names.last_name}`,
      date_of_service: today,
      program: 'Erectile dysfunction treatment',
      medicine: 'Sildenafil (generic Viagra®) 50 mg',
      quantity: 6,
      amount_cents: order.total_cents,
      refunded_cents: 0,
      prescriber: {
        name: provider.name,
        npi: provider.npi,
        licence: expect.stringMatching(/^OR-MD-\d+ \(Oregon\)$/),
      },
      pharmacy: 'Cascade Compounding Pharmacy',
    });

    // A refill: the plan's charge on its date, under the same prescription.
    const plan = await t.app.db
      .selectFrom('subscriptions')
      .select(['id', 'next_billing_date', 'unit_price_cents'])
      .where('customer_id', '=', c.customerId)
      .executeTakeFirstOrThrow();
    t.clock.set(new Date(`${plan.next_billing_date}T12:00:00.000Z`));
    await t.app.ctx.jobs.drain('billing');
    const refillOrder = await t.app.db
      .selectFrom('orders')
      .select('order_number')
      .where('subscription_id', '=', plan.id)
      .executeTakeFirstOrThrow();
    const refill = await receiptOf(t, c, refillOrder.order_number);
    expect(refill.statusCode, refill.body).toBe(200);
    expect(dataOf(receiptsApi.careReceipt, refill).receipt).toMatchObject({
      kind: 'refill',
      date_of_service: plan.next_billing_date,
      medicine: 'Sildenafil (generic Viagra®) 50 mg',
      quantity: 6,
      amount_cents: plan.unit_price_cents,
      prescriber: { npi: provider.npi },
    });

    // Nobody else's, and no order that is not one.
    const stranger = await insertCustomer(t.app);
    expect((await receiptOf(t, stranger, orderNumber)).statusCode).toBe(404);
    expect((await receiptOf(t, c, 'PW-000000')).statusCode).toBe(404);
    const blank = await receiptOf(t, c, '   ');
    expect(blank.statusCode).toBe(400);
  });
});
