import crypto from 'node:crypto';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { stripeCustomerOf } from '#server/adapters/stripe.ts';
import { accountsApi } from '#shared/accounts.ts';
import { testDialect } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import {
  buildPlaceOrder,
  insertCustomer,
  insertSubscriber,
  type TestCustomer,
} from '#test/factories.ts';
import { serverTestTimeout } from '#test/spawn-server.ts';
import { startFakeStripe, type FakeStripe } from '#test/stripe/fake-stripe.ts';
import { edVisitAtCheckout, submittedEdVisit, visitCheckoutBody } from '#test/visits.ts';
import { approvalPrescription, checkoutCases, useFaultHarness } from './fault-harness.ts';

/**
 * Must show 2 of issue 28: the fault suite (payments.faults.test.ts) in Stripe mode. The real
 * server, built and run as a child process with the STRIPE_* keys pointing at a fake Stripe in this
 * process, is killed with SIGKILL at each money step of place-order (and at a few moments of a
 * timing sweep), a visit's hold, an approval's capture, a refund by operations and a renewal
 * (FAULT_KILL_AT, honoured only with NODE_ENV=test). A server started again without the hook
 * reconciles by asking Stripe what each interrupted call did, by its idempotency key. Then Stripe's
 * side, read from the fake with the official SDK, must agree with ours: every PaymentIntent was
 * written in our ledger before it was made and that call is finished; every one that holds or took
 * money belongs to exactly one order that says so (or was refunded in full, or cancelled); no order
 * is charged twice; no refund goes past its payment; and the customer can go on. Webhooks are only
 * recorded, never delivered: recovery here rests on the reconciler alone. Everything runs on one
 * database (the suite's SQLite file or PostgreSQL schema); each flow's crashes run side by side,
 * then one server recovers them all.
 */

/** Whether a PaymentIntent in this state holds or took the customer's money. */
const movedMoney = (status: Stripe.PaymentIntent.Status) =>
  status === 'succeeded' || status === 'requires_capture' || status === 'processing';

/** A PaymentIntent as Stripe has it, with its refunds. */
interface StripePayment {
  id: string;
  status: Stripe.PaymentIntent.Status;
  amount: number;
  /** The ledger key it was made with (`metadata.idempotency_key`). */
  key: string | undefined;
  refunds: { id: string; amount: number; key: string | undefined }[];
  refunded: number;
}

