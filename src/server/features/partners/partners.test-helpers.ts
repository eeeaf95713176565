import { expect } from 'vitest';
import { accountsApi } from '#shared/accounts.ts';
import { cartApi } from '#shared/cart.ts';
import { offers } from '#shared/catalog.ts';
import { checkoutApi } from '#shared/checkout.ts';
import type { BodyOf } from '#shared/contract.ts';
import { ordersApi, type Lander } from '#shared/orders.ts';
import { partnersApi, type PartnerOverview, type SharingItem } from '#shared/partners.ts';
import {
  togetherApi,
  type ShipTo,
  type TogetherItem,
  type TogetherOverview,
} from '#shared/partners-together.ts';
import { subscriptionsApi, type Subscription } from '#shared/subscriptions.ts';
import type { TestApp } from '#test/app.ts';
import { callAs, dataAs } from '#test/contract.ts';
import {
  buildPlaceOrder,
  insertCustomer,
  type PlaceOrderBody,
  type TestCustomer,
} from '#test/factories.ts';
import { sentMessages } from '#test/outbox.ts';

// What the partners tests do on their way to what they test, each through the API as a customer
// would: the partner page, linking, sharing, buying, and giving or proposing gifts and plans.

// --- The link ------------------------------------------------------------------------------------

/** The partner page as the customer reads it; with an invitation's token, as its link opens it. */
export async function partnerPage(
  t: TestApp,
  c: TestCustomer,
  inviteToken?: string,
): Promise<PartnerOverview> {
  const response = await callAs(
    t.app,
    partnersApi.overview,
    inviteToken ? { invite_token: inviteToken } : {},
    c,
  );
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: PartnerOverview }>().data;
}

/** Invites `email`: the invitation's id, as the inviter's page shows it waiting. */
export async function invite(t: TestApp, from: TestCustomer, email: string): Promise<number> {
  const response = await callAs(t.app, partnersApi.invite, { email }, from);
  expect(response.statusCode, response.body).toBe(200);
  const sent = (await partnerPage(t, from)).sent;
  expect(sent).toMatchObject({ email: email.toLowerCase(), status: 'pending' });
  return sent!.invitation_id;
}

/** Accepts the invitation (with its emailed link's token, when given): the two are linked. */
export async function acceptInvitation(
  t: TestApp,
  c: TestCustomer,
  id: number,
  inviteToken?: string,
): Promise<void> {
  const accepted = await callAs(
    t.app,
    partnersApi.accept,
    { invitation_id: id, ...(inviteToken ? { invite_token: inviteToken } : {}) },
    c,
  );
  expect(accepted.statusCode, accepted.body).toBe(200);
}

/** `a` invites `b`, who accepts: the two are linked, sharing nothing. */
export async function link(t: TestApp, a: TestCustomer, b: TestCustomer): Promise<void> {
  await acceptInvitation(t, b, await invite(t, a, b.email));
}

/** Turns one sharing switch, answering whatever the server answered. */
export const setSharing = (t: TestApp, c: TestCustomer, item: SharingItem, shared: boolean) =>
  callAs(t.app, partnersApi.sharing, { item, shared }, c);

/** Turns one sharing switch of a linked customer. */
export async function share(t: TestApp, c: TestCustomer, item: SharingItem, shared: boolean) {
  const response = await setSharing(t, c, item, shared);
  expect(response.statusCode, response.body).toBe(200);
}

/** The emails to `to` about partners, once the outbox has sent what was due. */
export async function partnerMailTo(t: TestApp, to: string) {
  return (await sentMessages(t)).filter((m) => m.to === to && /partner|link/i.test(m.subject));
}

// --- What a customer has -------------------------------------------------------------------------

/** The customer's orders as their order history lists them (the orders feature's own answer). */
export async function orderHistory(t: TestApp, c: TestCustomer): Promise<Lander['order_history']> {
  const history = await callAs(
    t.app,
    ordersApi.ordersDetails,
    { leads_id: c.leadsId, limit: 50 },
    c.cookie,
  );
  expect(history.statusCode, history.body).toBe(200);
  return history.json<{ message: Lander }>().message.order_history;
}

/** The customer's Subscriptions page (gifts and plans show there only while they run). */
export async function subscriptionsOf(t: TestApp, c: TestCustomer): Promise<Subscription[]> {
  const listed = await callAs(
    t.app,
    subscriptionsApi.subscriptions,
    { leads_id: c.leadsId },
    c.cookie,
  );
  expect(listed.statusCode, listed.body).toBe(200);
  return listed.json<{ data: { subscriptions: Subscription[] } }>().data.subscriptions;
}

