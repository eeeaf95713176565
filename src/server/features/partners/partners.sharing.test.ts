import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStaff } from '#server/db/seed-demo.ts';
import { accountsApi, type AccountData } from '#shared/accounts.ts';
import { messagesApi } from '#shared/messages.ts';
import { operationsApi } from '#shared/operations.ts';
import { partnersApi, type PartnerShared } from '#shared/partners.ts';
import { reviewsApi } from '#shared/reviews.ts';
import { buildSecondInstance, buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs, dataAs } from '#test/contract.ts';
import { insertCustomer, staffCookie, type TestCustomer } from '#test/factories.ts';
import { sentMessages } from '#test/outbox.ts';
import { submittedEdVisit } from '#test/visits.ts';
import {
  link,
  orderHistory,
  orderSleep,
  partnerMailTo,
  partnerPage,
  saveAddresses,
  setSharing,
  share,
  subscriptionsOf,
} from './partners.test-helpers.ts';

const provider = demoStaff.find((s) => s.role === 'provider')!;

/**
 * Issue 16 (decision 016): each partner chooses, item by item, what the other sees (the shipping
 * address, store orders, supplement subscriptions), and nothing before they do; nothing clinical is
 * ever shared, by any setting. Either may unlink, quietly or not, and sharing ends at once.
 */
