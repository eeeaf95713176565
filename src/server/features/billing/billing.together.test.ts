import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildSecondInstance, buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { insertCustomer, sessionCookie, staffCookie, type TestCustomer } from '#test/factories.ts';
import { demoStaff } from '#server/db/seed-demo.ts';
import { ordersApi, type Order } from '#shared/orders.ts';
import { sentMessages } from '#test/outbox.ts';
import { runBilling } from './billing.service.ts';
import { authApi } from '#shared/auth.ts';
import { accountsApi } from '#shared/accounts.ts';
import { partnersApi } from '#shared/partners.ts';
import { togetherApi } from '#shared/partners-together.ts';
import { operationsApi } from '#shared/operations.ts';
import { callAs } from '#test/contract.ts';
import { offers } from '#shared/catalog.ts';

/**
 * Gifts and couples' plans (decision 018) bill through the same exactly-once renewals as any
 * subscription: the first delivery at acceptance, then one order and one charge per period, with
 * the payer's card, dunning and card-update retries unchanged. A plan's period is one order with
 * both lines and one charge.
 */

const DAY = 24 * 60 * 60_000;
const START = '2026-11-21T09:00:00.000Z';
const OK_CARD = '4242424242424242';
// Saves, but every charge on it fails.
const FAILING_CARD = '4000000000000341';

