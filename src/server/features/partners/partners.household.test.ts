import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStaff } from '#server/db/seed-demo.ts';
import { checkoutApi, type PlacedOrder } from '#shared/checkout.ts';
import { accountsApi, type AccountData } from '#shared/accounts.ts';
import { ordersApi, type Lander } from '#shared/orders.ts';
import {
  partnersApi,
  type PartnerOverview,
  type PartnerShared,
  type SharingItem,
} from '#shared/partners.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import {
  buildPlaceOrder,
  insertCustomer,
  staffCookie,
  type PlaceOrderBody,
  type TestCustomer,
} from '#test/factories.ts';
import { sentMessages } from '#test/outbox.ts';
import { submittedEdVisit } from '#test/visits.ts';
import { cartApi } from '#shared/cart.ts';
import { operationsApi } from '#shared/operations.ts';
import { reviewsApi } from '#shared/reviews.ts';
import { visitsApi } from '#shared/visits.ts';
import type { BodyOf } from '#shared/contract.ts';
import { callAs } from '#test/contract.ts';
import { offers } from '#shared/catalog.ts';

/**
 * Issue 16, household slice: a store order shipped to the partner's shared address (read on the
 * server, re-checked when the order is placed), what operations see of it, and invitations to start
 * a visit of the same program that carry nothing of the inviter's visit.
 */

const provider = demoStaff.find((s) => s.role === 'provider')!;
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

