import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStaff } from '#server/db/seed-demo.ts';
import { accountsApi, type AccountData } from '#shared/accounts.ts';
import { cartApi } from '#shared/cart.ts';
import { checkoutApi, type PlacedOrder } from '#shared/checkout.ts';
import type { BodyOf } from '#shared/contract.ts';
import { operationsApi } from '#shared/operations.ts';
import { partnersApi, type PartnerShared } from '#shared/partners.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import {
  buildPlaceOrder,
  insertCustomer,
  staffCookie,
  type TestCustomer,
} from '#test/factories.ts';
import { sentMessages } from '#test/outbox.ts';
import { household, link, orderHistory, orderSleep, share } from './partners.test-helpers.ts';

/**
 * Issue 16, household slice (decision 016): a store order shipped to the partner's shared address,
 * read on the server and re-checked when the order is placed, what operations see of it, and what
 * happens to it and to a checkout under way when the sharing or the link ends.
 */

const ops = demoStaff.find((s) => s.role === 'operations')!;

/** Sam's own address: what Sam shares, and what an order to Sam must ship to. */
const samAddress = {
  address: '12 Oak Avenue',
  address2: 'Apt 4',
  city: 'Salem',
  state: 'OR',
  zip: '97301',
};
/** What a browser could claim is the partner's address: never used. */
const claimed = {
  address: '1 Somewhere Else',
  address2: '',
  city: 'Portland',
  state: 'OR',
  zip: '97204',
  phoneNo: '5035550123',
};