describe(`payments through Stripe survive a crash at any step (${testDialect})`, () => {
  let fake: FakeStripe;
  let stripe: Stripe;
  const harness = useFaultHarness({
    bundleName: 'pairwell-stripe-fault-server',
    staff: {
      domain: 'stripe-faults.test',
      name: 'Stripe Fault Tester',
      password: 'stripe fault-suite staff password',
    },
    // The app and every child server in Stripe mode, against a fake Stripe in this process.
    start: async () => {
      fake = await startFakeStripe();
      // What Stripe did, asked the way an operator's script would: the official SDK.
      stripe = new Stripe(fake.secretKey, {
        host: fake.host,
        port: fake.port,
        protocol: 'http',
        telemetry: false,
      });
      return {
        STRIPE_SECRET_KEY: fake.secretKey,
        STRIPE_PUBLISHABLE_KEY: fake.publishableKey,
        STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
        STRIPE_API_BASE: fake.url,
      };
    },
    stop: () => fake.close(),
  });
  const { db, stop, call, expectBoundedRuns, crashEach, crashRenewal } = harness;

  /** A customer with a Stripe card on file, saved through the account page's call. */
  async function customerWithCard(): Promise<TestCustomer> {
    const c = await insertCustomer(harness.t.app);
    const saved = await callAs(
      harness.t.app,
      accountsApi.paymentMethodUpdate,
      { payment_method: 'pm_card_visa', consent: true },
      c.cookie,
    );
    expect(saved.statusCode, saved.body).toBe(200);
    return c;
  }

  async function customerWithCart(): Promise<TestCustomer> {
    return harness.withSleepInCart(await customerWithCard());
  }

  /** A store checkout paid with the card on file. */
  const placeOrderBody = () => buildPlaceOrder({ payment: { method: 'saved' } });
  const visitBody = (visitId: number) => ({
    ...visitCheckoutBody(visitId),
    payment: { method: 'saved' },
  });

  /** Every PaymentIntent Stripe made for the customer's Stripe customer, with its refunds. */
  async function stripePaymentsOf(customerId: number): Promise<StripePayment[]> {
    const card = await db()
      .selectFrom('payment_methods')
      .select('gateway_token')
      .where('customer_id', '=', customerId)
      .executeTakeFirstOrThrow();
    const customer = stripeCustomerOf(card.gateway_token);
    expect(customer).toMatch(/^cus_/);
    const payments: StripePayment[] = [];
    for await (const intent of stripe.paymentIntents.list({ customer: customer!, limit: 100 })) {
      const refunds = [];
      for await (const refund of stripe.refunds.list({ payment_intent: intent.id, limit: 100 }))
        if (refund.status !== 'failed' && refund.status !== 'canceled')
          refunds.push({
            id: refund.id,
            amount: refund.amount,
            key: refund.metadata?.idempotency_key,
          });
      payments.push({
        id: intent.id,
        status: intent.status,
        amount: intent.amount,
        key: intent.metadata.idempotency_key,
        refunds,
        refunded: refunds.reduce((sum, r) => sum + r.amount, 0),
      });
    }
    return payments;
  }

  /** The PaymentIntents Stripe finds by a ledger key, as the reconciler asks for them. */
  async function stripeIntentsWithKey(key: string): Promise<Stripe.PaymentIntent[]> {
    const found = await stripe.paymentIntents.search({
      query: `metadata['idempotency_key']:'${key}'`,
      limit: 100,
    });
    return found.data;
  }

  /**
   * Stripe and our tables agree for this customer: each PaymentIntent was written in the ledger
   * before it was made and that call is finished; each one that holds or took money (less any
   * refund in full) belongs to exactly one order, which names it and has its amount; no order
   * has two; no refund goes past its payment, and each was written in the ledger. Answers what
   * Stripe has, for the flow's own checks.
   */
  async function expectStripeAgrees(customerId: number, label: string): Promise<StripePayment[]> {
    const payments = await stripePaymentsOf(customerId);
    const orders = await db()
      .selectFrom('orders')
      .select(['id', 'payment_status', 'charge_id', 'total_cents'])
      .where('customer_id', '=', customerId)
      .execute();
    const standingByOrder = new Map<number, string[]>();
    for (const payment of payments) {
      const what = `${label}: ${payment.id} (${payment.status}, key ${payment.key})`;
      expect(payment.refunded, `${what} refunded no more than it took`).toBeLessThanOrEqual(
        payment.amount,
      );
      expect(payment.key, what).toBeDefined();
      const ledger = await db()
        .selectFrom('payment_ledger')
        .select(['status', 'order_id', 'gateway_ref'])
        .where('idempotency_key', '=', payment.key!)
        .executeTakeFirst();
      expect(ledger, `${what} is in the ledger`).toBeDefined();
      expect(ledger?.status, `${what}: its call is finished`).not.toBe('started');
      for (const refund of payment.refunds) {
        const refundCall = await db()
          .selectFrom('payment_ledger')
          .select(['status', 'amount_cents'])
          .where('idempotency_key', '=', refund.key ?? '')
          .executeTakeFirst();
        expect(refundCall, `${what}: refund ${refund.id} is in the ledger`).toEqual({
          status: 'succeeded',
          amount_cents: refund.amount,
        });
      }
      if (!movedMoney(payment.status) || payment.refunded === payment.amount) continue;
      // Money stands: exactly one order took it, and says so.
      const owners = orders.filter((o) => o.charge_id === payment.id);
      expect(owners, `${what} belongs to one order`).toHaveLength(1);
      const owner = owners[0]!;
      expect(owner.total_cents, what).toBe(payment.amount);
      expect(ledger?.order_id, what).toBe(owner.id);
      expect(owner.payment_status, what).toBe(
        payment.status === 'requires_capture'
          ? 'authorized'
          : payment.refunded > 0
            ? 'partially_refunded'
            : 'paid',
      );
      standingByOrder.set(owner.id, [...(standingByOrder.get(owner.id) ?? []), payment.id]);
    }
    for (const [orderId, standing] of standingByOrder)
      expect(standing, `${label}: order ${orderId} is charged once`).toHaveLength(1);
    // The other way round: every order that says it holds or took money has it in Stripe.
    for (const order of orders.filter((o) =>
      ['paid', 'authorized', 'partially_refunded'].includes(o.payment_status),
    )) {
      const payment = payments.find((p) => p.id === order.charge_id);
      expect(payment && movedMoney(payment.status), `${label}: order ${order.id}`).toBe(true);
    }
    return payments;
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
            call(server, '/lapi/v2/ecom/place-order', placeOrderBody(), customers[i]!.cookie),
          ),
        ),
      );

      const server = await harness.recoverCheckouts(customers);
      try {
        for (const [i, c] of customers.entries()) {
          const label = cases[i]!.label;
          const payments = await expectStripeAgrees(c.customerId, label);
          // A checkout charges at once: nothing is left held.
          expect(
            payments.filter((p) => p.status === 'requires_capture'),
            label,
          ).toEqual([]);
          const kept = payments.filter((p) => p.status === 'succeeded' && p.refunded === 0);
          expect(kept.length, label).toBeLessThanOrEqual(1);
          const orders = await harness.ordersOf(c.customerId);
          expect(
            orders.filter((o) => o.payment_status === 'pending'),
            label,
          ).toEqual([]);
          for (const payment of kept) {
            const order = orders.find((o) => o.charge_id === payment.id)!;
            // Asked by the order's key, Stripe names this payment and no other that stands.
            expect(payment.key, label).toBe(`order:${order.id}`);
            const byKey = await stripeIntentsWithKey(`order:${order.id}`);
            expect(
              byKey.filter((p) => p.status === 'succeeded').map((p) => p.id),
              label,
            ).toEqual([payment.id]);
            // Operations see the order, and its confirmation was queued once.
            const seen = await harness.seenByOps(server, c.email);
            expect(JSON.stringify(seen.body), label).toContain(order.order_number);
            const confirmations = await harness.confirmationsOf(c.email, order.order_number);
            expect(confirmations, label).toHaveLength(1);
          }
          if (label === 'checkout:after-charge' || label === 'checkout:after-commit')
            expect(kept, `${label}: the charge became the order`).toHaveLength(1);
          if (label === 'checkout:after-pending' || label === 'checkout:before-charge')
            expect(payments, `${label}: nothing was charged`).toEqual([]);

          // The customer can order again with the same card, with a new key.
          const added = await harness.addSleep(server, c);
          expect(added.status, label).toBe(200);
          const again = await call(server, '/lapi/v2/ecom/place-order', placeOrderBody(), c.cookie);
          expect(again.status, `${label}: ${JSON.stringify(again.body)}`).toBe(200);
          await expectStripeAgrees(c.customerId, `${label}, ordered again`);
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
      const patients = await Promise.all(points.map(() => customerWithCard()));
      const visits: number[] = [];
      for (const p of patients) visits.push(await edVisitAtCheckout(harness.t.app, p));
      await crashEach(points, (server, i) =>
        call(server, '/lapi/visit/checkout/', visitBody(visits[i]!), patients[i]!.cookie),
      );

      const server = await harness.recoverLedger();
      try {
        for (const [i, p] of patients.entries()) {
          const label = points[i]!;
          const payments = await expectStripeAgrees(p.customerId, label);
          // A hold is never captured before a provider approves.
          expect(
            payments.filter((r) => r.status === 'succeeded'),
            label,
          ).toEqual([]);
          const holds = payments.filter((r) => r.status === 'requires_capture');
          const visit = await harness.visitOf(visits[i]!);
          expect(holds.length, label).toBeLessThanOrEqual(1);
          for (const hold of holds) {
            const order = await harness.orderHolding(hold.id);
            expect(order, label).toMatchObject({
              status: 'PENDING_REVIEW',
              payment_status: 'authorized',
            });
            expect(visit, label).toEqual({ status: 'PENDING_REVIEW', order_id: order?.id });
            const byKey = await stripeIntentsWithKey(hold.key!);
            expect(
              byKey.filter((r) => r.status === 'requires_capture').map((r) => r.id),
              label,
            ).toEqual([hold.id]);
          }
          if (label === 'visit:before-authorize') {
            expect(payments, label).toEqual([]);
            expect(visit.status, label).toBe('IN_PROGRESS');
          } else {
            expect(holds, label).toHaveLength(1);
          }
          // The patient can always submit (again): one hold, one visit waiting for review.
          const again = await call(
            server,
            '/lapi/visit/checkout/',
            visitBody(visits[i]!),
            p.cookie,
          );
          expect(again.status, `${label}: ${JSON.stringify(again.body)}`).toBe(200);
          const after = await expectStripeAgrees(p.customerId, `${label}, submitted again`);
          expect(
            after.filter((r) => r.status === 'requires_capture'),
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
    'approval: killed before and after the capture and after its commit',
    { timeout: serverTestTimeout },
    async () => {
      const points = ['approval:before-capture', 'approval:after-capture', 'approval:after-commit'];
      const patients = await Promise.all(points.map(() => customerWithCard()));
      const visits: number[] = [];
      for (const p of patients)
        visits.push((await submittedEdVisit(harness.t.app, p, 'OR', { savedCard: true })).visitId);
      const prescription = approvalPrescription();
      await crashEach(points, (server, i) => harness.approve(server, visits[i]!, prescription));

      const server = await harness.recoverLedger();
      try {
        for (const [i, p] of patients.entries()) {
          const label = points[i]!;
          const payments = await expectStripeAgrees(p.customerId, label);
          const captured = payments.filter((r) => r.status === 'succeeded' && r.refunded === 0);
          expect(
            payments.filter((r) => r.status === 'requires_capture'),
            label,
          ).toEqual([]);
          const visit = await harness.visitOf(visits[i]!);
          const order = await harness.visitOrder(visit.order_id ?? 0);
          const prescriptions = await harness.prescriptionsOf(visits[i]!);
          // The approval the provider asked for is finished: the hold captured once, approved,
          // prescribed.
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
    'refund: killed before and after the Stripe refund and after its commit',
    { timeout: serverTestTimeout },
    async () => {
      const points = ['refund:before-refund', 'refund:after-refund', 'refund:after-commit'];
      const buyers = await Promise.all(points.map(() => customerWithCart()));
      const orderIds = await harness.placeOrders(buyers, placeOrderBody);
      await crashEach(points, (server, i) => harness.refund(server, orderIds[i]!, 1000));

      const server = await harness.recoverLedger();
      try {
        for (const [i, b] of buyers.entries()) {
          const label = points[i]!;
          const accounts = async (step: string) => {
            const payments = await expectStripeAgrees(b.customerId, `${label}, ${step}`);
            expect(payments, label).toHaveLength(1);
            return {
              // Stripe lists the newest first; smallest first here.
              stripe: payments[0]?.refunds.map((r) => r.amount).sort((a, b) => a - b),
              ...(await harness.refundBooks(orderIds[i]!)),
            };
          };
          // The refund asked for happened once in Stripe, and everyone agrees on it.
          expect(await accounts('recovered'), label).toEqual({
            stripe: [1000],
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
          expect(await accounts('refunded in full'), label).toEqual({
            stripe: [1000, 1499],
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
        // A card saved for off-session use on a Stripe customer of its own, as the card update does.
        const customer = await stripe.customers.create({ email: `${crypto.randomUUID()}@x.test` });
        const card = await stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id });
        subscribers.push(
          await insertSubscriber(db(), {
            nextBillingDate: today,
            now: now.toISOString(),
            token: `${customer.id}:${card.id}`,
          }),
        );
        await crashRenewal(point);
      }

      const server = await harness.recoverRenewals(subscribers.map((s) => s.subscriptionId));
      try {
        for (const [i, s] of subscribers.entries()) {
          const label = points[i]!;
          const payments = await expectStripeAgrees(s.customerId, label);
          const kept = payments.filter((p) => p.status === 'succeeded' && p.refunded === 0);
          expect(kept, label).toHaveLength(1);
          const orders = await harness.renewalOrders(s.subscriptionId);
          expect(orders, label).toEqual([{ payment_status: 'paid', charge_id: kept[0]?.id }]);
          const byKey = await stripeIntentsWithKey(kept[0]!.key!);
          expect(
            byKey.filter((p) => p.status === 'succeeded').map((p) => p.id),
            label,
          ).toEqual([kept[0]!.id]);
          expect((await harness.nextBillingDate(s.subscriptionId)) > today, label).toBe(true);
        }
        await expectBoundedRuns();
      } finally {
        await stop(server);
      }
    },
  );
});
