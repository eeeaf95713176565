import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStaff } from '#server/db/seed-demo.ts';
import { RECONCILE_JOB } from '#server/features/payments/payments.jobs.ts';
import { ledgerForOrder, type LedgerRow } from '#server/features/payments/payments.service.ts';
import { accountsApi } from '#shared/accounts.ts';
import { authApi } from '#shared/auth.ts';
import { reviewsApi } from '#shared/reviews.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import { insertCustomer, sessionCookie, staffCookie, type TestCustomer } from '#test/factories.ts';
import { sentMessages } from '#test/outbox.ts';
import { submittedEdVisit } from '#test/visits.ts';
import { startFakeStripe, stripeEnv, type FakeStripe } from '#test/stripe/fake-stripe.ts';

/**
 * Issue 28: a visit's card hold outlives a slow review. Card networks drop a hold after about 7
 * days, so the reconciler renews it on day 6 with the card on file and releases the old one; a
 * provider approving on day 8 takes the live hold. A hold that lapsed anyway is released and the
 * card on file charged instead; a card that refuses tells the provider why and asks the patient,
 * once, to update it. The same on the simulator and on Stripe (the fake, its clock moved along).
 */
const provider = demoStaff.find((s) => s.role === 'provider')!;
const DAY = 24 * 60 * 60 * 1000;
const prescription = {
  drug: 'sildenafil',
  dosage: '50mg',
  quantity: 6,
  refills: 0,
  valid_until: '2027-11-21',
  directions: 'Take one tablet about an hour before, no more than once a day.',
};

/** The ledger of an order as `operation purpose status` lines, oldest first. */
const story = (calls: LedgerRow[]) =>
  calls.map((call) => `${call.operation} ${call.purpose} ${call.status}`);

