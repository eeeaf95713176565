import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStaff } from '#server/db/seed-demo.ts';
import {
  operationsApi,
  type StaffOrderDetail,
  type StaffOrderSummary,
} from '#shared/operations.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { insertCustomer, staffCookie } from '#test/factories.ts';
import { submittedEdVisit } from '#test/visits.ts';
import { dashboardApi } from '#shared/dashboard.ts';
import { outboxApi } from '#shared/outbox.ts';
import { reviewsApi } from '#shared/reviews.ts';
import { callAs } from '#test/contract.ts';

const provider = demoStaff.find((s) => s.role === 'provider')!;
const ops = demoStaff.find((s) => s.role === 'operations')!;

/** What the patient asked for in `submittedEdVisit`: sildenafil (generic Viagra®) 50 mg. */
const requested = /sildenafil|viagra|50 ?mg/i;

/**
 * Minimum necessary (issue 26): until a provider approves an online visit, operations staff see
 * its order as the program it is for, never the treatment or dose the patient asked for.
 */
describe(`operations and the orders of visits not approved (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
  });
  afterAll(() => t.close());

  async function orderIdOf(orderNumber: string): Promise<number> {
    const row = await t.app.db
      .selectFrom('orders')
      .select('id')
      .where('order_number', '=', orderNumber)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Every operations answer that shows the order, each checked to answer 200 or a refusal. */
  async function operationsAnswers(orderId: number, orderNumber: string, email: string) {
    const cookie = await staffCookie(t, ops);
    const answers = [
      await callAs(t.app, operationsApi.orders, {}, cookie),
      await callAs(t.app, operationsApi.orders, { query: orderNumber }, cookie),
      await callAs(t.app, operationsApi.orders, { query: email }, cookie),
      await callAs(t.app, operationsApi.order, { order_id: orderId }, cookie),
      await callAs(t.app, dashboardApi.summary, {}, cookie),
      await callAs(t.app, operationsApi.inbox, {}, cookie),
      await callAs(t.app, outboxApi.problems, undefined, cookie),
      // Refused for an order under review or declined: the refusal names the order only.
      await callAs(
        t.app,
        operationsApi.ship,
        { order_id: orderId, tracking_number: '9400111899223197428111' },
        cookie,
      ),
      await callAs(t.app, operationsApi.deliver, { order_id: orderId }, cookie),
      await callAs(
        t.app,
        operationsApi.refund,
        { order_id: orderId, amount_cents: 100, reason: 'Goodwill' },
        cookie,
      ),
    ];
    for (const answer of answers) expect([200, 409], answer.body).toContain(answer.statusCode);
    const listed = answers[0]!.json<{ data: { orders: StaffOrderSummary[] } }>().data.orders;
    expect(listed.map((o) => o.order_number)).toContain(orderNumber);
    return answers;
  }

  async function detailOf(orderId: number): Promise<StaffOrderDetail> {
    const cookie = await staffCookie(t, ops);
    const response = await callAs(t.app, operationsApi.order, { order_id: orderId }, cookie);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: { order: StaffOrderDetail } }>().data.order;
  }

  it('an order under review reads "Online visit (ED)" in every answer, with no medicine in any', async () => {
    const patient = await insertCustomer(t.app);
    const visit = await submittedEdVisit(t.app, patient);
    const orderId = await orderIdOf(visit.orderNumber);

    for (const answer of await operationsAnswers(orderId, visit.orderNumber, patient.email))
      expect(answer.body).not.toMatch(requested);
    const order = await detailOf(orderId);
    expect(order).toMatchObject({ order_status: 'PENDING_REVIEW', kind: 'visit' });
    expect(order.items.map((i) => i.product_name)).toEqual(['Online visit (ED)']);

    // The provider deciding the visit still reads what was asked for.
    const queue = await callAs(t.app, reviewsApi.queue, {}, await staffCookie(t, provider));
    expect(queue.statusCode, queue.body).toBe(200);
    expect(queue.body).toMatch(/sildenafil/i);
  });

  it('a declined order reads "Online visit (ED)" in every answer, with no medicine in any', async () => {
    const patient = await insertCustomer(t.app);
    const visit = await submittedEdVisit(t.app, patient);
    const declined = await callAs(
      t.app,
      reviewsApi.decline,
      {
        visit_id: visit.visitId,
        reason: 'Your blood pressure reading needs an in-person check first.',
      },
      await staffCookie(t, provider),
    );
    expect(declined.statusCode, declined.body).toBe(200);
    const orderId = await orderIdOf(visit.orderNumber);

    for (const answer of await operationsAnswers(orderId, visit.orderNumber, patient.email))
      expect(answer.body).not.toMatch(requested);
    const cookie = await staffCookie(t, ops);
    const byStatus = await callAs(t.app, operationsApi.orders, { status: 'DECLINED' }, cookie);
    expect(byStatus.body).toContain(visit.orderNumber);
    expect(byStatus.body).not.toMatch(requested);
    const order = await detailOf(orderId);
    expect(order.order_status).toBe('DECLINED');
    expect(order.items.map((i) => i.product_name)).toEqual(['Online visit (ED)']);
  });

  it('once approved, the order shows the prescription line to fulfil', async () => {
    const patient = await insertCustomer(t.app);
    const visit = await submittedEdVisit(t.app, patient);
    const orderId = await orderIdOf(visit.orderNumber);
    expect((await detailOf(orderId)).items[0]?.product_name).toBe('Online visit (ED)');

    const validUntil = new Date(t.clock.now().getTime() + 200 * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const approved = await callAs(
      t.app,
      reviewsApi.approve,
      {
        visit_id: visit.visitId,
        prescription: {
          drug: 'sildenafil',
          dosage: '50mg',
          quantity: 6,
          refills: 2,
          valid_until: validUntil,
          directions: 'Take one tablet about an hour before sex. No more than one a day.',
        },
      },
      await staffCookie(t, provider),
    );
    expect(approved.statusCode, approved.body).toBe(200);

    const order = await detailOf(orderId);
    expect(order.order_status).toBe('PROCESSING');
    expect(order.items).toEqual([
      {
        product_name: 'Sildenafil (generic Viagra®) 50 mg',
        category: 'ed',
        quantity: 1,
        unit_price_cents: 3000,
      },
    ]);
  });
  it('refuses to cancel a visit waiting for its provider, so the hold is never left on the card', async () => {
    const patient = await insertCustomer(t.app);
    const visit = await submittedEdVisit(t.app, patient);
    const orderId = await orderIdOf(visit.orderNumber);
    const cookie = await staffCookie(t, ops);
    const cancel = await callAs(t.app, operationsApi.cancel, { order_id: orderId }, cookie);
    expect(cancel.statusCode, cancel.body).toBe(409);
    expect(cancel.json()).toMatchObject({
      code: 'ORDER_STATE',
      message: `Order ${visit.orderNumber} is waiting for a provider's decision; declining it releases the hold on the card.`,
    });
    const order = await t.app.db
      .selectFrom('orders')
      .select(['status', 'payment_status'])
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    expect(order).toEqual({ status: 'PENDING_REVIEW', payment_status: 'authorized' });
  });
});