describe(`gifts and couples' plans renew exactly once (${testDialect})`, () => {
  let t: TestApp;
  const extra: FastifyInstance[] = [];
  afterEach(async () => {
    for (const app of extra.splice(0)) await app.close();
    await t.close();
  });

  /** Sessions end after 30 idle minutes; the clock moves days here, so log in again. */
  async function fresh(c: TestCustomer): Promise<TestCustomer> {
    const login = await callAs(t.app, authApi.login, {
      email: c.email,
      password: c.password,
    });
    expect(login.statusCode, login.body).toBe(200);
    return { ...c, cookie: sessionCookie(login) };
  }

  async function withAddress(c: TestCustomer, street: string) {
    const saved = await callAs(
      t.app,
      accountsApi.address,
      {
        leads_id: c.leadsId,
        address: street,
        city: 'Portland',
        state: 'OR',
        zip: '97201',
        billing_address: street,
        billing_city: 'Portland',
        billing_state: 'OR',
        billing_zip: '97201',
        phoneNo: '5035550123',
        smsallow: 0,
      },
      c.cookie,
    );
    expect(saved.statusCode, saved.body).toBe(200);
  }

  const saveCard = (c: TestCustomer, ccnum: string) =>
    callAs(
      t.app,
      accountsApi.ccUpdate,
      { ccnum, ccexp: '12/30', cccvv: '123', consent: true },
      c.cookie,
    );

  /** Alex (the payer, with `card`) and Sam, linked, each with an address of their own. */
  async function couple(card: string) {
    t.clock.set(START);
    const alex = await insertCustomer(t.app, { first_name: 'Alex', last_name: 'Payer' });
    const sam = await insertCustomer(t.app, { first_name: 'Sam', last_name: 'Recipient' });
    await withAddress(alex, '1 Payer Road');
    await withAddress(sam, '2 Recipient Lane');
    expect((await saveCard(alex, card)).statusCode).toBe(200);
    await callAs(t.app, partnersApi.invite, { email: sam.email }, alex.cookie);
    const waiting = await callAs(t.app, partnersApi.overview, {}, sam.cookie);
    const invitationId = waiting.json<{ data: { received: { invitation_id: number }[] } }>().data
      .received[0]!.invitation_id;
    const linked = await callAs(
      t.app,
      partnersApi.accept,
      { invitation_id: invitationId },
      sam.cookie,
    );
    expect(linked.statusCode, linked.body).toBe(200);
    return { alex, sam };
  }

  async function propose(kind: 'gift' | 'plan', from: TestCustomer): Promise<number> {
    const response =
      kind === 'gift'
        ? await callAs(
            t.app,
            togetherApi.give,
            { product_id: offers.sleep.monthly, quantity: 1 },
            from.cookie,
          )
        : await callAs(
            t.app,
            togetherApi.startPlan,
            {
              product_id: offers.sleep.monthly,
              quantity: 1,
              partner_product_id: offers.biotin.monthly,
              partner_quantity: 2,
            },
            from.cookie,
          );
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: { item: { together_id: number } } }>().data.item.together_id;
  }

  const accept = (togetherId: number, by: TestCustomer, app: FastifyInstance = t.app) =>
    callAs(app, togetherApi.accept, { together_id: togetherId, ship_to: 'shipping' }, by.cookie);

  async function renewals(customerId: number) {
    const orders = await t.app.db
      .selectFrom('orders')
      .select([
        'id',
        'billing_period',
        'total_cents',
        'payment_status',
        'ship_address',
        'subscription_id',
      ])
      .where('customer_id', '=', customerId)
      .where('kind', '=', 'renewal')
      .orderBy('id')
      .execute();
    const lines = await t.app.db
      .selectFrom('order_items')
      .select(['order_id', 'product_id', 'quantity', 'unit_price_cents'])
      .where('order_id', 'in', orders.length > 0 ? orders.map((o) => o.id) : [0])
      .orderBy('id')
      .execute();
    const charges = await t.app.db
      .selectFrom('payment_ledger')
      .innerJoin(
        'simulator_charges',
        'simulator_charges.idempotency_key',
        'payment_ledger.idempotency_key',
      )
      .select(['simulator_charges.amount_cents', 'simulator_charges.status'])
      .where('payment_ledger.order_id', 'in', orders.length > 0 ? orders.map((o) => o.id) : [0])
      .where('simulator_charges.status', '=', 'succeeded')
      .execute();
    return { orders, lines, charges };
  }

  async function subscriptionOf(togetherId: number) {
    return t.app.db
      .selectFrom('together_items')
      .innerJoin('subscriptions', 'subscriptions.id', 'together_items.subscription_id')
      .select(['subscriptions.id', 'subscriptions.status', 'subscriptions.next_billing_date'])
      .where('together_items.id', '=', togetherId)
      .executeTakeFirstOrThrow();
  }

  it("a gift's recipient cannot bring a charge forward: moving the date to tomorrow after each renewal bills the payer once, not daily", async () => {
    t = await buildTestApp();
    let { alex, sam } = await couple(OK_CARD);
    const togetherId = await propose('gift', alex);
    expect((await accept(togetherId, sam)).statusCode).toBe(200);
    const move = (date: string) =>
      callAs(
        t.app,
        togetherApi.change,
        { together_id: togetherId, change: { action: 'move_date', date } },
        sam.cookie,
      );
    // Paid at acceptance on Nov 21 until Dec 21: tomorrow is inside what Alex paid for.
    const tomorrow = await move('2026-11-22');
    expect(tomorrow.statusCode, tomorrow.body).toBe(400);
    expect(tomorrow.json<{ message: string }>().message).toBe(
      'Alex has paid for this gift until 12/21/2026. Choose that date or a later one: only Alex can bring a charge forward.',
    );
    // Later is Sam's to choose, and back again as far as the paid period ends.
    expect((await move('2027-01-10')).statusCode).toBe(200);
    expect((await move('2026-12-21')).statusCode).toBe(200);
    expect((await move('2026-12-20')).statusCode).toBe(400);
    for (let day = 1; day <= 4; day++) {
      t.clock.advance(DAY);
      await runBilling(t.app.ctx);
      sam = await fresh(sam);
      await move(new Date(t.clock.now().getTime() + DAY).toISOString().slice(0, 10));
    }
    alex = await fresh(alex);
    const { charges } = await renewals(alex.customerId);
    expect(charges).toEqual([{ amount_cents: 1750, status: 'succeeded' }]);
    expect((await subscriptionOf(togetherId)).next_billing_date).toBe('2026-12-21');
  });

  it("a gift's shipping news is its recipient's: Sam gets the tracking, Alex sees it shipped, for Sam, with a receipt for each charge", async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
    const linked = await couple(OK_CARD);
    const sam = linked.sam;
    let alex = linked.alex;
    const togetherId = await propose('gift', alex);
    expect((await accept(togetherId, sam)).statusCode).toBe(200);
    t.clock.advance(31 * DAY);
    await runBilling(t.app.ctx);
    const { orders } = await renewals(alex.customerId);
    expect(orders.map((o) => o.payment_status)).toEqual(['paid', 'paid']);
    const orderNumbers = await t.app.db
      .selectFrom('orders')
      .select('order_number')
      .where(
        'id',
        'in',
        orders.map((o) => o.id),
      )
      .orderBy('id')
      .execute();
    const ops = demoStaff.find((s) => s.role === 'operations')!;
    const cookie = await staffCookie(t, ops);
    const shipped = await callAs(
      t.app,
      operationsApi.ship,
      { order_id: orders[0]!.id, tracking_number: '9400111899223197428490' },
      cookie,
    );
    expect(shipped.statusCode, shipped.body).toBe(200);
    const delivered = await callAs(
      t.app,
      operationsApi.deliver,
      { order_id: orders[0]!.id },
      cookie,
    );
    expect(delivered.statusCode, delivered.body).toBe(200);

    const mail = await sentMessages(t);
    const to = (c: TestCustomer) => mail.filter((m) => m.to === c.email).map((m) => m.subject);
    const [first, second] = orderNumbers.map((o) => o.order_number);
    expect(to(sam)).toEqual(
      expect.arrayContaining([
        `Your Pairwell order ${first} has shipped`,
        `Your Pairwell order ${first} has been delivered`,
      ]),
    );
    const samShipped = mail.find((m) => m.to === sam.email && m.subject.endsWith('has shipped'));
    expect(samShipped?.text).toContain('your gift from Alex');
    expect(samShipped?.text).toContain('9400111899223197428490');
    // Alex paid: a receipt for each charge, and none of the delivery news.
    expect(
      to(alex)
        .filter((s) => !s.startsWith('Welcome'))
        .sort(),
    ).toEqual([
      `Your Pairwell receipt for order ${first}`,
      `Your Pairwell receipt for order ${second}`,
    ]);
    const receipt = mail.find((m) => m.subject === `Your Pairwell receipt for order ${first}`);
    expect(receipt?.text).toContain(
      `We charged $17.50 to your card on file on 11/21/2026 for order ${first}: your gift subscription for Sam, Sleep Gummies (1 bottle a month).`,
    );
    expect(mail.map((m) => m.text).join()).not.toContain('Recipient Lane');

    alex = await fresh(alex);
    const history = await callAs(
      t.app,
      ordersApi.ordersDetails,
      { leads_id: alex.leadsId },
      alex.cookie,
    );
    const shown = Object.values(
      history.json<{ message: { order_history: Record<string, Order> } }>().message.order_history,
    ).find((o) => o.order_number === first);
    expect(shown).toMatchObject({
      order_status: 'DELIVERED',
      tracking_number: null,
      shippingAddress: null,
      gift_for: { first_name: 'Sam' },
    });
  });

  it.each(['gift', 'plan'] as const)(
    'a %s: charged once at acceptance however many accepts race, then once per period',
    async (kind) => {
      t = await buildTestApp();
      const { alex, sam } = await couple(OK_CARD);
      const second = testDialect === 'postgres' ? await buildSecondInstance(t) : t.app;
      if (second !== t.app) extra.push(second);
      const togetherId = await propose(kind, alex);
      // A double click, on two instances where there are several: one subscription, one charge.
      const answers = await Promise.all([
        accept(togetherId, sam),
        accept(togetherId, sam, second),
        accept(togetherId, sam),
      ]);
      for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
      let seen = await renewals(alex.customerId);
      expect(seen.orders).toHaveLength(1);
      expect(seen.charges).toHaveLength(1);

      // Two months on, billing runs every day (on two instances at once where there are several).
      for (let day = 1; day <= 61; day++) {
        t.clock.advance(DAY);
        await Promise.all([
          runBilling(t.app.ctx),
          runBilling((second as typeof t.app).ctx),
          runBilling(t.app.ctx),
        ]);
      }
      seen = await renewals(alex.customerId);
      expect(seen.orders.map((o) => o.billing_period)).toEqual([
        '2026-11-21',
        '2026-12-21',
        '2027-01-21',
      ]);
      expect(seen.orders.every((o) => o.payment_status === 'paid')).toBe(true);
      // One charge per period, for the whole order.
      expect(seen.charges).toHaveLength(3);
      if (kind === 'gift') {
        // Billed to Alex, shipped to the address Sam chose.
        expect(seen.orders.every((o) => o.ship_address === '2 Recipient Lane')).toBe(true);
        expect(seen.orders.every((o) => o.total_cents === 1750)).toBe(true);
        expect(seen.lines).toHaveLength(3);
      } else {
        // Both lines at the couples' price (10% off): 15.75 + 2 × 15.75, in one order and charge.
        expect(seen.orders.every((o) => o.ship_address === '1 Payer Road')).toBe(true);
        expect(seen.orders.every((o) => o.total_cents === 4725)).toBe(true);
        expect(seen.lines).toHaveLength(6);
        expect(seen.lines.slice(0, 2)).toMatchObject([
          { product_id: offers.sleep.monthly, quantity: 1, unit_price_cents: 1575 },
          { product_id: offers.biotin.monthly, quantity: 2, unit_price_cents: 1575 },
        ]);
        expect(seen.charges.every((c) => c.amount_cents === 4725)).toBe(true);
      }
      expect(await subscriptionOf(togetherId)).toMatchObject({
        status: 'ACTIVE',
        next_billing_date: '2027-02-21',
      });
    },
    120_000,
  );

  it.each(['gift', 'plan'] as const)(
    "a %s whose payer's card fails: past due, retried after 1, 3 and 7 days, paused; the payer's new card pays it once",
    async (kind) => {
      t = await buildTestApp();
      const { alex, sam } = await couple(FAILING_CARD);
      const togetherId = await propose(kind, alex);
      const accepted = await accept(togetherId, sam);
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(accepted.json<{ message: string }>().message).toMatch(/did not go through yet/);
      expect((await subscriptionOf(togetherId)).status).toBe('PAST_DUE');
      const attempts = async () =>
        (
          await t.app.db
            .selectFrom('orders')
            .select(['payment_attempts', 'payment_status'])
            .where('customer_id', '=', alex.customerId)
            .executeTakeFirstOrThrow()
        ).payment_attempts;
      expect(await attempts()).toBe(1);
      const schedule: string[] = [];
      for (let day = 1; day <= 8; day++) {
        t.clock.advance(DAY);
        await runBilling(t.app.ctx);
        schedule.push(`${day}:${await attempts()}`);
      }
      expect(schedule).toEqual(['1:2', '2:2', '3:3', '4:3', '5:3', '6:3', '7:4', '8:4']);
      expect((await subscriptionOf(togetherId)).status).toBe('PAUSED');
      // Still one order for the period: the retries never made another.
      expect((await renewals(alex.customerId)).orders).toHaveLength(1);

      const update = await saveCard(await fresh(alex), OK_CARD);
      expect(update.statusCode, update.body).toBe(200);
      expect(update.json()).toMatchObject({
        data: { retries: [{ outcome: 'paid', amount_cents: kind === 'gift' ? 1750 : 4725 }] },
      });
      const seen = await renewals(alex.customerId);
      expect(seen.orders).toHaveLength(1);
      expect(seen.charges).toHaveLength(1);
      expect(await subscriptionOf(togetherId)).toMatchObject({
        status: 'ACTIVE',
        next_billing_date: '2026-12-21',
      });
    },
  );

  it.each(['gift', 'plan'] as const)(
    'an unlink ends a %s at once: no further charge, and an unpaid renewal is no longer owed',
    async (kind) => {
      t = await buildTestApp();
      const { alex, sam } = await couple(OK_CARD);
      const togetherId = await propose(kind, alex);
      expect((await accept(togetherId, sam)).statusCode).toBe(200);
      const unlinked = await callAs(t.app, partnersApi.unlink, { notify: false }, sam.cookie);
      expect(unlinked.statusCode, unlinked.body).toBe(200);
      expect((await subscriptionOf(togetherId)).status).toBe('CANCELLED');
      for (let day = 1; day <= 40; day++) {
        t.clock.advance(DAY);
        await runBilling(t.app.ctx);
      }
      const seen = await renewals(alex.customerId);
      expect(seen.orders).toHaveLength(1);
      expect(seen.charges).toHaveLength(1);
    },
  );
});