for (const gateway of ['simulator', 'stripe'] as const) {
  describe(`a visit's hold kept alive until its provider decides (${gateway}, ${testDialect})`, () => {
    let t: TestApp;
    let fake: FakeStripe | null = null;

    beforeAll(async () => {
      fake = gateway === 'stripe' ? await startFakeStripe() : null;
      t = await buildTestApp({
        env: {
          SEED_DEMO: 'true',
          ...(fake ? stripeEnv(fake) : {}),
        },
      });
    });
    afterAll(async () => {
      await t.close();
      await fake?.close();
    });

    /** Our clock and the processor's move together. */
    async function advance(ms: number): Promise<void> {
      t.clock.advance(ms);
      await fake?.advanceClock(ms / 1000);
    }

    /** The customer's session, or a new one when days have passed since they last came. */
    async function sessionOf(customer: TestCustomer): Promise<string> {
      const me = await callAs(t.app, accountsApi.basics, {}, customer.cookie);
      if (me.statusCode === 200) return customer.cookie;
      const login = await callAs(t.app, authApi.login, {
        email: customer.email,
        password: customer.password,
      });
      return sessionCookie(login);
    }

    /** A card saved on the account as this gateway takes one. */
    async function saveCard(customer: TestCustomer, card: 'good' | 'refusing'): Promise<void> {
      const cookie = await sessionOf(customer);
      const saved =
        gateway === 'stripe'
          ? await callAs(
              t.app,
              accountsApi.paymentMethodUpdate,
              {
                payment_method: card === 'good' ? 'pm_card_visa' : 'pm_card_chargeCustomerFail',
                consent: true,
              },
              cookie,
            )
          : await callAs(
              t.app,
              accountsApi.ccUpdate,
              {
                ccnum: card === 'good' ? '4242424242424242' : '4000000000000341',
                ccexp: '12/30',
                cccvv: '123',
                consent: true,
              },
              cookie,
            );
      expect(saved.statusCode, saved.body).toBe(200);
    }

    async function submitted(): Promise<{
      customer: TestCustomer;
      visitId: number;
      orderId: number;
    }> {
      const customer = await insertCustomer(t.app);
      await saveCard(customer, 'good');
      const { visitId } = await submittedEdVisit(t.app, customer, 'OR', { savedCard: true });
      const order = await t.app.db
        .selectFrom('orders')
        .select('id')
        .where('customer_id', '=', customer.customerId)
        .executeTakeFirstOrThrow();
      return { customer, visitId, orderId: order.id };
    }

    async function approve(visitId: number) {
      return callAs(
        t.app,
        reviewsApi.approve,
        { visit_id: visitId, prescription },
        await staffCookie(t, provider),
      );
    }

    const orderOf = (orderId: number) =>
      t.app.db
        .selectFrom('orders')
        .select(['payment_status', 'charge_id', 'status'])
        .where('id', '=', orderId)
        .executeTakeFirstOrThrow();

    it('renews the hold on day 6 and takes the renewed hold at an approval on day 8', async () => {
      const { visitId, orderId } = await submitted();
      const first = (await orderOf(orderId)).charge_id;

      // Day 5: too young to renew.
      await advance(5 * DAY);
      await t.app.ctx.jobs.drain(RECONCILE_JOB);
      expect((await orderOf(orderId)).charge_id).toBe(first);

      // Day 6 and a bit: renewed once, however often the reconciler runs; the old hold released.
      await advance(DAY + 60 * 60 * 1000);
      await t.app.ctx.jobs.drain(RECONCILE_JOB);
      await t.app.ctx.jobs.drain(RECONCILE_JOB);
      const renewed = (await orderOf(orderId)).charge_id;
      expect(renewed).not.toBe(first);
      expect(story(await ledgerForOrder(t.app.ctx, orderId))).toEqual([
        'authorize visit succeeded',
        'authorize hold_renewal succeeded',
        'release release_orphan succeeded',
      ]);
      expect((await t.app.ctx.payments.find({ id: first ?? '' }))?.status).toBe('released');

      // Day 8: the first hold would have lapsed; the renewed one is taken.
      await advance(DAY + 20 * 60 * 60 * 1000);
      const approved = await approve(visitId);
      expect(approved.statusCode, approved.body).toBe(200);
      expect(await orderOf(orderId)).toMatchObject({
        payment_status: 'paid',
        charge_id: renewed,
        status: 'PROCESSING',
      });
      expect(story(await ledgerForOrder(t.app.ctx, orderId))).toEqual([
        'authorize visit succeeded',
        'authorize hold_renewal succeeded',
        'release release_orphan succeeded',
        'capture approval succeeded',
      ]);
      const audit = await t.app.db
        .selectFrom('audit_log')
        .select('action')
        .where('subject_type', '=', 'visit')
        .where('subject_id', '=', String(visitId))
        .execute();
      expect(audit.map((entry) => entry.action)).toContain('approve');
    });

    it('charges the card on file when the hold lapsed before anyone renewed it', async () => {
      const { visitId, orderId } = await submitted();
      const lapsed = (await orderOf(orderId)).charge_id;
      // No reconciler run in between: the hold is simply too old at the approval.
      await advance(8 * DAY);
      const approved = await approve(visitId);
      expect(approved.statusCode, approved.body).toBe(200);
      const order = await orderOf(orderId);
      expect(order.payment_status).toBe('paid');
      expect(order.charge_id).not.toBe(lapsed);
      expect(story(await ledgerForOrder(t.app.ctx, orderId))).toEqual([
        'authorize visit succeeded',
        'capture approval failed',
        'release release_orphan succeeded',
        'charge approval_charge succeeded',
      ]);
    });

    it('a card that refuses the renewal and the charge: the patient is asked once, the provider told, and a new card completes it', async () => {
      const { customer, visitId, orderId } = await submitted();
      await saveCard(customer, 'refusing');
      await advance(6 * DAY + 60 * 60 * 1000);
      await t.app.ctx.jobs.drain(RECONCILE_JOB);
      await advance(60 * 60 * 1000);
      await t.app.ctx.jobs.drain(RECONCILE_JOB);
      const asked = (await sentMessages(t)).filter(
        (message) =>
          message.to === customer.email &&
          message.subject === 'Please update your card for your online visit',
      );
      expect(asked).toHaveLength(1);
      expect(asked[0]?.text).not.toMatch(/sildenafil|erectile|\bED\b|hair|sleep/i);

      await advance(2 * DAY);
      const refused = await approve(visitId);
      expect(refused.statusCode).toBe(402);
      expect(refused.json<{ code: string; message: string }>()).toMatchObject({
        code: 'CAPTURE_FAILED',
        message: expect.stringContaining('They have been asked to update their card') as string,
      });
      expect((await orderOf(orderId)).payment_status).toBe('authorized');
      const told = (await sentMessages(t)).filter(
        (message) =>
          message.to === customer.email &&
          message.subject === 'Please update your card to complete your online visit',
      );
      expect(told).toHaveLength(1);

      await saveCard(customer, 'good');
      const approved = await approve(visitId);
      expect(approved.statusCode, approved.body).toBe(200);
      expect((await orderOf(orderId)).payment_status).toBe('paid');
      const charges = (await ledgerForOrder(t.app.ctx, orderId)).filter(
        (call) => call.purpose === 'approval_charge',
      );
      expect(charges.map((call) => call.status)).toEqual(['failed', 'succeeded']);
    });
  });
}
