import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStaff } from '#server/db/seed-demo.ts';
import { offers } from '#shared/catalog.ts';
import { operationsApi } from '#shared/operations.ts';
import { ordersApi } from '#shared/orders.ts';
import { partnersApi } from '#shared/partners.ts';
import { togetherApi, type TogetherItem } from '#shared/partners-together.ts';
import { subscriptionsApi, type Subscription } from '#shared/subscriptions.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import { staffCookie, type TestCustomer } from '#test/factories.ts';
import {
  acceptGift,
  couple,
  expectNotFound,
  giveGift,
  orderHistory,
  togetherOf,
} from './partners.test-helpers.ts';

/**
 * Gift subscriptions (decision 018): who may call what. Every call names a gift by its
 * `together_id`; a third customer gets "not found" for every one of them, exactly as for an id that
 * does not exist; the payer cannot touch the recipient's address or dates.
 */
describe(`partners: gift subscriptions, who sees and changes what (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
  });
  afterAll(() => t.close());

  it('a gift: the payer sees the card it is billed to and "Ships to Sam", never the address; Sam accepts, choosing the address', async () => {
    const { alex, sam } = await couple(t);
    const given = await giveGift(t, alex);
    expect(given).toMatchObject({
      kind: 'gift',
      role: 'payer',
      status: 'pending',
      billed_to: 'Visa ending 4242',
      ships_to: null,
      ships_to_name: 'Sam',
      actions: ['withdraw'],
      lines: [{ for: 'partner', product_name: 'Sleep Gummies', bottles: 3 }],
    });
    const waiting = (await togetherOf(t, sam)).items;
    expect(waiting).toMatchObject([
      { together_id: given.together_id, role: 'partner', status: 'pending', billed_to: null },
    ]);
    expect(waiting[0]!.actions).toEqual(['accept', 'decline']);

    // Sam must choose where it ships; Sam's own addresses are shown to Sam alone.
    const noChoice = await callAs(
      t.app,
      togetherApi.accept,
      { together_id: given.together_id },
      sam,
    );
    expect(noChoice.statusCode).toBe(400);
    expect(noChoice.json()).toMatchObject({
      code: 'VALIDATION',
      fields: { ship_to: expect.any(String) },
    });
    expect((await togetherOf(t, sam)).addresses.billing).toMatchObject({
      address: '3 Office Park',
    });
    const accepted = await callAs(
      t.app,
      togetherApi.accept,
      { together_id: given.together_id, ship_to: 'billing' },
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
    const payerView = (await togetherOf(t, alex)).items[0]!;
    expect(payerView).toMatchObject({ status: 'active', ships_to: null, ships_to_name: 'Sam' });
    expect(payerView.actions).toEqual(['cancel']);
    // Sam moves it to the shipping address, which Sam shares: now Alex may see it.
    const moved = await callAs(
      t.app,
      togetherApi.address,
      { together_id: given.together_id, ship_to: 'shipping' },
      sam,
    );
    expect(moved.statusCode).toBe(200);
    expect((await togetherOf(t, alex)).items[0]).toMatchObject({
      ships_to: { address: '2 Home Lane' },
    });

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
    const { alex, sam, casey } = await couple(t);
    const { together_id } = await giveGift(t, alex);
    const skip = { together_id, change: { action: 'skip' } } as const;
    // Before it is accepted: only Sam answers, only Alex withdraws.
    await expectNotFound(
      callAs(t.app, togetherApi.accept, { together_id, ship_to: 'shipping' }, alex),
    );
    await expectNotFound(callAs(t.app, togetherApi.decline, { together_id }, alex));
    expect((await callAs(t.app, togetherApi.cancel, { together_id }, sam)).statusCode).toBe(400);
    expect(
      (await callAs(t.app, togetherApi.accept, { together_id, ship_to: 'shipping' }, sam))
        .statusCode,
    ).toBe(200);

    const calls = [
      (body, c) => callAs(t.app, togetherApi.accept, { ...body, ship_to: 'shipping' }, c),
      (body, c) => callAs(t.app, togetherApi.decline, body, c),
      (body, c) => callAs(t.app, togetherApi.cancel, body, c),
      (body, c) => callAs(t.app, togetherApi.change, { ...body, change: { action: 'skip' } }, c),
      (body, c) => callAs(t.app, togetherApi.address, { ...body, ship_to: 'billing' }, c),
    ] satisfies ((body: { together_id: number }, c: TestCustomer) => unknown)[];
    // Casey, not linked to either: every call is "not found", as for an id that does not exist.
    for (const call of calls) {
      await expectNotFound(call({ together_id }, casey));
      await expectNotFound(call({ together_id: 987_654_321 }, sam));
    }
    expect((await togetherOf(t, casey)).items).toEqual([]);

    // The payer cannot change the recipient's address or dates.
    const toBilling = { together_id, ship_to: 'billing' } as const;
    const address = await callAs(t.app, togetherApi.address, toBilling, alex);
    expect(address.statusCode).toBe(400);
    expect(address.json()).toMatchObject({ code: 'SUBSCRIPTION_REFUSED' });
    const payerSkip = await callAs(t.app, togetherApi.change, skip, alex);
    expect(payerSkip.json()).toMatchObject({ code: 'SUBSCRIPTION_REFUSED' });
    // Nor through the Subscriptions page's own call.
    const subscriptionId = (
      await t.app.db
        .selectFrom('together_items')
        .select('subscription_id')
        .where('id', '=', together_id)
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
    const skipped = await callAs(t.app, togetherApi.change, skip, sam);
    expect(skipped.statusCode, skipped.body).toBe(200);
    expect((await callAs(t.app, togetherApi.cancel, { together_id }, sam)).statusCode).toBe(400);
    const ended = await callAs(t.app, togetherApi.cancel, { together_id }, alex);
    expect(ended.statusCode, ended.body).toBe(200);
    expect((await togetherOf(t, sam)).items).toEqual([]);
    const history = await callAs(t.app, partnersApi.overview, {}, sam);
    expect(history.json<{ data: { history: { kind: string }[] } }>().data.history[0]).toMatchObject(
      { kind: 'gift_ended' },
    );
  });

  it('no card: the payer is told how to add one; a declined gift charges nothing and tells the payer in-app', async () => {
    const { alex, sam } = await couple(t);
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
    const { together_id } = await giveGift(t, alex);
    expect((await callAs(t.app, togetherApi.decline, { together_id }, sam)).statusCode).toBe(200);
    const closed = await callAs(
      t.app,
      togetherApi.accept,
      { together_id, ship_to: 'shipping' },
      sam,
    );
    expect(closed.statusCode).toBe(409);
    expect(closed.json()).toMatchObject({
      code: 'INVITATION_CLOSED',
      message: 'This gift or plan is no longer open.',
    });
    expect((await togetherOf(t, alex)).items).toEqual([]);
    const history = await callAs(t.app, partnersApi.overview, {}, alex);
    expect(history.json<{ data: { history: { kind: string }[] } }>().data.history[0]).toMatchObject(
      { kind: 'gift_declined' },
    );
    expect(Object.values(await orderHistory(t, alex))).toEqual([]);
  });

  it("operations see whose gift or plan an order is, and where it ships; the payer's card pays it", async () => {
    const { alex, sam } = await couple(t);
    await acceptGift(t, await giveGift(t, alex), sam, 'billing');
    const [order, ...others] = Object.values(await orderHistory(t, alex));
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
});
