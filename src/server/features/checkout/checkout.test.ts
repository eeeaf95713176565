import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCoupons } from '#server/features/coupons/coupons.queries.ts';
import { accountsApi } from '#shared/accounts.ts';
import { cartApi, type Cart } from '#shared/cart.ts';
import { offers } from '#shared/catalog.ts';
import {
  checkoutApi,
  type CheckoutProgress,
  type PlacedOrder,
  type Upsell,
} from '#shared/checkout.ts';
import { clicksApi } from '#shared/clicks.ts';
import { ordersApi } from '#shared/orders.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs, malformed } from '#test/contract.ts';
import {
  buildPlaceOrder,
  insertCustomer,
  type PlaceOrderBody,
  type TestCustomer,
} from '#test/factories.ts';
import { sentMessages } from '#test/outbox.ts';

/** A product id the catalogue does not have. */
const UNKNOWN_PRODUCT = 999;

describe(`cart and checkout (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    await insertCoupons(t.app.db, [
      {
        code: 'WELCOME10',
        description: '10% off your first order',
        kind: 'percent',
        value: 10,
        minSubtotalCents: null,
        expiresAt: null,
        usageLimit: null,
        firstOrderOnly: true,
        active: true,
      },
      {
        code: 'GUMMY5',
        description: '$5.00 off orders of $30.00 or more',
        kind: 'fixed',
        value: 500,
        minSubtotalCents: 3000,
        expiresAt: null,
        usageLimit: null,
        firstOrderOnly: false,
        active: true,
      },
      {
        code: 'SUMMER25',
        description: '25% off',
        kind: 'percent',
        value: 25,
        minSubtotalCents: null,
        expiresAt: '2026-09-01T00:00:00.000Z',
        usageLimit: null,
        firstOrderOnly: false,
        active: true,
      },
      {
        code: 'ONCE',
        description: '$1.00 off',
        kind: 'fixed',
        value: 100,
        minSubtotalCents: null,
        expiresAt: null,
        usageLimit: 1,
        firstOrderOnly: false,
        active: true,
      },
      {
        code: 'RETIRED',
        description: 'old',
        kind: 'fixed',
        value: 100,
        minSubtotalCents: null,
        expiresAt: null,
        usageLimit: null,
        firstOrderOnly: false,
        active: false,
      },
    ]);
  });
  afterAll(() => t.close());

  const cartOf = async (c: TestCustomer) =>
    (await callAs(t.app, cartApi.cart, {}, c)).json<{ data: { cart: Cart } }>().data.cart;
  // A second passes between additions, as it would between a customer's clicks.
  const add = (c: TestCustomer, productId: number, quantity = 1) => {
    t.clock.advance(1000);
    return callAs(t.app, cartApi.addProduct, { product_id: productId, quantity }, c);
  };
  const orderCount = async (customerId: number) =>
    (
      await t.app.db
        .selectFrom('orders')
        .select('id')
        .where('customer_id', '=', customerId)
        .execute()
    ).length;
  const chargeCount = async () =>
    (
      await t.app.db
        .selectFrom('simulator_charges')
        .select('id')
        .where('status', '=', 'succeeded')
        .execute()
    ).length;

  it('prices the cart on the server from the catalogue', async () => {
    const c = await insertCustomer(t.app);
    await add(c, offers.sleep.monthly);
    await add(c, offers.biotin.oneTime, 2);
    const cart = await cartOf(c);
    expect(
      cart.products.items.map((i) => [i.product_id, i.quantity, i.price_cents, i.line_total_cents]),
    ).toEqual([
      [offers.sleep.monthly, 1, 1750, 1750],
      [offers.biotin.oneTime, 2, 2499, 4998],
    ]);
    expect(cart).toMatchObject({
      item_count: 3,
      subtotal_cents: 6748,
      discount_cents: 0,
      shipping_cents: 0,
      tax_cents: 0,
      total_cents: 6748,
    });
  });

  it('ignores nothing silently: a client-sent price is refused, never used', async () => {
    const c = await insertCustomer(t.app);
    const withPrice = await callAs(
      t.app,
      cartApi.addProduct,
      malformed({ product_id: offers.sleep.oneTime, quantity: 1, price: 0.01 }),
      c,
    );
    expect(withPrice.statusCode).toBe(400);
    expect(withPrice.json()).toMatchObject({ fields: { price: 'Unknown field' } });
    await add(c, offers.sleep.oneTime);
    const order = await callAs(
      t.app,
      checkoutApi.placeOrder,
      malformed({ ...buildPlaceOrder(), total_cents: 1 }),
      c,
    );
    expect(order.statusCode).toBe(400);
    expect(await orderCount(c.customerId)).toBe(0);
    const placed = await callAs(t.app, checkoutApi.placeOrder, buildPlaceOrder(), c);
    expect(placed.json<{ data: PlacedOrder }>().data.total_cents).toBe(2499);
  });

  it('the bundle is one-time only, without quantity; quantities stop at 10', async () => {
    const c = await insertCustomer(t.app);
    await add(c, offers.bundle.oneTime, 3);
    await add(c, offers.bundle.oneTime, 1);
    expect((await cartOf(c)).products.items).toMatchObject([
      { product_id: offers.bundle.oneTime, quantity: 1, quantity_supported: false },
    ]);
    await add(c, offers.sleep.oneTime, 9);
    const tooMany = await add(c, offers.sleep.oneTime, 2);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({ message: 'You can order up to 10 at a time' });
    const unknown = await add(c, UNKNOWN_PRODUCT);
    expect(unknown.statusCode).toBe(404);
  });

  it("a customer's cart can be neither read nor changed by another", async () => {
    const a = await insertCustomer(t.app);
    const b = await insertCustomer(t.app);
    await add(a, offers.immunity.oneTime, 2);
    expect((await cartOf(b)).item_count).toBe(0);
    await callAs(t.app, cartApi.removeProduct, { product_id: offers.immunity.oneTime }, b);
    await callAs(
      t.app,
      cartApi.updateCart,
      { mode: 'set', items: [{ product_id: offers.immunity.oneTime, quantity: 0 }] },
      b,
    );
    expect((await cartOf(a)).products.items).toMatchObject([
      { product_id: offers.immunity.oneTime, quantity: 2 },
    ]);
    const visitor = await callAs(t.app, cartApi.cart, {});
    expect(visitor.statusCode).toBe(401);
  });

  it('merges a browser cart into the account cart at log-in, and sets quantities', async () => {
    const c = await insertCustomer(t.app);
    await add(c, offers.sleep.oneTime, 1);
    t.clock.advance(1000);
    const merged = await callAs(
      t.app,
      cartApi.updateCart,
      {
        mode: 'merge',
        items: [
          { product_id: offers.sleep.oneTime, quantity: 2 },
          { product_id: offers.immunity.monthly, quantity: 1 },
          { product_id: UNKNOWN_PRODUCT, quantity: 1 },
        ],
      },
      c,
    );
    expect(
      merged
        .json<{ data: { cart: Cart } }>()
        .data.cart.products.items.map((i) => [i.product_id, i.quantity]),
    ).toEqual([
      [offers.sleep.oneTime, 3],
      [offers.immunity.monthly, 1],
    ]);
    const set = await callAs(
      t.app,
      cartApi.updateCart,
      { mode: 'set', items: [{ product_id: offers.sleep.oneTime, quantity: 0 }] },
      c,
    );
    expect(
      set.json<{ data: { cart: Cart } }>().data.cart.products.items.map((i) => i.product_id),
    ).toEqual([offers.immunity.monthly]);
  });

  it.each([
    ['NOPE', 'That coupon code is not valid.'],
    ['RETIRED', 'That coupon code is not valid.'],
    ['SUMMER25', 'This coupon expired on Sep 01, 2026.'],
    ['GUMMY5', 'This coupon needs a subtotal of at least $30.00.'],
  ])('coupon %s is refused with %j', async (code, message) => {
    const c = await insertCustomer(t.app);
    await add(c, offers.sleep.oneTime);
    const response = await callAs(t.app, cartApi.applyCoupon, { code }, c);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message, fields: { code: message } });
    expect((await cartOf(c)).coupon).toBeNull();
  });

  it('a first-order coupon is refused after a first order; a used-up coupon says so', async () => {
    const c = await insertCustomer(t.app);
    await add(c, offers.sleep.oneTime);
    expect((await callAs(t.app, cartApi.applyCoupon, { code: 'welcome10' }, c)).statusCode).toBe(
      200,
    );
    await callAs(t.app, checkoutApi.placeOrder, buildPlaceOrder(), c);
    await add(c, offers.sleep.oneTime);
    const again = await callAs(t.app, cartApi.applyCoupon, { code: 'WELCOME10' }, c);
    expect(again.json()).toMatchObject({ message: 'This coupon is for your first order only.' });

    const first = await insertCustomer(t.app);
    await add(first, offers.sleep.oneTime);
    await callAs(t.app, cartApi.applyCoupon, { code: 'ONCE' }, first);
    expect((await callAs(t.app, checkoutApi.placeOrder, buildPlaceOrder(), first)).statusCode).toBe(
      200,
    );
    const second = await insertCustomer(t.app);
    await add(second, offers.sleep.oneTime);
    const usedUp = await callAs(t.app, cartApi.applyCoupon, { code: 'ONCE' }, second);
    expect(usedUp.json()).toMatchObject({ message: 'This coupon has reached its usage limit.' });
  });

  it('a percent and a fixed coupon take the right amount off, and /coupon/code answers a visitor', async () => {
    const c = await insertCustomer(t.app);
    await add(c, offers.sleep.oneTime, 2);
    const pct = await callAs(t.app, cartApi.applyCoupon, { code: 'WELCOME10' }, c);
    expect(pct.json<{ data: { cart: Cart } }>().data.cart).toMatchObject({
      subtotal_cents: 4998,
      discount_cents: 499,
      total_cents: 4499,
      coupon: { code: 'WELCOME10' },
    });
    const fixed = await callAs(t.app, cartApi.applyCoupon, { code: 'GUMMY5' }, c);
    expect(fixed.json<{ data: { cart: Cart } }>().data.cart).toMatchObject({
      discount_cents: 500,
      total_cents: 4498,
    });
    const visitor = await callAs(t.app, cartApi.couponCode, {
      code: 'GUMMY5',
      subtotal_cents: 2499,
    });
    expect(visitor.json()).toMatchObject({
      status: 'FAILURE',
      message: 'This coupon needs a subtotal of at least $30.00.',
    });
    const ok = await callAs(t.app, cartApi.couponCode, { code: 'GUMMY5', subtotal_cents: 4998 });
    expect(ok.json()).toMatchObject({ status: 'SUCCESS', data: { discount_cents: 500 } });
  });

  it('places the order: lines copy the catalogue, monthly lines start subscriptions, the cart empties, an email confirms', async () => {
    const c = await insertCustomer(t.app);
    await add(c, offers.sleep.monthly);
    await add(c, offers.biotin.oneTime, 2);
    await callAs(t.app, cartApi.applyCoupon, { code: 'WELCOME10' }, c);
    const response = await callAs(t.app, checkoutApi.placeOrder, buildPlaceOrder(), c);
    expect(response.statusCode).toBe(200);
    const placed = response.json<{ data: PlacedOrder }>().data;
    expect(placed).toMatchObject({
      order_number: expect.stringMatching(/^PW-\d+$/),
      total_cents: 6074,
      subscriptions: 1,
    });
    const items = await t.app.db
      .selectFrom('order_items')
      .selectAll()
      .where('order_id', '=', placed.orders_id)
      .orderBy('id')
      .execute();
    expect(
      items.map((i) => [
        i.product_id,
        i.product_name,
        i.product_image,
        i.unit_price_cents,
        i.quantity,
        i.category,
      ]),
    ).toEqual([
      [offers.sleep.monthly, 'Sleep Gummies', '/images/supp-sleep.webp', 1750, 1, 'supplements'],
      [offers.biotin.oneTime, 'Biotin Gummies', '/images/supp-biotin.webp', 2499, 2, 'supplements'],
    ]);
    const subs = await t.app.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('customer_id', '=', c.customerId)
      .execute();
    expect(subs).toMatchObject([
      {
        product_id: offers.sleep.monthly,
        frequency: 'MONTHLY',
        status: 'ACTIVE',
        next_billing_date: '2026-12-21',
        unit_price_cents: 1750,
      },
    ]);
    expect((await cartOf(c)).item_count).toBe(0);
    const mail = (await sentMessages(t)).find(
      (m) => m.to === c.email && m.subject.includes(placed.order_number),
    );
    // An itemised receipt: each item says what arrives, in bottles, then the sums.
    const receipt = [
      'Sleep Gummies — 1 bottle a month: $17.50/month',
      'Biotin Gummies — 2 bottles, 2 × $24.99: $49.98',
      'Subtotal: $67.48',
      'Discount (WELCOME10): −$6.74',
      'Shipping: Free',
      'Tax: $0.00',
      'Total charged: $60.74',
    ];
    expect(mail?.text).toContain(receipt.join('\n'));
    expect(mail?.text).toContain('Charged to your card on file on ');
    const history = await callAs(t.app, ordersApi.ordersDetails, { leads_id: c.leadsId }, c);
    expect(
      Object.keys(history.json<{ message: { order_history: object } }>().message.order_history),
    ).toEqual([placed.order_number]);
    // The card used became the card on file, as number-free as ever.
    const account = await callAs(t.app, accountsApi.accountData, { leads_id: c.leadsId }, c);
    expect(account.json()).toMatchObject({
      data: { card: { last4: '4242' }, shipping: { address: '500 Market Street' } },
    });
  });

  it('the confirmation says the bottles that arrive: three a quarter, one of each in the bundle', async () => {
    const c = await insertCustomer(t.app);
    await add(c, offers.sleep.quarterly);
    await add(c, offers.bundle.oneTime);
    const response = await callAs(t.app, checkoutApi.placeOrder, buildPlaceOrder(), c);
    expect(response.statusCode).toBe(200);
    const placed = response.json<{ data: PlacedOrder }>().data;
    const mail = (await sentMessages(t)).find(
      (m) => m.to === c.email && m.subject.includes(placed.order_number),
    );
    expect(mail?.text).toContain('Sleep Gummies — 3 bottles every 3 months: $45.00/quarterly');
    expect(mail?.text).toContain(
      'Holiday Bundle Special (Sleep, Hair, and Immunity Gummies) — 3 bottles, one of each: $24.99',
    );
    expect(mail?.text).not.toContain('1 bottle');
  });

  it('a declined card shows the reason, keeps the cart and creates no order', async () => {
    const c = await insertCustomer(t.app);
    await add(c, offers.sleep.oneTime);
    const response = await callAs(
      t.app,
      checkoutApi.placeOrder,
      {
        ...buildPlaceOrder(),
        payment: { method: 'card', ccnum: '4000 0000 0000 0002', ccexp: '12/30', cccvv: '123' },
      },
      c,
    );
    expect(response.statusCode).toBe(402);
    expect(response.json()).toMatchObject({ message: 'Your card was declined.' });
    expect(await orderCount(c.customerId)).toBe(0);
    expect((await cartOf(c)).item_count).toBe(1);

    const insufficient = await callAs(
      t.app,
      checkoutApi.placeOrder,
      {
        ...buildPlaceOrder(),
        payment: { method: 'card', ccnum: '4000 0000 0000 9995', ccexp: '12/30', cccvv: '123' },
      },
      c,
    );
    expect(insufficient.statusCode).toBe(402);
    expect(insufficient.json()).toMatchObject({ message: 'Your card has insufficient funds.' });
    expect(await orderCount(c.customerId)).toBe(0);
    expect((await cartOf(c)).item_count).toBe(1);
    // And the next attempt with a good card goes through.
    const ok = await callAs(t.app, checkoutApi.placeOrder, buildPlaceOrder(), c);
    expect(ok.statusCode).toBe(200);
  });

  it('20 concurrent place-order calls with one key make exactly one order and one charge', async () => {
    const c = await insertCustomer(t.app);
    await add(c, offers.sleep.oneTime, 2);
    const charges = await chargeCount();
    const body: PlaceOrderBody = { ...buildPlaceOrder(), payment: { method: 'saved' } };
    await callAs(
      t.app,
      accountsApi.ccUpdate,
      { ccnum: '4242424242424242', ccexp: '12/30', cccvv: '123', consent: true },
      c,
    );
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => callAs(t.app, checkoutApi.placeOrder, body, c)),
    );
    const ok = responses.filter((r) => r.statusCode === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(responses.every((r) => r.statusCode === 200 || r.statusCode === 409)).toBe(true);
    expect(new Set(ok.map((r) => r.json<{ data: PlacedOrder }>().data.order_number)).size).toBe(1);
    expect(await orderCount(c.customerId)).toBe(1);
    expect((await chargeCount()) - charges).toBe(1);
    // A retry later answers with the same order.
    const retry = await callAs(t.app, checkoutApi.placeOrder, body, c);
    expect(retry.json<{ data: PlacedOrder }>().data.order_number).toBe(
      ok[0]?.json<{ data: PlacedOrder }>().data.order_number,
    );
  });

  it('20 concurrent calls from two tabs (different keys) still make one order and one charge', async () => {
    const c = await insertCustomer(t.app);
    await add(c, offers.immunity.oneTime);
    await callAs(
      t.app,
      accountsApi.ccUpdate,
      { ccnum: '4242424242424242', ccexp: '12/30', cccvv: '123', consent: true },
      c,
    );
    const charges = await chargeCount();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        callAs(
          t.app,
          checkoutApi.placeOrder,
          { ...buildPlaceOrder(), payment: { method: 'saved' } },
          c,
        ),
      ),
    );
    expect(responses.every((r) => [200, 400, 409].includes(r.statusCode))).toBe(true);
    expect(await orderCount(c.customerId)).toBe(1);
    expect((await chargeCount()) - charges).toBe(1);
  });

  it('an empty cart cannot be ordered; a visitor cannot order', async () => {
    const c = await insertCustomer(t.app);
    const empty = await callAs(t.app, checkoutApi.placeOrder, buildPlaceOrder(), c);
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ message: 'Your cart is empty.' });
    expect((await callAs(t.app, checkoutApi.placeOrder, buildPlaceOrder())).statusCode).toBe(401);
  });

  it.each([
    [{ consent: false }, 'consent', 'Continue your payment by checking the box above'],
    [
      { payment: { method: 'card', ccnum: '42424242424242424', ccexp: '12/30', cccvv: '123' } },
      'payment.ccnum',
      'Max 16 digits allowed',
    ],
    [
      { payment: { method: 'card', ccnum: '4242424242424242', ccexp: '1/30', cccvv: '123' } },
      'payment.ccexp',
      'Not a valid expiration date',
    ],
    [
      { payment: { method: 'card', ccnum: '4242424242424242', ccexp: '12/30', cccvv: '' } },
      'payment.cccvv',
      'Card security code is Required',
    ],
    [
      {
        shipping: {
          address: '1 A St',
          address2: '',
          city: 'Portland',
          state: 'OR',
          zip: '9720',
          phoneNo: '5035550199',
        },
      },
      'shipping.zip',
      'Invalid ZIP code format',
    ],
    [
      {
        shipping: {
          address: '1 A St',
          address2: '',
          city: 'Portland',
          state: 'ME',
          zip: '97204',
          phoneNo: '5035550199',
        },
      },
      'shipping.zip',
      "This ZIP code isn't in Maine.",
    ],
    [
      {
        billing: {
          address: '1 A St',
          address2: '',
          city: 'New York',
          state: 'CA',
          zip: '10001',
        },
      },
      'billing.zip',
      "This ZIP code isn't in California.",
    ],
    [
      {
        shipping: {
          address: '',
          address2: '',
          city: 'Portland',
          state: 'OR',
          zip: '97204',
          phoneNo: '5035550199',
        },
      },
      'shipping.address',
      'Field required',
    ],
  ])('checkout refuses %j: %s says %j', async (change, field, message) => {
    const c = await insertCustomer(t.app);
    await add(c, offers.sleep.oneTime);
    const response = await callAs(
      t.app,
      checkoutApi.placeOrder,
      malformed(buildPlaceOrder(change)),
      c,
    );
    expect(response.statusCode).toBe(400);
    expect(response.json<{ fields: Record<string, string> }>().fields[field]).toBe(message);
    expect(await orderCount(c.customerId)).toBe(0);
  });

  describe('the checkout progress a reload or a new tab goes on from', () => {
    const progressOf = async (c: TestCustomer) =>
      (await callAs(t.app, checkoutApi.progress, {}, c)).json<{
        data: { progress: CheckoutProgress | null };
      }>().data.progress;
    const shipping = buildPlaceOrder().shipping;

    it('keeps the step and address for the customer alone, and forgets them once ordered', async () => {
      const c = await insertCustomer(t.app);
      const other = await insertCustomer(t.app);
      expect(await progressOf(c)).toBeNull();
      const saved = await callAs(t.app, checkoutApi.saveProgress, { step: 'upsell', shipping }, c);
      expect(saved.statusCode).toBe(200);
      expect(await progressOf(c)).toEqual({ step: 'upsell', shipping });
      // Saving again replaces it (one row per customer).
      await callAs(t.app, checkoutApi.saveProgress, { step: 'payment', shipping }, c);
      expect(await progressOf(c)).toEqual({ step: 'payment', shipping });
      // Nobody else reads it, and a visitor has none to read.
      expect(await progressOf(other)).toBeNull();
      expect((await callAs(t.app, checkoutApi.progress, {})).statusCode).toBe(401);

      await add(c, offers.sleep.monthly);
      const placed = await callAs(t.app, checkoutApi.placeOrder, buildPlaceOrder(), c);
      expect(placed.statusCode).toBe(200);
      expect(await progressOf(c)).toBeNull();
    });

    it('checks the address with the messages of spec §5 and keeps nothing that fails', async () => {
      const c = await insertCustomer(t.app);
      const response = await callAs(
        t.app,
        checkoutApi.saveProgress,
        { step: 'upsell', shipping: { ...shipping, zip: '12', phoneNo: '' } },
        c,
      );
      expect(response.statusCode).toBe(400);
      expect(
        Object.keys(response.json<{ fields: Record<string, string> }>().fields).sort(),
      ).toEqual(['shipping.phoneNo', 'shipping.zip']);
      const badStep = await callAs(
        t.app,
        checkoutApi.saveProgress,
        malformed({ step: 'done', shipping }),
        c,
      );
      expect(badStep.statusCode).toBe(400);
      expect(await progressOf(c)).toBeNull();
    });

    it('a checkout left alone for more than a week starts again', async () => {
      const c = await insertCustomer(t.app);
      await callAs(t.app, checkoutApi.saveProgress, { step: 'payment', shipping }, c);
      // Left alone: the row ages (the session would not last a week of the test clock).
      const aged = (days: number) =>
        t.app.db
          .updateTable('checkout_progress')
          .set({ updated_at: new Date(t.clock.now().getTime() - days * 86_400_000).toISOString() })
          .where('customer_id', '=', c.customerId)
          .execute();
      await aged(6);
      expect(await progressOf(c)).not.toBeNull();
      await aged(8);
      expect(await progressOf(c)).toBeNull();
    });
  });

  it('offers the bundle and a subscription switch at the upsell step', async () => {
    const c = await insertCustomer(t.app);
    await add(c, offers.biotin.oneTime, 2);
    const response = await callAs(t.app, checkoutApi.upsells, {}, c);
    const upsells = response.json<{ data: { offers: Upsell[] } }>().data.offers;
    expect(upsells.map((o) => [o.kind, o.product_id, o.replaces_product_id])).toEqual([
      ['switch_to_subscription', offers.biotin.monthly, offers.biotin.oneTime],
      ['add_product', offers.bundle.oneTime, null],
    ]);
    expect(upsells[0]?.savings_cents).toBe(1498);
  });

  it('registers a click with the connection address and keeps it on the order', async () => {
    const click = await callAs(
      t.app,
      clicksApi.clickCreate,
      {
        a: 'aff1',
        s1: 'spring',
        url: 'https://pairwell.example/?a=aff1',
        referrer: '',
        user_agent: 'Mozilla/5.0',
        device_type: 'mobile',
        ip_address: '6.6.6.6',
      },
      undefined,
      { remoteAddress: '127.0.0.9' },
    );
    const clickId = click.json<{ click_id: string }>().click_id;
    expect(clickId).toMatch(/^c[0-9a-f]{20}$/);
    const stored = await t.app.db
      .selectFrom('clicks')
      .selectAll()
      .where('id', '=', clickId)
      .executeTakeFirstOrThrow();
    expect(stored.ip_address).toBe('127.0.0.9');
    const c = await insertCustomer(t.app);
    await add(c, offers.sleep.oneTime);
    const placed = await callAs(
      t.app,
      checkoutApi.placeOrder,
      buildPlaceOrder({ click_id: clickId }),
      c,
    );
    const order = await t.app.db
      .selectFrom('orders')
      .select('click_id')
      .where('id', '=', placed.json<{ data: PlacedOrder }>().data.orders_id)
      .executeTakeFirstOrThrow();
    expect(order.click_id).toBe(clickId);
  });
});
