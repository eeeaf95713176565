import { describe, expect, it } from 'vitest';
import { latestRenewalQuestionnaire } from '#shared/questionnaires/registry.ts';
import { renewalsApi } from '#shared/renewals.ts';
import { visitsApi } from '#shared/visits.ts';
import { testDialect } from '#test/app.ts';
import { callAs, dataOf } from '#test/contract.ts';
import {
  buildPlaceOrder,
  insertCustomer,
  insertSubscriber,
  type TestCustomer,
} from '#test/factories.ts';
import { serverTestTimeout } from '#test/spawn-server.ts';
import {
  approveWithPrescription,
  completeQuestions,
  edVisitAtCheckout,
  submittedEdVisit,
  visitCheckoutBody,
} from '#test/visits.ts';
import { approvalPrescription, checkoutCases, useFaultHarness } from './fault-harness.ts';

/**
 * Must show 1 of issue #11: the real server, built and run as a child process, is killed with SIGKILL at each
 * step of place-order, visit authorisation, approval capture, refund and renewal (FAULT_KILL_AT,
 * honoured only with NODE_ENV=test), and at a few moments of a timing sweep; a server started again
 * without the hook reconciles, and what the gateway did (the simulator's tables) must then agree
 * with what operations and the customer see: no charge without a paid order (or a refund of it), no
 * double charge, no over-refund, and the customer can go on. Everything runs on one database (the
 * suite's SQLite file or PostgreSQL schema); each flow's crashes run side by side, then one server
 * recovers them all.
 */