/** Sleep Gummies every quarter through the cart and checkout: a store order and a subscription. */
export async function orderSleep(
  t: TestApp,
  c: TestCustomer,
  overrides: Partial<PlaceOrderBody> = {},
) {
  await callAs(
    t.app,
    cartApi.addProduct,
    { product_id: offers.sleep.quarterly, quantity: 1 },
    c.cookie,
  );
  return callAs(t.app, checkoutApi.placeOrder, { ...buildPlaceOrder(), ...overrides }, c.cookie);
}

/** A shipping address in Portland and a billing address in Salem, on the customer's account. */
export async function saveAddresses(
  t: TestApp,
  c: TestCustomer,
  street: string,
  billingStreet = street,
): Promise<void> {
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

/**
 * Alex linked with Sam, each with a shipping address on file from a store order of their own (Sam's
 * placed with `samOrder`), and Cy, linked to nobody.
 */
export async function household(t: TestApp, samOrder: Partial<PlaceOrderBody> = {}) {
  const alex = await insertCustomer(t.app, { first_name: 'Alex', last_name: 'Quinn' });
  const sam = await insertCustomer(t.app, { first_name: 'Sam', last_name: 'Rivera' });
  const cy = await insertCustomer(t.app, { first_name: 'Cy', last_name: 'Third' });
  await orderSleep(t, sam, samOrder);
  await orderSleep(t, alex);
  await link(t, alex, sam);
  return { alex, sam, cy };
}

// --- Gifts and couples' plans --------------------------------------------------------------------

/** Gifts and plans as the customer's partner page reads them. */
export const togetherOf = (t: TestApp, c: TestCustomer): Promise<TogetherOverview> =>
  dataAs(t.app, togetherApi.overview, {}, c);

/**
 * Alex (card and addresses on file) linked with Sam (a shipping and a billing address, no card),
 * and Casey, linked to neither, with a card and an address of their own.
 */
export async function couple(t: TestApp) {
  const alex = await insertCustomer(t.app, { first_name: 'Alex', last_name: 'Giver' });
  const sam = await insertCustomer(t.app, { first_name: 'Sam', last_name: 'Getter' });
  const casey = await insertCustomer(t.app, { first_name: 'Casey', last_name: 'Other' });
  await saveAddresses(t, alex, '1 Payer Road');
  await saveAddresses(t, sam, '2 Home Lane', '3 Office Park');
  await saveAddresses(t, casey, '4 Elsewhere St');
  for (const c of [alex, casey])
    await dataAs(
      t.app,
      accountsApi.ccUpdate,
      { ccnum: '4242424242424242', ccexp: '12/30', cccvv: '123', consent: true },
      c.cookie,
    );
  await link(t, alex, sam);
  return { alex, sam, casey };
}

/** `from` gives their partner Sleep Gummies every quarter: the gift, waiting for an answer. */
export async function giveGift(t: TestApp, from: TestCustomer): Promise<TogetherItem> {
  return (
    await dataAs(t.app, togetherApi.give, { product_id: offers.sleep.quarterly, quantity: 1 }, from)
  ).item;
}

/** The gift's recipient accepts it, shipped to the address they choose. */
export async function acceptGift(
  t: TestApp,
  gift: TogetherItem,
  recipient: TestCustomer,
  shipTo: ShipTo,
): Promise<void> {
  const accepted = await callAs(
    t.app,
    togetherApi.accept,
    { together_id: gift.together_id, ship_to: shipTo },
    recipient,
  );
  expect(accepted.statusCode, accepted.body).toBe(200);
}

/** Proposes a monthly couples' plan: Sleep Gummies for `from`, Immunity Gummies for the partner. */
export const proposePlan = (
  t: TestApp,
  from: TestCustomer,
  lines: Partial<BodyOf<typeof togetherApi.startPlan>> = {},
) =>
  callAs(
    t.app,
    togetherApi.startPlan,
    {
      product_id: offers.sleep.monthly,
      quantity: 1,
      partner_product_id: offers.immunity.monthly,
      partner_quantity: 1,
      ...lines,
    },
    from,
  );

/** Not found, and saying nothing of the couple's names or addresses. */
export async function expectNotFound(
  response: Promise<{ statusCode: number; body: string }>,
): Promise<void> {
  const answer = await response;
  expect(answer.statusCode, answer.body).toBe(404);
  expect(answer.body).not.toMatch(/Alex|Sam|Home Lane|Office Park|Payer Road/);
}
