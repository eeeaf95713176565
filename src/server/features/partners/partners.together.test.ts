import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ordersApi, type Lander, type Order } from '#shared/orders.ts';
import {
  togetherApi,
  type TogetherItem,
  type TogetherOverview,
} from '#shared/partners-together.ts';
import { subscriptionsApi, type Subscription } from '#shared/subscriptions.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { demoStaff } from '#server/db/seed-demo.ts';
import { insertCustomer, staffCookie, type TestCustomer } from '#test/factories.ts';
import { accountsApi } from '#shared/accounts.ts';
import { operationsApi } from '#shared/operations.ts';
import { partnersApi } from '#shared/partners.ts';
import { callAs } from '#test/contract.ts';
import { offers } from '#shared/catalog.ts';

/**
 * Gifts and couples' plans (decision 018): who may call what. Every call names an offer by id; a
 * third customer gets "not found" for every one of them, exactly as for an id that does not
 * exist; the payer cannot touch the recipient's address or dates; after an unlink nothing answers.
 */
describe(`partners: gifts and couples' plans, access (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
  });
  afterAll(() => t.close());

  /** The customer's orders, newest first, as their order history lists them. */
  async function ordersOf(c: TestCustomer): Promise<Order[]> {
    const history = await callAs(
      t.app,
      ordersApi.ordersDetails,
      { leads_id: c.leadsId, limit: 50 },
      c.cookie,
    );
    expect(history.statusCode, history.body).toBe(200);
    return Object.values(history.json<{ message: Lander }>().message.order_history);
  }

  /** The customer's Subscriptions page: gifts and plans show there only while they run. */
  async function subscriptionsOf(c: TestCustomer): Promise<Subscription[]> {
    const listed = await callAs(
      t.app,
      subscriptionsApi.subscriptions,
      { leads_id: c.leadsId },
      c.cookie,
    );
    expect(listed.statusCode, listed.body).toBe(200);
    return listed.json<{ data: { subscriptions: Subscription[] } }>().data.subscriptions;
  }

  async function withAddress(c: TestCustomer, street: string, billingStreet = street) {
    const saved = await callAs(
      t.app,
      accountsApi.address,
      {
        leads_id: c.leadsId,
        address: street,
        city: 'Portland',
        state: 'OR',
        zip: '97201',
        billing_address: billingStreet,
        billing_city: 'Salem',
        billing_state: 'OR',
        billing_zip: '97301',
        phoneNo: '5035550123',
        smsallow: 0,
      },
      c.cookie,
    );
    expect(saved.statusCode, saved.body).toBe(200);
  }

  async function withCard(c: TestCustomer) {
    const saved = await callAs(
      t.app,
      accountsApi.ccUpdate,
      { ccnum: '4242424242424242', ccexp: '12/30', cccvv: '123', consent: true },
      c.cookie,
    );
    expect(saved.statusCode, saved.body).toBe(200);
  }

  async function link(a: TestCustomer, b: TestCustomer) {
    expect((await callAs(t.app, partnersApi.invite, { email: b.email }, a)).statusCode).toBe(200);
    const waiting = await callAs(t.app, partnersApi.overview, {}, b);
    const id = waiting.json<{ data: { received: { invitation_id: number }[] } }>().data.received[0]!
      .invitation_id;
    expect((await callAs(t.app, partnersApi.accept, { invitation_id: id }, b)).statusCode).toBe(
      200,
    );
  }

  async function overview(c: TestCustomer): Promise<TogetherOverview> {
    const response = await callAs(t.app, togetherApi.overview, {}, c);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: TogetherOverview }>().data;
  }

  async function people() {
    const alex = await insertCustomer(t.app, { first_name: 'Alex', last_name: 'Giver' });
    const sam = await insertCustomer(t.app, { first_name: 'Sam', last_name: 'Getter' });
    const casey = await insertCustomer(t.app, { first_name: 'Casey', last_name: 'Other' });
    await withAddress(alex, '1 Payer Road');
    await withAddress(sam, '2 Home Lane', '3 Office Park');
    await withAddress(casey, '4 Elsewhere St');
    await withCard(alex);
    await withCard(casey);
    await link(alex, sam);
    return { alex, sam, casey };
  }

  async function give(from: TestCustomer): Promise<TogetherItem> {
    const response = await callAs(
      t.app,
      togetherApi.give,
      { product_id: offers.sleep.quarterly, quantity: 1 },
      from,
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: { item: TogetherItem } }>().data.item;
  }

  const expectNotFound = async (response: Promise<{ statusCode: number; body: string }>) => {
    const answer = await response;
    expect(answer.statusCode, answer.body).toBe(404);
    expect(answer.body).not.toMatch(/Alex|Sam|Home Lane|Office Park|Payer Road/);
  };

  it('a gift: the payer sees the card it is billed to and "Ships to Sam", never the address; Sam accepts, choosing the address', async () => {
    const { alex, sam } = await people();
    const offered = await give(alex);
    expect(offered).toMatchObject({
      kind: 'gift',
      role: 'payer',
      status: 'pending',
      billed_to: 'Visa ending 4242',
      ships_to: null,
      ships_to_name: 'Sam',
      actions: ['withdraw'],
      lines: [{ for: 'partner', product_name: 'Sleep Gummies', bottles: 3 }],
    });
    const waiting = (await overview(sam)).items;
    expect(waiting).toMatchObject([
      { offer_id: offered.offer_id, role: 'partner', status: 'pending', billed_to: null },
    ]);
    expect(waiting[0]!.actions).toEqual(['accept', 'decline']);

    // Sam must choose where it ships; Sam's own addresses are offered to Sam alone.
    const noChoice = await callAs(t.app, togetherApi.accept, { offer_id: offered.offer_id }, sam);
    expect(noChoice.statusCode).toBe(400);
    expect(noChoice.json()).toMatchObject({
      code: 'VALIDATION',
      fields: { ship_to: expect.any(String) },
    });
    expect((await overview(sam)).addresses.billing).toMatchObject({ address: '3 Office Park' });
    const accepted = await callAs(
      t.app,
      togetherApi.accept,
      { offer_id: offered.offer_id, ship_to: 'billing' },
      sam,
    );
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json<{ data: { item: TogetherItem } }>().data.item).toMatchObject({
      status: 'active',
      ship_to: 'billing',
      ships_to: { address: '3 Office Park' },
      ships_to_name: 'you',
      actions: ['skip', 'move_date', 'pause', 'address'],
    });

    // The payer: billing and cancel, no address, even with Sam's shipping address shared (the
    // gift ships to Sam's billing address, which is never shared).
    expect(
      (await callAs(t.app, partnersApi.sharing, { item: 'address', shared: true }, sam)).statusCode,
    ).toBe(200);
    const payerView = (await overview(alex)).items[0]!;
    expect(payerView).toMatchObject({ status: 'active', ships_to: null, ships_to_name: 'Sam' });
    expect(payerView.actions).toEqual(['cancel']);
    // Sam moves it to the shipping address, which Sam shares: now Alex may see it.
    expect(
      (
        await callAs(
          t.app,
          togetherApi.address,
          { offer_id: offered.offer_id, ship_to: 'shipping' },
          sam,
        )
      ).statusCode,
    ).toBe(200);
    expect((await overview(alex)).items[0]).toMatchObject({ ships_to: { address: '2 Home Lane' } });

    // The order in Alex's history carries no address; the gift is not on Alex's Subscriptions page.
    const orders = await callAs(
      t.app,
      ordersApi.ordersDetails,
      { leads_id: alex.leadsId },
      alex.cookie,
    );
    const history = Object.values(
      orders.json<{ message: Record<string, { shippingAddress: unknown }> }>().message ?? {},
    );
    expect(orders.statusCode, orders.body).toBe(200);
    expect(orders.body).not.toMatch(/Office Park|Home Lane/);
    expect(history.length).toBeGreaterThan(0);
    const subs = await callAs(
      t.app,
      subscriptionsApi.subscriptions,
      { leads_id: alex.leadsId },
      alex.cookie,
    );
    // On Alex's Subscriptions as a gift to Sam (issue 26), with no address of Sam's.
    expect(
      subs.json<{ data: { subscriptions: Subscription[] } }>().data.subscriptions,
    ).toMatchObject([{ together: { kind: 'gift', role: 'payer', with_first_name: 'Sam' } }]);
    expect(subs.body).not.toMatch(/Office Park|Home Lane/);
  });

  it('who may change a gift: the recipient its dates and address, the payer only its end; a third customer nothing', async () => {
    const { alex, sam, casey } = await people();
    const { offer_id } = await give(alex);
    // Before it is accepted: only Sam answers, only Alex withdraws.
    await expectNotFound(
      callAs(t.app, togetherApi.accept, { offer_id, ship_to: 'shipping' }, alex),
    );
    await expectNotFound(callAs(t.app, togetherApi.decline, { offer_id }, alex));
    expect((await callAs(t.app, togetherApi.cancel, { offer_id }, sam)).statusCode).toBe(400);
    expect(
      (await callAs(t.app, togetherApi.accept, { offer_id, ship_to: 'shipping' }, sam)).statusCode,
    ).toBe(200);

    const calls = [
      (body, c) => callAs(t.app, togetherApi.accept, { ...body, ship_to: 'shipping' }, c),
      (body, c) => callAs(t.app, togetherApi.decline, body, c),
      (body, c) => callAs(t.app, togetherApi.cancel, body, c),
      (body, c) => callAs(t.app, togetherApi.change, { ...body, change: { action: 'skip' } }, c),
      (body, c) => callAs(t.app, togetherApi.address, { ...body, ship_to: 'billing' }, c),
    ] satisfies ((body: { offer_id: number }, c: TestCustomer) => unknown)[];
    // Casey, not linked to either: every call is "not found", as for an id that does not exist.
    for (const call of calls) {
      await expectNotFound(call({ offer_id }, casey));
      await expectNotFound(call({ offer_id: 987_654_321 }, sam));
    }
    expect((await overview(casey)).items).toEqual([]);

    // The payer cannot change the recipient's address or dates.
    const address = await callAs(
      t.app,
      togetherApi.address,
      { offer_id, ship_to: 'billing' },
      alex,
    );
    expect(address.statusCode).toBe(400);
    expect(address.json()).toMatchObject({ code: 'SUBSCRIPTION_REFUSED' });
    const skip = await callAs(
      t.app,
      togetherApi.change,
      { offer_id, change: { action: 'skip' } },
      alex,
    );
    expect(skip.json()).toMatchObject({ code: 'SUBSCRIPTION_REFUSED' });
    // Nor through the Subscriptions page's own call.
    const subscriptionId = (
      await t.app.db
        .selectFrom('partner_offers')
        .select('subscription_id')
        .where('id', '=', offer_id)
        .executeTakeFirstOrThrow()
    ).subscription_id!;
    await expectNotFound(
      callAs(
        t.app,
        subscriptionsApi.subscriptionUpdate,
        {
          leads_id: alex.leadsId,
          subscription_id: subscriptionId,
          change: { action: 'skip' },
          preview: false,
        },
        alex.cookie,
      ),
    );
    // The recipient skips and pauses; the recipient cannot end what the payer pays for.
    const skipped = await callAs(
      t.app,
      togetherApi.change,
      { offer_id, change: { action: 'skip' } },
      sam,
    );
    expect(skipped.statusCode, skipped.body).toBe(200);
    expect((await callAs(t.app, togetherApi.cancel, { offer_id }, sam)).statusCode).toBe(400);
    const ended = await callAs(t.app, togetherApi.cancel, { offer_id }, alex);
    expect(ended.statusCode, ended.body).toBe(200);
    expect((await overview(sam)).items).toEqual([]);
    const history = await callAs(t.app, partnersApi.overview, {}, sam);
    expect(history.json<{ data: { history: { kind: string }[] } }>().data.history[0]).toMatchObject(
      { kind: 'gift_ended' },
    );
  });

  it("a couples' plan needs both addresses confirmed: proposing and accepting are refused until they are", async () => {
    const { alex, sam } = await people();
    const setVerified = (c: TestCustomer, at: string | null) =>
      t.app.db
        .updateTable('customers')
        .set({ email_verified_at: at })
        .where('id', '=', c.customerId)
        .execute();
    const plan = () =>
      callAs(
        t.app,
        togetherApi.startPlan,
        {
          product_id: offers.sleep.monthly,
          quantity: 1,
          partner_product_id: offers.immunity.monthly,
          partner_quantity: 1,
        },
        alex,
      );
    await setVerified(sam, null);
    const theirs = await plan();
    expect(theirs.statusCode).toBe(400);
    expect(theirs.json()).toMatchObject({
      code: 'SUBSCRIPTION_REFUSED',
      message:
        "Sam has not confirmed their email address yet: a couples' plan needs both of you to confirm yours.",
    });
    await setVerified(sam, '2026-11-01T00:00:00.000Z');
    await setVerified(alex, null);
    expect((await plan()).json()).toMatchObject({
      code: 'SUBSCRIPTION_REFUSED',
      message:
        "Confirm your email address first: a couples' plan needs both of you to confirm yours. Send the link again from the Partner page.",
    });

    await setVerified(alex, '2026-11-01T00:00:00.000Z');
    const started = await plan();
    expect(started.statusCode, started.body).toBe(200);
    const offerId = started.json<{ data: { item: TogetherItem } }>().data.item.offer_id;
    await setVerified(alex, null);
    const accept = await callAs(t.app, togetherApi.accept, { offer_id: offerId }, sam);
    expect(accept.json()).toMatchObject({ code: 'SUBSCRIPTION_REFUSED' });
    expect((await overview(sam)).items[0]).toMatchObject({ status: 'pending' });
  });

  it("a couples' plan: the partner accepts or leaves; its owner keeps the dates", async () => {
    const { alex, sam, casey } = await people();
    const mixed = await callAs(
      t.app,
      togetherApi.startPlan,
      {
        product_id: offers.sleep.monthly,
        quantity: 1,
        partner_product_id: offers.biotin.quarterly,
        partner_quantity: 1,
      },
      alex,
    );
    expect(mixed.json()).toMatchObject({ code: 'SUBSCRIPTION_REFUSED' });
    const started = await callAs(
      t.app,
      togetherApi.startPlan,
      {
        product_id: offers.sleep.monthly,
        quantity: 1,
        partner_product_id: offers.immunity.monthly,
        partner_quantity: 1,
      },
      alex,
    );
    expect(started.statusCode, started.body).toBe(200);
    const plan = started.json<{ data: { item: TogetherItem } }>().data.item;
    expect(plan).toMatchObject({ kind: 'plan', status: 'pending', total_cents: 3150 });
    const again = await callAs(
      t.app,
      togetherApi.startPlan,
      {
        product_id: offers.sleep.monthly,
        quantity: 1,
        partner_product_id: offers.immunity.monthly,
        partner_quantity: 1,
      },
      alex,
    );
    expect(again.json()).toMatchObject({ code: 'SUBSCRIPTION_REFUSED' });
    await expectNotFound(callAs(t.app, togetherApi.accept, { offer_id: plan.offer_id }, casey));
    expect(
      (await callAs(t.app, togetherApi.accept, { offer_id: plan.offer_id }, sam)).statusCode,
    ).toBe(200);

    const samView = (await overview(sam)).items[0]!;
    expect(samView).toMatchObject({
      role: 'partner',
      status: 'active',
      ships_to_name: 'Alex',
      ships_to: null,
      lines: [
        { for: 'partner', product_name: 'Sleep Gummies', unit_price_cents: 1575 },
        { for: 'you', product_name: 'Immunity Gummies', unit_price_cents: 1575 },
      ],
    });
    expect(samView.actions).toEqual(['cancel']);
    expect(samView.next_date).not.toBeNull();
    const move = await callAs(
      t.app,
      togetherApi.change,
      { offer_id: plan.offer_id, change: { action: 'pause', until: '2027-01-10' } },
      sam,
    );
    expect(move.json()).toMatchObject({ code: 'SUBSCRIPTION_REFUSED' });
    const paused = await callAs(
      t.app,
      togetherApi.change,
      { offer_id: plan.offer_id, change: { action: 'pause', until: '2027-01-10' } },
      alex,
    );
    expect(paused.statusCode, paused.body).toBe(200);
    expect((await overview(sam)).items[0]).toMatchObject({ status: 'paused' });
    // Sam leaves: the plan ends for both.
    expect(
      (await callAs(t.app, togetherApi.cancel, { offer_id: plan.offer_id }, sam)).statusCode,
    ).toBe(200);
    expect((await overview(alex)).items).toEqual([]);
  });

  it('no card: the payer is told how to add one; a declined offer charges nothing and tells the payer in-app', async () => {
    const { alex, sam } = await people();
    const noCard = await callAs(
      t.app,
      togetherApi.give,
      { product_id: offers.sleep.monthly, quantity: 1 },
      sam,
    );
    expect(noCard.statusCode).toBe(400);
    expect(noCard.json()).toMatchObject({
      code: 'NO_CARD',
      message: expect.stringContaining('Payment method'),
    });
    const oneTime = await callAs(
      t.app,
      togetherApi.give,
      { product_id: offers.sleep.oneTime, quantity: 1 },
      alex,
    );
    expect(oneTime.json()).toMatchObject({ code: 'SUBSCRIPTION_REFUSED' });
    const { offer_id } = await give(alex);
    expect((await callAs(t.app, togetherApi.decline, { offer_id }, sam)).statusCode).toBe(200);
    const closed = await callAs(t.app, togetherApi.accept, { offer_id, ship_to: 'shipping' }, sam);
    expect(closed.statusCode).toBe(409);
    expect((await overview(alex)).items).toEqual([]);
    const history = await callAs(t.app, partnersApi.overview, {}, alex);
    expect(history.json<{ data: { history: { kind: string }[] } }>().data.history[0]).toMatchObject(
      {
        kind: 'gift_declined',
      },
    );
    expect(await ordersOf(alex)).toEqual([]);
  });

  it("operations see whose gift or plan an order is, and where it ships; the payer's card pays it", async () => {
    const { alex, sam } = await people();
    const gift = await give(alex);
    expect(
      (
        await callAs(
          t.app,
          togetherApi.accept,
          { offer_id: gift.offer_id, ship_to: 'billing' },
          sam,
        )
      ).statusCode,
    ).toBe(200);
    const [order, ...others] = await ordersOf(alex);
    expect(others).toEqual([]);
    const ops = demoStaff.find((s) => s.role === 'operations')!;
    const detail = await callAs(
      t.app,
      operationsApi.order,
      { order_id: order!.orders_id },
      await staffCookie(t, ops),
    );
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json()).toMatchObject({
      data: {
        order: {
          customer_id: alex.customerId,
          payment_status: 'paid',
          together: { kind: 'gift', partner_first_name: 'Sam', partner_id: sam.customerId },
          shipping: { address: '3 Office Park' },
        },
      },
    });
  });

  it('after an unlink nothing answers: running gifts end, waiting offers close, both read it in their history', async () => {
    const { alex, sam } = await people();
    const running = await give(alex);
    expect(
      (
        await callAs(
          t.app,
          togetherApi.accept,
          { offer_id: running.offer_id, ship_to: 'shipping' },
          sam,
        )
      ).statusCode,
    ).toBe(200);
    const waiting = await give(alex);
    expect((await callAs(t.app, partnersApi.unlink, { notify: false }, alex)).statusCode).toBe(200);
    for (const who of [alex, sam]) {
      expect((await overview(who)).items).toEqual([]);
      for (const offer_id of [running.offer_id, waiting.offer_id]) {
        await expectNotFound(callAs(t.app, togetherApi.cancel, { offer_id }, who));
        await expectNotFound(
          callAs(t.app, togetherApi.change, { offer_id, change: { action: 'skip' } }, who),
        );
        await expectNotFound(
          callAs(t.app, togetherApi.accept, { offer_id, ship_to: 'shipping' }, who),
        );
      }
      const history = await callAs(t.app, partnersApi.overview, {}, who);
      expect(
        history.json<{ data: { history: { kind: string }[] } }>().data.history.map((e) => e.kind),
      ).toContain('gift_ended');
    }
    const statuses = await t.app.db
      .selectFrom('partner_offers')
      .select(['status', 'subscription_id'])
      .where('id', 'in', [running.offer_id, waiting.offer_id])
      .orderBy('id')
      .execute();
    expect(statuses).toEqual([
      { status: 'accepted', subscription_id: expect.any(Number) },
      { status: 'closed', subscription_id: null },
    ]);
    // The running gift's subscription ended with the link: on neither person's Subscriptions page.
    for (const who of [alex, sam])
      expect((await subscriptionsOf(who)).filter((s) => s.together !== null)).toEqual([]);
    // Linked again later: the old gift does not come back.
    await link(sam, alex);
    expect((await overview(alex)).items).toEqual([]);
  });
});