describe(`partners: shipping to the partner (${testDialect})`, () => {
  let t: TestApp;
  let alex: TestCustomer;
  let sam: TestCustomer;
  let cy: TestCustomer;

  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
    // Sam's shipping address is on file from an order of their own; Alex's from theirs.
    ({ alex, sam, cy } = await household(t, {
      shipping: { ...samAddress, phoneNo: '5035550111' },
    }));
  });
  afterAll(() => t.close());

  const chargeCount = async () =>
    (
      await t.app.db
        .selectFrom('simulator_charges')
        .select('id')
        .where('status', '=', 'succeeded')
        .execute()
    ).length;

  const ordersOf = async (c: TestCustomer) => Object.keys(await orderHistory(t, c)).length;

  const cartCount = async (c: TestCustomer) => {
    const cart = await callAs(t.app, cartApi.cart, {}, c.cookie);
    return cart.json<{ data: { cart: { item_count: number } } }>().data.cart.item_count;
  };

  /** The shipping address on the customer's own account, as their account page reads it. */
  async function ownShippingAddress(c: TestCustomer) {
    const account = await callAs(t.app, accountsApi.accountData, { leads_id: c.leadsId }, c.cookie);
    expect(account.statusCode, account.body).toBe(200);
    return account.json<{ data: AccountData }>().data.shipping;
  }

  describe('a store order shipped to the partner', () => {
    let placed: PlacedOrder;

    it("ships to the address the partner's account has, records the partner, and keeps the customer's own address", async () => {
      await share(t, sam, 'address', true);
      await share(t, alex, 'orders', true);
      const before = await ownShippingAddress(alex);
      const response = await orderSleep(t, alex, { shipping: claimed, ship_to_partner: true });
      expect(response.statusCode, response.body).toBe(200);
      placed = response.json<{ data: PlacedOrder }>().data;
      expect(placed.ship_to_partner).toEqual({ first_name: 'Sam' });

      // The partner's address as read on the server, never the one the request claimed (operations
      // see the partner it records, by customer id, below).
      const placedOrder = (await orderHistory(t, alex))[placed.order_number];
      expect(placedOrder?.shippingAddress).toEqual({ ...samAddress, country: 'US' });
      // The confirmation says so, by first name, without the partner's address.
      const confirmation = (await sentMessages(t)).find(
        (m) => m.to === alex.email && m.subject.includes(placed.order_number),
      );
      expect(confirmation?.text).toContain('Shipping to Sam, at the address they share with you.');
      expect(confirmation?.text).not.toContain(samAddress.address);
      // The partner's address never becomes the customer's own (refills ship to that one).
      expect(await ownShippingAddress(alex)).toEqual(before);

      // The customer's order page says whom it ships to.
      const orders = await orderHistory(t, alex);
      expect(orders[placed.order_number]?.ship_to_partner).toEqual({ first_name: 'Sam' });
      // An order to their own address says nothing of a partner.
      const own = Object.values(orders).find((o) => o.order_number !== placed.order_number);
      expect(own?.ship_to_partner).toBeNull();

      // Sam, who sees Alex's store orders, sees this one is on its way to them.
      const shared = (await callAs(t.app, partnersApi.shared, {}, sam)).json<{
        data: PartnerShared;
      }>().data;
      const mine = shared.orders?.find((o) => o.order_number === placed.order_number);
      expect(mine?.ships_to_you).toBe(true);
      expect(shared.orders?.filter((o) => o.ships_to_you)).toHaveLength(1);
    });

    it('keeps "Ship to {partner}" with the checkout progress, for a reload', async () => {
      const shipping = { ...samAddress, phoneNo: '5035550123' };
      const saved = await callAs(
        t.app,
        checkoutApi.saveProgress,
        { step: 'payment', shipping, ship_to_partner: true },
        alex.cookie,
      );
      expect(saved.statusCode, saved.body).toBe(200);
      const progress = await callAs(t.app, checkoutApi.progress, {}, alex.cookie);
      expect(progress.json<{ data: { progress: unknown } }>().data.progress).toEqual({
        step: 'payment',
        shipping,
        ship_to_partner: true,
      });
      // Choosing one's own address again drops it.
      await callAs(t.app, checkoutApi.saveProgress, { step: 'upsell', shipping }, alex.cookie);
      const own = await callAs(t.app, checkoutApi.progress, {}, alex.cookie);
      expect(own.json<{ data: { progress: unknown } }>().data.progress).toEqual({
        step: 'upsell',
        shipping,
      });
      await callAs(t.app, checkoutApi.saveProgress, { step: 'shipping', shipping }, alex.cookie);
    });

    it('operations see the link and the shared address used, and nothing else of the partner', async () => {
      const id = (await orderHistory(t, alex))[placed.order_number]?.orders_id;
      const detail = await callAs(
        t.app,
        operationsApi.order,
        { order_id: id! },
        await staffCookie(t, ops),
      );
      expect(detail.statusCode, detail.body).toBe(200);
      const data = detail.json<{
        data: { order: { ships_to_partner: unknown; partner: unknown; shipping: unknown } };
      }>().data.order;
      expect(data.ships_to_partner).toEqual({ first_name: 'Sam', customer_id: sam.customerId });
      expect(data.partner).toEqual({ first_name: 'Sam', customer_id: sam.customerId });
      expect(data.shipping).toEqual({ ...samAddress, country: 'US' });
      expect(detail.body).not.toContain(sam.email);
      expect(detail.body).not.toContain('Rivera');
    });

    it('refuses when the partner stopped sharing their address since the page loaded: nothing charged, the cart kept', async () => {
      await share(t, sam, 'address', false);
      const charges = await chargeCount();
      const orders = await ordersOf(alex);
      const response = await orderSleep(t, alex, { shipping: claimed, ship_to_partner: true });
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json()).toMatchObject({
        code: 'PARTNER_ADDRESS_UNAVAILABLE',
        message:
          "Your partner's shipping address is no longer shared with you, so this order can't ship there. Nothing was charged. Choose another address.",
      });
      expect(response.body).not.toContain(samAddress.address);
      expect(await chargeCount()).toBe(charges);
      expect(await ordersOf(alex)).toBe(orders);
      expect(await cartCount(alex)).toBeGreaterThan(0);
      // The same cart, to the customer's own address, goes through.
      const own = await callAs(t.app, checkoutApi.placeOrder, buildPlaceOrder(), alex.cookie);
      expect(own.statusCode, own.body).toBe(200);
      expect(own.json<{ data: PlacedOrder }>().data.ship_to_partner).toBeNull();
      await share(t, sam, 'address', true);
    });

    it('a customer with no partner cannot use it, whatever address they claim', async () => {
      const charges = await chargeCount();
      const response = await orderSleep(t, cy, { shipping: claimed, ship_to_partner: true });
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json()).toMatchObject({ code: 'PARTNER_ADDRESS_UNAVAILABLE' });
      expect(response.body).not.toContain(samAddress.address);
      expect(await chargeCount()).toBe(charges);
      expect(await ordersOf(cy)).toBe(0);
    });
  });

  describe('after an unlink', () => {
    it('the order to the partner stays as placed, and no new order may ship there', async () => {
      const unlinked = await callAs(t.app, partnersApi.unlink, { notify: false }, sam);
      expect(unlinked.statusCode, unlinked.body).toBe(200);

      // History: the order still says where it went, for the customer and for operations.
      const toSam = Object.values(await orderHistory(t, alex)).filter((o) => o.ship_to_partner);
      expect(toSam).toHaveLength(1);
      expect(toSam[0]?.shippingAddress).toMatchObject({ address: samAddress.address });

      // No new order ships to the ex-partner: nothing charged, the cart kept.
      const charges = await chargeCount();
      const response = await orderSleep(t, alex, { shipping: claimed, ship_to_partner: true });
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json()).toMatchObject({ code: 'PARTNER_ADDRESS_UNAVAILABLE' });
      expect(await chargeCount()).toBe(charges);
      expect(await cartCount(alex)).toBeGreaterThan(0);
    });
  });

  describe("the partner's address in a checkout under way (issue 26)", () => {
    let dee: TestCustomer;
    let eve: TestCustomer;
    const eveAddress = {
      address: '8 Birch Lane',
      address2: '',
      city: 'Eugene',
      state: 'OR',
      zip: '97401',
    };
    const deeAddress = {
      address: '500 Market Street',
      address2: '',
      city: 'Portland',
      state: 'OR',
      zip: '97204',
    };

    beforeAll(async () => {
      dee = await insertCustomer(t.app, { first_name: 'Dee' });
      eve = await insertCustomer(t.app, { first_name: 'Eve' });
      await orderSleep(t, dee, { shipping: { ...deeAddress, phoneNo: '5035550144' } });
      await orderSleep(t, eve, { shipping: { ...eveAddress, phoneNo: '5035550155' } });
      await link(t, dee, eve);
      await share(t, dee, 'address', true);
      await share(t, eve, 'address', true);
    });

    const save = async (c: TestCustomer, body: BodyOf<typeof checkoutApi.saveProgress>) => {
      const response = await callAs(t.app, checkoutApi.saveProgress, body, c.cookie);
      expect(response.statusCode, response.body).toBe(200);
    };
    const progressOf = async (c: TestCustomer) => {
      const response = await callAs(t.app, checkoutApi.progress, {}, c.cookie);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ data: { progress: unknown } }>().data.progress;
    };
    /** What the database keeps for the customer, whatever the API would show of it. */
    const kept = async (c: TestCustomer) =>
      (
        await t.app.db
          .selectFrom('checkout_progress')
          .select('shipping')
          .where('customer_id', '=', c.customerId)
          .executeTakeFirst()
      )?.shipping ?? '';
    const toPartner = (address: typeof eveAddress) => ({
      step: 'payment' as const,
      shipping: { ...address, phoneNo: '5035550123' },
      ship_to_partner: true,
    });

    it('goes when the partner stops sharing their address: a reload starts from nothing, and only that progress goes', async () => {
      await save(dee, toPartner(eveAddress));
      await save(eve, { step: 'upsell', shipping: { ...eveAddress, phoneNo: '5035550155' } });
      expect(await progressOf(dee)).toEqual(toPartner(eveAddress));

      await share(t, eve, 'address', false);
      // Gone from the database with the change itself, before any reload asks.
      expect(await kept(dee)).not.toContain(eveAddress.address);
      expect(await progressOf(dee)).toBeNull();
      // Eve's own checkout, to her own address, is hers and stays.
      expect(await progressOf(eve)).toMatchObject({ step: 'upsell' });

      // A tab still open on "Ship to Eve" cannot keep her address again.
      await save(dee, toPartner(eveAddress));
      expect(await kept(dee)).not.toContain(eveAddress.address);
      expect(await progressOf(dee)).toBeNull();
      await share(t, eve, 'address', true);
    });

    it("goes from both partners' checkouts when either unlinks", async () => {
      await save(dee, toPartner(eveAddress));
      await save(eve, toPartner(deeAddress));
      expect(await progressOf(eve)).toEqual(toPartner(deeAddress));

      const unlinked = await callAs(t.app, partnersApi.unlink, { notify: false }, eve);
      expect(unlinked.statusCode, unlinked.body).toBe(200);
      expect(await kept(dee)).not.toContain(eveAddress.address);
      expect(await kept(eve)).not.toContain(deeAddress.address);
      expect(await progressOf(dee)).toBeNull();
      expect(await progressOf(eve)).toBeNull();
    });
  });
});