describe(`payments survive a crash at any step (${testDialect})`, () => {
  const harness = useFaultHarness({
    bundleName: 'pairwell-fault-server',
    staff: { domain: 'faults.test', name: 'Fault Tester', password: 'fault-suite staff password' },
  });
  const { db, stop, call, expectBoundedRuns, crashEach, crashRenewal } = harness;

  /** Every charge or hold the gateway made with the customer's card, with what it refunded. */
  async function gatewayRecordsOf(customerId: number) {
    const card = await db()
      .selectFrom('payment_methods')
      .select('gateway_token')
      .where('customer_id', '=', customerId)
      .executeTakeFirst();
    // A server killed before the card was saved charged nothing.
    if (!card) return [];
    const rows = await db()
      .selectFrom('simulator_charges')
      .select(['id', 'status', 'amount_cents', 'idempotency_key'])
      .where('token', '=', card.gateway_token)
      .execute();
    const records = [];
    for (const row of rows) {
      const refunds = await db()
        .selectFrom('simulator_refunds')
        .select('amount_cents')
        .where('charge_id', '=', row.id)
        .execute();
      records.push({ ...row, refunded: refunds.reduce((sum, r) => sum + r.amount_cents, 0) });
    }
    return records;
  }

  async function customerWithCart(): Promise<TestCustomer> {
    return harness.withSleepInCart(await insertCustomer(harness.t.app));
  }

  it(
    'place-order: killed before and after the charge and each commit, and at moments of a timing sweep',
    { timeout: serverTestTimeout },
    async () => {
      const cases = checkoutCases();
      const customers = await Promise.all(cases.map(() => customerWithCart()));
      await Promise.all(
        cases.map((c, i) =>
          harness.crash(c.how, (server) =>
            call(server, '/lapi/v2/ecom/place-order', buildPlaceOrder(), customers[i]!.cookie),
          ),
        ),
      );

      const server = await harness.recoverCheckouts(customers);
      try {
        for (const [i, c] of customers.entries()) {
          const label = cases[i]!.label;
          const records = await gatewayRecordsOf(c.customerId);
          const kept = records.filter((r) => r.status === 'succeeded' && r.refunded === 0);
          // No double charge: at most one charge stands, and any other was refunded in full.
          expect(kept.length, label).toBeLessThanOrEqual(1);
          for (const r of records.filter((r) => r.status === 'succeeded' && r.refunded > 0))
            expect(r.refunded, label).toBe(r.amount_cents);
          // No charge without a paid order that operations can see, and its confirmation queued.
          const orders = await harness.ordersOf(c.customerId);
          expect(
            orders.filter((o) => o.payment_status === 'pending'),
            label,
          ).toEqual([]);
          for (const charge of kept) {
            const order = orders.find((o) => o.charge_id === charge.id);
            expect(order?.payment_status, label).toBe('paid');
            const seen = await harness.seenByOps(server, c.email);
            expect(JSON.stringify(seen.body), label).toContain(order!.order_number);
            const confirmations = await harness.confirmationsOf(c.email, order!.order_number);
            expect(confirmations, label).toHaveLength(1);
          }
          if (label === 'checkout:after-charge' || label === 'checkout:after-commit')
            expect(kept, `${label}: the charge became the order`).toHaveLength(1);
          if (label === 'checkout:after-pending' || label === 'checkout:before-charge')
            expect(records, `${label}: nothing was charged`).toEqual([]);

          // The customer can order again, with a new key.
          const added = await harness.addSleep(server, c);
          expect(added.status, label).toBe(200);
          const again = await call(
            server,
            '/lapi/v2/ecom/place-order',
            buildPlaceOrder(),
            c.cookie,
          );
          expect(again.status, `${label}: ${JSON.stringify(again.body)}`).toBe(200);
        }
        await expectBoundedRuns();
      } finally {
        await stop(server);
      }
    },
  );

  it(
    'visit authorisation: killed before and after the hold and after its commit',
    { timeout: serverTestTimeout },
    async () => {
      const points = ['visit:before-authorize', 'visit:after-authorize', 'visit:after-commit'];
      const patients = await Promise.all(points.map(() => insertCustomer(harness.t.app)));
      const visits: number[] = [];
      for (const p of patients) visits.push(await edVisitAtCheckout(harness.t.app, p));
      await crashEach(points, (server, i) =>
        call(server, '/lapi/visit/checkout/', visitCheckoutBody(visits[i]!), patients[i]!.cookie),
      );

      const server = await harness.recoverLedger();
      try {
        for (const [i, p] of patients.entries()) {
          const label = points[i]!;
          const holds = (await gatewayRecordsOf(p.customerId)).filter(
            (r) => r.status === 'authorized',
          );
          const visit = await harness.visitOf(visits[i]!);
          // No hold without the submitted visit it is for.
          expect(holds.length, label).toBeLessThanOrEqual(1);
          for (const hold of holds) {
            const order = await harness.orderHolding(hold.id);
            expect(order, label).toMatchObject({
              status: 'PENDING_REVIEW',
              payment_status: 'authorized',
            });
            expect(visit, label).toEqual({ status: 'PENDING_REVIEW', order_id: order?.id });
          }
          if (label === 'visit:before-authorize') {
            expect(holds, label).toEqual([]);
            expect(visit.status, label).toBe('IN_PROGRESS');
          } else {
            expect(holds, label).toHaveLength(1);
          }
          // The patient can always submit (again): one hold, one visit waiting for review.
          const again = await call(
            server,
            '/lapi/visit/checkout/',
            visitCheckoutBody(visits[i]!),
            p.cookie,
          );
          expect(again.status, `${label}: ${JSON.stringify(again.body)}`).toBe(200);
          expect(
            (await gatewayRecordsOf(p.customerId)).filter((r) => r.status === 'authorized'),
            label,
          ).toHaveLength(1);
        }
        await expectBoundedRuns();
      } finally {
        await stop(server);
      }
    },
  );

  it(
    'pharmacy: killed after the pharmacy took the NewRx and before it was marked sent, the NewRx is sent again as the same message: one prescription at the pharmacy',
    { timeout: serverTestTimeout },
    async () => {
      const patient = await insertCustomer(harness.t.app);
      const { visitId } = await submittedEdVisit(harness.t.app, patient);
      // The approval commits with its NewRx; the pharmacy job it wakes sends it, and the process
      // dies the moment the pharmacy has it.
      await harness.crash(
        {
          point: 'pharmacy:after-send',
          // Its claim on the message lasts a second, as the recovering server's grace does.
          env: { PHARMACY_INTERVAL_SECONDS: '1', RECONCILE_GRACE_SECONDS: '1' },
        },
        async (server) => {
          await harness.approve(server, visitId, approvalPrescription()).catch(() => undefined);
          await server.ended;
          throw new Error('the server died');
        },
      );
      const [prescription] = await harness.prescriptionsOf(visitId);
      const key = `newrx:${prescription?.id}`;
      const atPharmacy = () =>
        db()
          .selectFrom('simulator_pharmacy')
          .select('message_key')
          .where('message_key', '=', key)
          .execute();
      const message = () =>
        db()
          .selectFrom('pharmacy_messages')
          .select(['status', 'attempts', 'order_id'])
          .where('message_key', '=', key)
          .executeTakeFirstOrThrow();
      // The pharmacy has it; we never heard so.
      expect(await atPharmacy()).toHaveLength(1);
      expect(await message()).toMatchObject({ status: 'pending', attempts: 0 });

      const server = await harness.recover(async () => (await message()).status === 'sent');
      try {
        const sent = await message();
        expect(sent.attempts).toBe(1);
        expect(await atPharmacy()).toHaveLength(1);
        const steps = await db()
          .selectFrom('order_pharmacy_steps')
          .select('step')
          .where('order_id', '=', sent.order_id ?? 0)
          .where('step', '=', 'sent')
          .execute();
        expect(steps).toHaveLength(1);
      } finally {
        await stop(server);
      }
    },
  );

  it(
    'renewal approval: killed after its commit, before its e-mail and CancelRx went out; the restarted server sends each once, and a second approval is refused',
    { timeout: serverTestTimeout },
    async () => {
      const app = harness.t.app;
      const patient = await insertCustomer(app);
      const { visitId } = await submittedEdVisit(app, patient);
      // One refill: the prescription is due for renewal at once.
      const first = await approveWithPrescription(app, harness.providerCookie, visitId, {
        refills: 1,
        validDays: 180,
      });
      expect(first.statusCode, first.body).toBe(200);
      const [renewed] = await harness.prescriptionsOf(visitId);
      const opened = dataOf(
        renewalsApi.startRenewal,
        await callAs(app, renewalsApi.startRenewal, { category: 'ed' }, patient),
      );
      await completeQuestions(app, patient, opened.visit_id, 'ed', {
        questionnaire: latestRenewalQuestionnaire('ed'),
      });
      await callAs(app, visitsApi.reviewAnswers, { visit_id: opened.visit_id }, patient);
      const sent = await callAs(
        app,
        renewalsApi.sendRenewal,
        { visit_id: opened.visit_id, confirm: true },
        patient,
      );
      expect(sent.statusCode, sent.body).toBe(200);

      // The approval commits (decision, prescription, the plan moved, the e-mail and the CancelRx
      // in their outboxes) and the process dies before it wakes either sender.
      await harness.crash(
        {
          point: 'renewal-approval:after-commit',
          env: { OUTBOX_INTERVAL_SECONDS: '0', PHARMACY_INTERVAL_SECONDS: '0' },
        },
        (server) => harness.approve(server, opened.visit_id, approvalPrescription()),
      );
      const written = await harness.prescriptionsOf(opened.visit_id);
      expect(written).toHaveLength(1);
      const plan = () =>
        db()
          .selectFrom('subscriptions')
          .select(['prescription_id', 'refills_remaining'])
          .where('customer_id', '=', patient.customerId)
          .execute();
      expect(await plan()).toEqual([{ prescription_id: written[0]!.id, refills_remaining: 3 }]);
      const approvalMail = () =>
        db()
          .selectFrom('outbox_messages')
          .select('status')
          .where('recipient', '=', patient.email)
          .where('subject', '=', 'Your provider has replied')
          .execute();
      const cancelRx = () =>
        db()
          .selectFrom('pharmacy_messages')
          .select('status')
          .where('prescription_id', '=', renewed!.id)
          .where('kind', '=', 'CancelRx')
          .execute();
      expect(await approvalMail()).toEqual([{ status: 'pending' }]);
      expect(await cancelRx()).toEqual([{ status: 'pending' }]);

      // Started again, its senders find both and send each once.
      const server = await harness.recover(
        async () =>
          (await approvalMail()).every((m) => m.status === 'sent') &&
          (await cancelRx()).every((m) => m.status === 'sent'),
      );
      try {
        expect(await approvalMail()).toEqual([{ status: 'sent' }]);
        expect(await cancelRx()).toEqual([{ status: 'sent' }]);
        const atPharmacy = await db()
          .selectFrom('simulator_pharmacy')
          .select('message_key')
          .where('message_key', '=', `cancelrx:${renewed!.id}`)
          .execute();
        expect(atPharmacy).toHaveLength(1);
        // Approving again finds it decided: no second prescription, the plan as it was.
        const again = await harness.approve(server, opened.visit_id, approvalPrescription());
        expect(again.status).toBe(409);
        expect(again.body).toMatchObject({ code: 'VISIT_DECIDED' });
        expect(await harness.prescriptionsOf(opened.visit_id)).toHaveLength(1);
        expect(await plan()).toEqual([{ prescription_id: written[0]!.id, refills_remaining: 3 }]);
      } finally {
        await stop(server);
      }
    },
  );

  it(
    'approval: killed before and after the capture and after its commit',
    { timeout: serverTestTimeout },
    async () => {
      const points = ['approval:before-capture', 'approval:after-capture', 'approval:after-commit'];
      const patients = await Promise.all(points.map(() => insertCustomer(harness.t.app)));
      const visits: number[] = [];
      for (const p of patients) visits.push((await submittedEdVisit(harness.t.app, p)).visitId);
      const prescription = approvalPrescription();
      await crashEach(points, (server, i) => harness.approve(server, visits[i]!, prescription));

      const server = await harness.recoverLedger();
      try {
        for (const [i, p] of patients.entries()) {
          const label = points[i]!;
          const records = await gatewayRecordsOf(p.customerId);
          const captured = records.filter((r) => r.status === 'succeeded' && r.refunded === 0);
          const visit = await harness.visitOf(visits[i]!);
          const order = await harness.visitOrder(visit.order_id ?? 0);
          const prescriptions = await harness.prescriptionsOf(visits[i]!);
          // The approval the provider asked for is finished: captured once, approved, prescribed.
          expect(captured, label).toHaveLength(1);
          expect(order, label).toEqual({
            status: 'PROCESSING',
            payment_status: 'paid',
            charge_id: captured[0]?.id,
          });
          expect(visit.status, label).toBe('APPROVED');
          expect(prescriptions, label).toHaveLength(1);
        }
        await expectBoundedRuns();
      } finally {
        await stop(server);
      }
    },
  );

  it(
    'refund: killed before and after the gateway refund and after its commit',
    { timeout: serverTestTimeout },
    async () => {
      const points = ['refund:before-refund', 'refund:after-refund', 'refund:after-commit'];
      const buyers = await Promise.all(points.map(() => customerWithCart()));
      const orderIds = await harness.placeOrders(buyers, () => buildPlaceOrder());
      await crashEach(points, (server, i) => harness.refund(server, orderIds[i]!, 1000));

      const server = await harness.recoverLedger();
      try {
        for (const [i, b] of buyers.entries()) {
          const label = points[i]!;
          const accounts = async () => {
            const [charge] = await gatewayRecordsOf(b.customerId);
            return { gateway: charge?.refunded, ...(await harness.refundBooks(orderIds[i]!)) };
          };
          // The refund asked for happened once, and everyone agrees on it.
          expect(await accounts(), label).toEqual({
            gateway: 1000,
            order: 1000,
            reserved: 0,
            ledger: 1000,
            audit: 1,
          });
          // The rest can be refunded, and nothing more.
          const rest = await harness.refund(server, orderIds[i]!, 1499);
          expect(rest.status, label).toBe(200);
          const more = await harness.refund(server, orderIds[i]!, 1);
          expect(more.status, label).toBe(409);
          expect(await accounts(), label).toEqual({
            gateway: 2499,
            order: 2499,
            reserved: 0,
            ledger: 2499,
            audit: 2,
          });
        }
        await expectBoundedRuns();
      } finally {
        await stop(server);
      }
    },
  );

  it(
    'renewal: killed before and after the charge and after its commit',
    { timeout: serverTestTimeout },
    async () => {
      const points = ['renewal:before-charge', 'renewal:after-charge', 'renewal:after-commit'];
      const now = new Date();
      const today = now.toISOString().slice(0, 10);
      const subscribers: { customerId: number; subscriptionId: number }[] = [];
      // One at a time: each server's billing run takes the renewal that is due and dies in it; the
      // renewals interrupted before are not stale yet, so it leaves them alone.
      for (const point of points) {
        subscribers.push(
          await insertSubscriber(db(), { nextBillingDate: today, now: now.toISOString() }),
        );
        await crashRenewal(point);
      }

      const server = await harness.recoverRenewals(subscribers.map((s) => s.subscriptionId));
      try {
        for (const [i, s] of subscribers.entries()) {
          const label = points[i]!;
          const records = await gatewayRecordsOf(s.customerId);
          expect(
            records.filter((r) => r.status === 'succeeded' && r.refunded === 0),
            label,
          ).toHaveLength(1);
          const orders = await harness.renewalOrders(s.subscriptionId);
          expect(orders, label).toEqual([{ payment_status: 'paid', charge_id: records[0]?.id }]);
          expect((await harness.nextBillingDate(s.subscriptionId)) > today, label).toBe(true);
        }
        await expectBoundedRuns();
      } finally {
        await stop(server);
      }
    },
  );
});