describe(`partners: shipping to the partner and visit invitations (${testDialect})`, () => {
  let t: TestApp;
  let alex: TestCustomer;
  let sam: TestCustomer;
  let cy: TestCustomer;

  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
    alex = await insertCustomer(t.app, { first_name: 'Alex', last_name: 'Quinn' });
    sam = await insertCustomer(t.app, { first_name: 'Sam', last_name: 'Rivera' });
    cy = await insertCustomer(t.app, { first_name: 'Cy', last_name: 'Third' });
    // Sam's shipping address is on file from an order of their own; Alex's from theirs.
    await order(sam, { shipping: { ...samAddress, phoneNo: '5035550111' } });
    await order(alex);
    await link(alex, sam);
  });
  afterAll(() => t.close());

  async function overview(c: TestCustomer): Promise<PartnerOverview> {
    const response = await callAs(t.app, partnersApi.overview, {}, c);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: PartnerOverview }>().data;
  }

  async function link(a: TestCustomer, b: TestCustomer): Promise<void> {
    expect((await callAs(t.app, partnersApi.invite, { email: b.email }, a)).statusCode).toBe(200);
    const id = (await overview(b)).received[0]?.invitation_id;
    const accepted = await callAs(t.app, partnersApi.accept, { invitation_id: id! }, b);
    expect(accepted.statusCode, accepted.body).toBe(200);
  }

  const share = async (c: TestCustomer, item: SharingItem, shared: boolean) =>
    expect((await callAs(t.app, partnersApi.sharing, { item, shared }, c)).statusCode).toBe(200);

  async function order(c: TestCustomer, overrides: Partial<PlaceOrderBody> = {}) {
    await callAs(
      t.app,
      cartApi.addProduct,
      { product_id: offers.sleep.quarterly, quantity: 1 },
      c.cookie,
    );
    return callAs(t.app, checkoutApi.placeOrder, { ...buildPlaceOrder(), ...overrides }, c.cookie);
  }

  const chargeCount = async () =>
    (
      await t.app.db
        .selectFrom('simulator_charges')
        .select('id')
        .where('status', '=', 'succeeded')
        .execute()
    ).length;

  /** The customer's orders as their order history lists them (the orders feature's own answer). */
  async function historyOf(c: TestCustomer): Promise<Lander['order_history']> {
    const history = await callAs(
      t.app,
      ordersApi.ordersDetails,
      { leads_id: c.leadsId, limit: 50 },
      c.cookie,
    );
    expect(history.statusCode, history.body).toBe(200);
    return history.json<{ message: Lander }>().message.order_history;
  }

  const ordersOf = async (c: TestCustomer) => Object.keys(await historyOf(c)).length;

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
      await share(sam, 'address', true);
      await share(alex, 'orders', true);
      const before = await ownShippingAddress(alex);
      const response = await order(alex, { shipping: claimed, ship_to_partner: true });
      expect(response.statusCode, response.body).toBe(200);
      placed = response.json<{ data: PlacedOrder }>().data;
      expect(placed.ship_to_partner).toEqual({ first_name: 'Sam' });

      // The partner's address as read on the server, never the one the request claimed (operations
      // see the partner it records, by customer id, below).
      const placedOrder = (await historyOf(alex))[placed.order_number];
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
      const history = await callAs(
        t.app,
        ordersApi.ordersDetails,
        { leads_id: alex.leadsId },
        alex.cookie,
      );
      expect(history.statusCode, history.body).toBe(200);
      const orders = history.json<{ message: Lander }>().message.order_history;
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
      const id = (await historyOf(alex))[placed.order_number]?.orders_id;
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
      await share(sam, 'address', false);
      const charges = await chargeCount();
      const orders = await ordersOf(alex);
      const response = await order(alex, { shipping: claimed, ship_to_partner: true });
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
      await share(sam, 'address', true);
    });

    it('a customer with no partner cannot use it, whatever address they claim', async () => {
      const charges = await chargeCount();
      const response = await order(cy, { shipping: claimed, ship_to_partner: true });
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json()).toMatchObject({ code: 'PARTNER_ADDRESS_UNAVAILABLE' });
      expect(response.body).not.toContain(samAddress.address);
      expect(await chargeCount()).toBe(charges);
      expect(await ordersOf(cy)).toBe(0);
    });
  });

  describe('together for a visit', () => {
    let visitId = 0;

    it('is offered only from a visit a provider decided', async () => {
      const visit = await submittedEdVisit(t.app, alex);
      visitId = visit.visitId;
      // Waiting for review: not finished yet.
      expect((await overview(alex)).visit_invitations.can_send).toEqual([]);
      const early = await callAs(
        t.app,
        partnersApi.visitInvite,
        { program: 'ed', reveal_started: false },
        alex,
      );
      expect(early.statusCode, early.body).toBe(404);

      const declined = await callAs(
        t.app,
        reviewsApi.decline,
        { visit_id: visitId, reason: 'Not a good fit for this treatment today.' },
        await staffCookie(t, provider),
      );
      expect(declined.statusCode, declined.body).toBe(200);
      expect((await overview(alex)).visit_invitations.can_send).toEqual([
        { program: 'ed', pending: false },
      ]);
      // A program without a finished visit is refused plainly.
      const other = await callAs(
        t.app,
        partnersApi.visitInvite,
        { program: 'sleep', reveal_started: false },
        alex,
      );
      expect(other.statusCode, other.body).toBe(404);
      expect(other.json()).toMatchObject({
        message: 'You have no finished Sleep visit to invite Sam from.',
      });
    });

    it("the partner sees only the invitation: not the inviter's visit id, status or answers, and no email names it", async () => {
      const mailBefore = (await sentMessages(t)).filter((m) => m.to === sam.email).length;
      const sent = await callAs(
        t.app,
        partnersApi.visitInvite,
        { program: 'ed', reveal_started: false },
        alex,
      );
      expect(sent.statusCode, sent.body).toBe(200);
      expect(sent.json()).toMatchObject({ message: 'Invitation sent.' });

      const response = await callAs(t.app, partnersApi.overview, {}, sam);
      const received = response.json<{ data: PartnerOverview }>().data.visit_invitations.received;
      expect(received).toEqual([
        {
          invitation_id: expect.any(Number),
          from_first_name: 'Alex',
          program: 'ed',
          started: false,
          start_path: '/visit/ed',
          sent_at: expect.any(String),
        },
      ]);
      expect(response.body).not.toMatch(/visit_id|DECLINED|declined|APPROVED|Not a good fit/);
      expect(response.body).not.toContain(`"${visitId}"`);
      // The shared items carry nothing of it either.
      const shared = await callAs(t.app, partnersApi.shared, {}, sam);
      expect(shared.body).not.toMatch(/visit|ED|Not a good fit/);
      // No email to the partner (a program is health information).
      expect((await sentMessages(t)).filter((m) => m.to === sam.email)).toHaveLength(mailBefore);

      // At most one waiting per program per pair.
      expect((await overview(alex)).visit_invitations.can_send).toEqual([
        { program: 'ed', pending: true },
      ]);
      const again = await callAs(
        t.app,
        partnersApi.visitInvite,
        { program: 'ed', reveal_started: true },
        alex,
      );
      expect(again.statusCode, again.body).toBe(409);
      expect(again.json()).toMatchObject({
        code: 'VISIT_INVITATION_PENDING',
        message: 'Your invitation to Sam for an ED visit is already waiting for them.',
      });
      // The owner's own history records it; the partner's does not.
      expect((await overview(alex)).history[0]).toMatchObject({
        kind: 'visit_invited',
        program: 'ed',
        counterpart: 'Sam',
        quiet: true,
      });
      expect((await overview(sam)).history.some((e) => e.kind === 'visit_invited')).toBe(false);
    });

    it('only the invitee may dismiss it; then it is gone, and a new one may say the inviter started a visit', async () => {
      const id = (await overview(sam)).visit_invitations.received[0]!.invitation_id;
      for (const who of [alex, cy]) {
        const refused = await callAs(
          t.app,
          partnersApi.visitInviteDismiss,
          { invitation_id: id },
          who,
        );
        expect(refused.statusCode, refused.body).toBe(404);
      }
      const dismissed = await callAs(
        t.app,
        partnersApi.visitInviteDismiss,
        { invitation_id: id },
        sam,
      );
      expect(dismissed.statusCode, dismissed.body).toBe(200);
      expect((await overview(sam)).visit_invitations.received).toEqual([]);
      expect((await overview(sam)).history[0]).toMatchObject({
        kind: 'visit_invitation_dismissed',
        program: 'ed',
        counterpart: 'Alex',
      });
      const twice = await callAs(t.app, partnersApi.visitInviteDismiss, { invitation_id: id }, sam);
      expect(twice.statusCode).toBe(404);

      const sent = await callAs(
        t.app,
        partnersApi.visitInvite,
        { program: 'ed', reveal_started: true },
        alex,
      );
      expect(sent.statusCode, sent.body).toBe(200);
      expect((await overview(sam)).visit_invitations.received[0]).toMatchObject({
        from_first_name: 'Alex',
        started: true,
      });
    });

    it('starting a visit of the program takes it off the partner page, and the inviter still sees it waiting', async () => {
      const historyBefore = [(await overview(alex)).history, (await overview(sam)).history];
      const started = await callAs(
        t.app,
        visitsApi.startProgram,
        { leads_id: sam.leadsId, new_category: 'ed' },
        sam.cookie,
      );
      expect(started.statusCode, started.body).toBe(200);
      expect((await overview(sam)).visit_invitations.received).toEqual([]);
      // Issue 26: nothing the inviter reads changes with the partner's visits.
      expect((await overview(alex)).visit_invitations.can_send).toEqual([
        { program: 'ed', pending: true },
      ]);
      expect([(await overview(alex)).history, (await overview(sam)).history]).toEqual(
        historyBefore,
      );
      const again = await callAs(
        t.app,
        partnersApi.visitInvite,
        { program: 'ed', reveal_started: false },
        alex,
      );
      expect(again.statusCode, again.body).toBe(409);
    });

    it('a customer who is not linked cannot send one', async () => {
      const response = await callAs(
        t.app,
        partnersApi.visitInvite,
        { program: 'ed', reveal_started: false },
        cy,
      );
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json()).toMatchObject({ message: 'You are not linked with a partner.' });
    });
  });

  describe('after an unlink', () => {
    it('the order to the partner stays as placed, no new order may ship there, and pending visit invitations end', async () => {
      const unlinked = await callAs(t.app, partnersApi.unlink, { notify: false }, sam);
      expect(unlinked.statusCode, unlinked.body).toBe(200);

      // History: the order still says where it went, for the customer and for operations.
      const history = await callAs(
        t.app,
        ordersApi.ordersDetails,
        { leads_id: alex.leadsId },
        alex.cookie,
      );
      const toSam = Object.values(history.json<{ message: Lander }>().message.order_history).filter(
        (o) => o.ship_to_partner,
      );
      expect(toSam).toHaveLength(1);
      expect(toSam[0]?.shippingAddress).toMatchObject({ address: samAddress.address });

      // No new order ships to the ex-partner: nothing charged, the cart kept.
      const charges = await chargeCount();
      const response = await order(alex, { shipping: claimed, ship_to_partner: true });
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json()).toMatchObject({ code: 'PARTNER_ADDRESS_UNAVAILABLE' });
      expect(await chargeCount()).toBe(charges);
      expect(await cartCount(alex)).toBeGreaterThan(0);

      // The visit invitation waiting for Sam ended with the link.
      expect((await overview(sam)).visit_invitations).toEqual({ can_send: [], received: [] });
      const rows = await t.app.db
        .selectFrom('partner_visit_invitations')
        .select('status')
        .where('inviter_id', '=', alex.customerId)
        .execute();
      expect(rows.map((r) => r.status).sort()).toEqual(['dismissed', 'ended']);
      const late = await callAs(
        t.app,
        partnersApi.visitInvite,
        { program: 'ed', reveal_started: false },
        alex,
      );
      expect(late.statusCode, late.body).toBe(404);
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
      await order(dee, { shipping: { ...deeAddress, phoneNo: '5035550144' } });
      await order(eve, { shipping: { ...eveAddress, phoneNo: '5035550155' } });
      await link(dee, eve);
      await share(dee, 'address', true);
      await share(eve, 'address', true);
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

      await share(eve, 'address', false);
      // Gone from the database with the change itself, before any reload asks.
      expect(await kept(dee)).not.toContain(eveAddress.address);
      expect(await progressOf(dee)).toBeNull();
      // Eve's own checkout, to her own address, is hers and stays.
      expect(await progressOf(eve)).toMatchObject({ step: 'upsell' });

      // A tab still open on "Ship to Eve" cannot keep her address again.
      await save(dee, toPartner(eveAddress));
      expect(await kept(dee)).not.toContain(eveAddress.address);
      expect(await progressOf(dee)).toBeNull();
      await share(eve, 'address', true);
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