describe(`partners: sharing, item by item, until an unlink (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
  });
  afterAll(() => t.close());

  /** What the customer's partner shares with them, read on `app` (another instance, say). */
  const shared = (c: TestCustomer, app: FastifyInstance = t.app): Promise<PartnerShared> =>
    dataAs(app, partnersApi.shared, {}, c);

  const nothing: PartnerShared = {
    partner: null,
    address: null,
    orders: null,
    subscriptions: null,
  };

  describe('sharing, item by item', () => {
    let owner: TestCustomer;
    let partner: TestCustomer;
    let storeOrders: string[];
    let storeOrderId: number;
    let visitOrder: string;
    let visitId: number;
    let uploadKey: string;

    beforeAll(async () => {
      owner = await insertCustomer(t.app, {
        first_name: 'Pat',
        last_name: 'Sharer',
        phoneNo: '(503) 555-0188',
        dob: '07/21/1988',
      });
      partner = await insertCustomer(t.app, { first_name: 'Quin' });

      // A supplement bought quarterly (a store order and a supplement subscription)…
      const placed = await orderSleep(t, owner);
      expect(placed.statusCode, placed.body).toBe(200);
      // …an online visit, approved (a prescription and its refill plan), with its photo ID…
      const visit = await submittedEdVisit(t.app, owner);
      visitOrder = visit.orderNumber;
      visitId = visit.visitId;
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
            valid_until: new Date(t.clock.now().getTime() + 180 * 86_400_000)
              .toISOString()
              .slice(0, 10),
            directions: 'Take one tablet about an hour before, no more than once a day.',
          },
        },
        await staffCookie(t, provider),
      );
      expect(approved.statusCode, approved.body).toBe(200);
      // …and a question for the care team.
      const asked = await callAs(
        t.app,
        messagesApi.send,
        {
          leads_id: owner.leadsId,
          subject: 'Side effects',
          topic: 'treatment',
          body: 'A private question about my treatment.',
        },
        owner.cookie,
      );
      expect(asked.statusCode, asked.body).toBe(200);

      // What the owner has, as the orders and subscriptions features answer the owner.
      const orders = Object.values(await orderHistory(t, owner));
      const store = orders.filter((o) => o.order_kind === 'store');
      storeOrders = store.map((o) => o.order_number);
      storeOrderId = store[0]?.orders_id ?? 0;
      expect(orders.some((o) => o.order_kind === 'visit')).toBe(true);
      const upload = await t.app.db
        .selectFrom('uploads')
        .select('public_id')
        .where('customer_id', '=', owner.customerId)
        .executeTakeFirstOrThrow();
      uploadKey = upload.public_id ?? '';
      const plans = await subscriptionsOf(t, owner);
      expect(plans.some((p) => p.refill !== null)).toBe(true);
      expect(plans.some((p) => p.product_id !== null)).toBe(true);

      await link(t, owner, partner);
    });

    it('operations see the link by first name and customer id on an order; providers see nothing of the partner', async () => {
      const ops = demoStaff.find((s) => s.role === 'operations')!;
      const detail = await callAs(
        t.app,
        operationsApi.order,
        { order_id: storeOrderId },
        await staffCookie(t, ops),
      );
      expect(detail.statusCode, detail.body).toBe(200);
      expect(detail.json<{ data: { order: { partner: unknown } } }>().data.order.partner).toEqual({
        first_name: 'Quin',
        customer_id: partner.customerId,
      });
      expect(detail.body).not.toContain(partner.email);

      const chart = await callAs(
        t.app,
        reviewsApi.chart,
        { visit_id: visitId },
        await staffCookie(t, provider),
      );
      expect(chart.statusCode, chart.body).toBe(200);
      expect(chart.body).not.toContain('Quin');
      expect(chart.body).not.toContain(partner.email);
    });

    it('shares nothing by default', async () => {
      expect(await shared(partner)).toEqual({ ...nothing, partner: { first_name: 'Pat' } });
    });

    it('the address switch shows the shipping address and nothing else', async () => {
      expect((await setSharing(t, owner, 'address', true)).statusCode).toBe(200);
      const account = await callAs(
        t.app,
        accountsApi.accountData,
        { leads_id: owner.leadsId },
        owner.cookie,
      );
      const { country, ...onFile } = account.json<{ data: AccountData }>().data.shipping ?? {};
      // The partner sees the street, city, state and ZIP on file; not even the country.
      expect(country).toBe('US');
      expect(await shared(partner)).toEqual({
        partner: { first_name: 'Pat' },
        address: onFile,
        orders: null,
        subscriptions: null,
      });
      expect((await setSharing(t, owner, 'address', false)).statusCode).toBe(200);
      expect((await shared(partner)).address).toBeNull();
    });

    it('the orders switch shows store orders with status and tracking, never a visit order', async () => {
      await share(t, owner, 'orders', true);
      const view = await shared(partner);
      expect(view.address).toBeNull();
      expect(view.subscriptions).toBeNull();
      expect(view.orders?.map((o) => o.order_number).sort()).toEqual([...storeOrders].sort());
      expect(view.orders?.map((o) => o.order_number)).not.toContain(visitOrder);
      expect(view.orders?.[0]).toMatchObject({
        status: 'PROCESSING',
        tracking_number: null,
        items: [{ product_name: 'Sleep Gummies', quantity: 1 }],
      });
      await share(t, owner, 'orders', false);
      expect((await shared(partner)).orders).toBeNull();
    });

    it('the subscriptions switch shows supplement subscriptions, never a refill plan', async () => {
      await share(t, owner, 'subscriptions', true);
      const view = await shared(partner);
      expect(view.address).toBeNull();
      expect(view.orders).toBeNull();
      expect(view.subscriptions).toEqual([
        {
          product_name: 'Sleep Gummies',
          frequency: 'QUARTERLY',
          // What arrives: three bottles every quarter (spec §3), not the one unit bought.
          bottles: 3,
          status: 'ACTIVE',
          next_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        },
      ]);
      await share(t, owner, 'subscriptions', false);
    });

    it('never returns a visit, answer, prescription, provider message, photo ID or contact detail, all switches on', async () => {
      for (const item of ['address', 'orders', 'subscriptions'] as const)
        expect((await setSharing(t, owner, item, true)).statusCode).toBe(200);
      const body = (await callAs(t.app, partnersApi.shared, {}, partner)).body;
      for (const secret of [
        visitOrder,
        uploadKey,
        'sildenafil',
        'Take one tablet',
        'A private question',
        'Side effects',
        owner.email,
        owner.leadsId,
        '5035550188',
        '1988',
        'Sharer',
        '4242',
        'visit',
        'prescription',
      ])
        expect(body).not.toContain(secret);
      // The owner's own view of the partner says what they chose, in their history.
      const history = (await partnerPage(t, owner)).history.filter((e) =>
        e.kind.startsWith('sharing'),
      );
      expect(history.length).toBeGreaterThanOrEqual(3);
      for (const item of ['address', 'orders', 'subscriptions'] as const)
        expect((await setSharing(t, owner, item, false)).statusCode).toBe(200);
    });
  });

  it('a quiet unlink sends no email, and the next call from either partner, on any instance, sees nothing', async () => {
    const a = await insertCustomer(t.app, { first_name: 'Rae' });
    const b = await insertCustomer(t.app, { first_name: 'Sol' });
    await saveAddresses(t, a, '12 Elm St');
    await link(t, a, b);
    await share(t, a, 'address', true);
    await share(t, b, 'address', true);
    expect((await shared(b)).address).not.toBeNull();
    const second = await buildSecondInstance(t);
    try {
      expect((await shared(b, second)).address).not.toBeNull();
      const before = (await sentMessages(t)).length;
      const unlinked = await callAs(t.app, partnersApi.unlink, { notify: false }, a);
      expect(unlinked.statusCode, unlinked.body).toBe(200);
      expect(await shared(b, second)).toEqual(nothing);
      expect(await shared(a)).toEqual(nothing);
      expect((await sentMessages(t)).length).toBe(before);
      expect((await partnerPage(t, b)).partner).toBeNull();
      expect((await partnerPage(t, b)).history[0]).toMatchObject({ kind: 'link_ended' });
      expect((await partnerPage(t, a)).history[0]).toMatchObject({ kind: 'unlinked', quiet: true });
    } finally {
      await second.close();
    }

    // A new link starts from nothing.
    await link(t, b, a);
    expect((await partnerPage(t, a)).you_share).toEqual({
      address: false,
      orders: false,
      subscriptions: false,
    });
    expect((await shared(b)).address).toBeNull();
  });

  it('an unlink with notice sends the other a short email that the link ended', async () => {
    const a = await insertCustomer(t.app, { first_name: 'Tam' });
    const b = await insertCustomer(t.app, { first_name: 'Uma' });
    await link(t, a, b);
    const unlinked = await callAs(t.app, partnersApi.unlink, { notify: true }, b);
    expect(unlinked.statusCode, unlinked.body).toBe(200);
    const ended = (await partnerMailTo(t, a.email)).filter((m) => /ended/.test(m.subject));
    expect(ended).toHaveLength(1);
    expect(ended[0]?.text).toMatch(/http:\/\/[^\s]+\/accounts\/partner/);
    const again = await callAs(t.app, partnersApi.unlink, { notify: true }, b);
    expect(again.statusCode).toBe(404);
    const sharing = await setSharing(t, a, 'address', true);
    expect(sharing.statusCode).toBe(404);
  });
});
