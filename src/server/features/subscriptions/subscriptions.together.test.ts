import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsApi } from '#shared/accounts.ts';
import { cartApi } from '#shared/cart.ts';
import { offers } from '#shared/catalog.ts';
import { checkoutApi } from '#shared/checkout.ts';
import { togetherApi, type TogetherItem } from '#shared/partners-together.ts';
import { partnersApi } from '#shared/partners.ts';
import { subscriptionsApi, type Subscription } from '#shared/subscriptions.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import { buildPlaceOrder, insertCustomer, type TestCustomer } from '#test/factories.ts';

/**
 * Issue 26: gifts and couples' plans are on the Subscriptions page of both people, each told whose
 * it is by first name; only the payer sees the card, no one an address, and the changes stay on
 * the partner page. Anyone else sees nothing of them.
 */
describe(`subscriptions: gifts and couples' plans on both lists (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

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
        billing_address: `${street} Billing`,
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

  async function people() {
    const alex = await insertCustomer(t.app, { first_name: 'Alex', last_name: 'Giver' });
    const sam = await insertCustomer(t.app, { first_name: 'Sam', last_name: 'Getter' });
    const casey = await insertCustomer(t.app, { first_name: 'Casey', last_name: 'Other' });
    await withAddress(alex, '1 Payer Road');
    await withAddress(sam, '2 Home Lane');
    const card = await callAs(
      t.app,
      accountsApi.ccUpdate,
      { ccnum: '4242424242424242', ccexp: '12/30', cccvv: '123', consent: true },
      alex.cookie,
    );
    expect(card.statusCode, card.body).toBe(200);
    // An invitation finds only a proved address (issue 26): Sam has opened their link.
    await t.app.db
      .updateTable('customers')
      .set({ email_verified_at: '2026-11-01T00:00:00.000Z' })
      .where('id', '=', sam.customerId)
      .execute();
    expect((await callAs(t.app, partnersApi.invite, { email: sam.email }, alex)).statusCode).toBe(
      200,
    );
    const waiting = await callAs(t.app, partnersApi.overview, {}, sam);
    const invitation = waiting.json<{ data: { received: { invitation_id: number }[] } }>().data
      .received[0]!.invitation_id;
    const linked = await callAs(t.app, partnersApi.accept, { invitation_id: invitation }, sam);
    expect(linked.statusCode, linked.body).toBe(200);
    return { alex, sam, casey };
  }

  async function accepted(
    proposal: Promise<{ statusCode: number; body: string; json: <T>() => T }>,
    by: TestCustomer,
    shipTo?: 'shipping',
  ) {
    const made = await proposal;
    expect(made.statusCode, made.body).toBe(200);
    const togetherId = made.json<{ data: { item: TogetherItem } }>().data.item.together_id;
    const accept = await callAs(
      t.app,
      togetherApi.accept,
      { together_id: togetherId, ...(shipTo ? { ship_to: shipTo } : {}) },
      by,
    );
    expect(accept.statusCode, accept.body).toBe(200);
    return togetherId;
  }

  async function listOf(c: TestCustomer): Promise<{ list: Subscription[]; body: string }> {
    const response = await callAs(
      t.app,
      subscriptionsApi.subscriptions,
      { leads_id: c.leadsId },
      c.cookie,
    );
    expect(response.statusCode, response.body).toBe(200);
    return {
      list: response.json<{ data: { subscriptions: Subscription[] } }>().data.subscriptions,
      body: response.body,
    };
  }

  it('a gift: the payer sees "to Sam" with the card, the recipient "from Alex" without it, a third customer nothing', async () => {
    const { alex, sam, casey } = await people();
    await accepted(
      callAs(t.app, togetherApi.give, { product_id: offers.sleep.quarterly, quantity: 1 }, alex),
      sam,
      'shipping',
    );

    const payer = await listOf(alex);
    expect(payer.list).toHaveLength(1);
    expect(payer.list[0]).toMatchObject({
      name: 'Sleep Gummies',
      frequency: 'QUARTERLY',
      status: 'ACTIVE',
      card: { brand: 'Visa', last4: '4242' },
      swap_options: [],
      together: {
        kind: 'gift',
        role: 'payer',
        with_first_name: 'Sam',
        lines: [{ name: 'Sleep Gummies', quantity: 1, for: 'partner' }],
      },
    });
    expect(payer.body).not.toMatch(/Home Lane|Payer Road/);

    const recipient = await listOf(sam);
    expect(recipient.list).toHaveLength(1);
    expect(recipient.list[0]).toMatchObject({
      id: payer.list[0]!.id,
      name: 'Sleep Gummies',
      status: 'ACTIVE',
      next_billing_date: payer.list[0]!.next_billing_date,
      card: null,
      together: {
        kind: 'gift',
        role: 'recipient',
        with_first_name: 'Alex',
        lines: [{ name: 'Sleep Gummies', quantity: 1, for: 'you' }],
      },
    });
    // Neither the payer's card nor anyone's address reaches the recipient.
    expect(recipient.body).not.toMatch(/4242|Visa|Home Lane|Payer Road|Giver/);

    expect((await listOf(casey)).list).toEqual([]);
  });

  it("a couples' plan: both see it with the other's first name, both lines and the one charge; only the owner the card", async () => {
    const { alex, sam, casey } = await people();
    await accepted(
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
      ),
      sam,
    );

    const [owner] = (await listOf(alex)).list;
    expect(owner).toMatchObject({
      name: 'Sleep Gummies',
      price_cents: 3150,
      card: { brand: 'Visa', last4: '4242' },
      together: {
        kind: 'plan',
        role: 'payer',
        with_first_name: 'Sam',
        lines: [
          { name: 'Sleep Gummies', quantity: 1, for: 'you' },
          { name: 'Immunity Gummies', quantity: 1, for: 'partner' },
        ],
      },
    });
    const partner = await listOf(sam);
    expect(partner.list).toHaveLength(1);
    expect(partner.list[0]).toMatchObject({
      id: owner!.id,
      price_cents: 3150,
      card: null,
      together: {
        kind: 'plan',
        role: 'partner',
        with_first_name: 'Alex',
        lines: [
          { name: 'Sleep Gummies', quantity: 1, for: 'partner' },
          { name: 'Immunity Gummies', quantity: 1, for: 'you' },
        ],
      },
    });
    expect(partner.body).not.toMatch(/4242|Visa|Home Lane|Payer Road/);
    expect((await listOf(casey)).list).toEqual([]);
  });

  it('is changed on the partner page only: /subscription/update/ refuses it to both, and an ended one leaves both lists', async () => {
    const { alex, sam, casey } = await people();
    const togetherId = await accepted(
      callAs(t.app, togetherApi.give, { product_id: offers.sleep.monthly, quantity: 1 }, alex),
      sam,
      'shipping',
    );
    const id = (await listOf(sam)).list[0]!.id;
    for (const who of [alex, sam, casey]) {
      const refused = await callAs(
        t.app,
        subscriptionsApi.subscriptionUpdate,
        { leads_id: who.leadsId, subscription_id: id, change: { action: 'skip' }, preview: false },
        who.cookie,
      );
      expect(refused.statusCode, refused.body).toBe(404);
    }

    const ended = await callAs(t.app, togetherApi.cancel, { together_id: togetherId }, alex);
    expect(ended.statusCode, ended.body).toBe(200);
    expect((await listOf(alex)).list).toEqual([]);
    expect((await listOf(sam)).list).toEqual([]);
  });

  it("keeps the customer's own subscriptions beside the gifts they receive", async () => {
    const { alex, sam } = await people();
    await callAs(
      t.app,
      cartApi.addProduct,
      { product_id: offers.biotin.monthly, quantity: 1 },
      sam.cookie,
    );
    const placed = await callAs(
      t.app,
      checkoutApi.placeOrder,
      buildPlaceOrder({
        payment: {
          method: 'card' as const,
          ccnum: '5555555555554444',
          ccexp: '12/30',
          cccvv: '123',
        },
      }),
      sam.cookie,
    );
    expect(placed.statusCode, placed.body).toBe(200);
    await accepted(
      callAs(t.app, togetherApi.give, { product_id: offers.sleep.quarterly, quantity: 1 }, alex),
      sam,
      'shipping',
    );

    const { list, body } = await listOf(sam);
    expect(list.map((s) => [s.name, s.together?.role ?? null, s.card?.last4 ?? null])).toEqual([
      ['Biotin Gummies', null, '4444'],
      ['Sleep Gummies', 'recipient', null],
    ]);
    expect(body).not.toContain('4242');
  });
});
