import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCoupons } from '#server/features/coupons/coupons.queries.ts';
import type { Cart } from '#shared/cart.ts';
import type { CheckoutProgress, PlacedOrder, Upsell } from '#shared/checkout.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { buildPlaceOrder, insertCustomer, post, type TestCustomer } from '#test/factories.ts';
import { sentMessages } from '#test/outbox.ts';

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
    (await post(t.app, '/lapi/v2/ecom/cart', {}, c.cookie)).json<{ data: { cart: Cart } }>().data
      .cart;
  // A second passes between additions, as it would between a customer's clicks.
  const add = (c: TestCustomer, productId: number, quantity = 1) => {
    t.clock.advance(1000);
    return post(t.app, '/lapi/v2/ecom/add-product', { product_id: productId, quantity }, c.cookie);
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
    await add(c, 41);
    await add(c, 30, 2);
    const cart = await cartOf(c);
    expect(
      cart.products.items.map((i) => [i.product_id, i.quantity, i.price_cents, i.line_total_cents]),
    ).toEqual([
      [41, 1, 1750, 1750],
      [30, 2, 2499, 4998],
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
    const withPrice = await post(
      t.app,
      '/lapi/v2/ecom/add-product',
      { product_id: 40, quantity: 1, price: 0.01 },
      c.cookie,
    );
    expect(withPrice.statusCode).toBe(400);
    expect(withPrice.json()).toMatchObject({ fields: { price: 'Unknown field' } });
    await add(c, 40);
    const order = await post(
      t.app,
      '/lapi/v2/ecom/place-order',
      { ...buildPlaceOrder(), total_cents: 1 },
      c.cookie,
    );
    expect(order.statusCode).toBe(400);
    expect(await orderCount(c.customerId)).toBe(0);
    const placed = await post(t.app, '/lapi/v2/ecom/place-order', buildPlaceOrder(), c.cookie);
    expect(placed.json<{ data: PlacedOrder }>().data.total_cents).toBe(2499);
  });

  it('the bundle is one-time only, without quantity; quantities stop at 10', async () => {
    const c = await insertCustomer(t.app);
    await add(c, 160, 3);
    await add(c, 160, 1);
    expect((await cartOf(c)).products.items).toMatchObject([
      { product_id: 160, quantity: 1, quantity_supported: false },
    ]);
    await add(c, 40, 9);
    const tooMany = await add(c, 40, 2);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({ message: 'You can order up to 10 at a time' });
    const unknown = await add(c, 999);
    expect(unknown.statusCode).toBe(404);
  });

  it("a customer's cart can be neither read nor changed by another", async () => {
    const a = await insertCustomer(t.app);
    const b = await insertCustomer(t.app);
    await add(a, 35, 2);
    expect((await cartOf(b)).item_count).toBe(0);
    await post(t.app, '/lapi/v2/ecom/remove-product', { product_id: 35 }, b.cookie);
    await post(
      t.app,
      '/lapi/v2/ecom/update-cart',
      { mode: 'set', items: [{ product_id: 35, quantity: 0 }] },
      b.cookie,
    );
    expect((await cartOf(a)).products.items).toMatchObject([{ product_id: 35, quantity: 2 }]);
    const visitor = await post(t.app, '/lapi/v2/ecom/cart', {});
    expect(visitor.statusCode).toBe(401);
  });

  it('merges a browser cart into the account cart at log-in, and sets quantities', async () => {
    const c = await insertCustomer(t.app);
    await add(c, 40, 1);
    t.clock.advance(1000);
    const merged = await post(
      t.app,
      '/lapi/v2/ecom/update-cart',
      {
        mode: 'merge',
        items: [
          { product_id: 40, quantity: 2 },
          { product_id: 36, quantity: 1 },
          { product_id: 12345, quantity: 1 },
        ],
      },
      c.cookie,
    );
    expect(
      merged
        .json<{ data: { cart: Cart } }>()
        .data.cart.products.items.map((i) => [i.product_id, i.quantity]),
    ).toEqual([
      [40, 3],
      [36, 1],
    ]);
    const set = await post(
      t.app,
      '/lapi/v2/ecom/update-cart',
      { mode: 'set', items: [{ product_id: 40, quantity: 0 }] },
      c.cookie,
    );
    expect(
      set.json<{ data: { cart: Cart } }>().data.cart.products.items.map((i) => i.product_id),
    ).toEqual([36]);
  });

  it.each([
    ['NOPE', 'That coupon code is not valid.'],
    ['RETIRED', 'That coupon code is not valid.'],
    ['SUMMER25', 'This coupon expired on Sep 01, 2026.'],
    ['GUMMY5', 'This coupon needs a subtotal of at least $30.00.'],
  ])('coupon %s is refused with %j', async (code, message) => {
    const c = await insertCustomer(t.app);
    await add(c, 40);
    const response = await post(t.app, '/lapi/v2/ecom/apply-coupon', { code }, c.cookie);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message, fields: { code: message } });
    expect((await cartOf(c)).coupon).toBeNull();
  });

  it('a first-order coupon is refused after a first order; a used-up coupon says so', async () => {
    const c = await insertCustomer(t.app);
    await add(c, 40);
    expect(
      (await post(t.app, '/lapi/v2/ecom/apply-coupon', { code: 'welcome10' }, c.cookie)).statusCode,
    ).toBe(200);
    await post(t.app, '/lapi/v2/ecom/place-order', buildPlaceOrder(), c.cookie);
    await add(c, 40);
    const again = await post(t.app, '/lapi/v2/ecom/apply-coupon', { code: 'WELCOME10' }, c.cookie);
    expect(again.json()).toMatchObject({ message: 'This coupon is for your first order only.' });

    const first = await insertCustomer(t.app);
    await add(first, 40);
    await post(t.app, '/lapi/v2/ecom/apply-coupon', { code: 'ONCE' }, first.cookie);
    expect(
      (await post(t.app, '/lapi/v2/ecom/place-order', buildPlaceOrder(), first.cookie)).statusCode,
    ).toBe(200);
    const second = await insertCustomer(t.app);
    await add(second, 40);
    const usedUp = await post(t.app, '/lapi/v2/ecom/apply-coupon', { code: 'ONCE' }, second.cookie);
    expect(usedUp.json()).toMatchObject({ message: 'This coupon has reached its usage limit.' });
  });

  it('a percent and a fixed coupon take the right amount off, and /coupon/code answers a visitor', async () => {
    const c = await insertCustomer(t.app);
    await add(c, 40, 2);
    const pct = await post(t.app, '/lapi/v2/ecom/apply-coupon', { code: 'WELCOME10' }, c.cookie);
    expect(pct.json<{ data: { cart: Cart } }>().data.cart).toMatchObject({
      subtotal_cents: 4998,
      discount_cents: 499,
      total_cents: 4499,
      coupon: { code: 'WELCOME10' },
    });
    const fixed = await post(t.app, '/lapi/v2/ecom/apply-coupon', { code: 'GUMMY5' }, c.cookie);
    expect(fixed.json<{ data: { cart: Cart } }>().data.cart).toMatchObject({
      discount_cents: 500,
      total_cents: 4498,
    });
    const visitor = await post(t.app, '/lapi/coupon/code', {
      code: 'GUMMY5',
      subtotal_cents: 2499,
    });
    expect(visitor.json()).toMatchObject({
      status: 'FAILURE',
      message: 'This coupon needs a subtotal of at least $30.00.',
    });
    const ok = await post(t.app, '/lapi/coupon/code', { code: 'GUMMY5', subtotal_cents: 4998 });
    expect(ok.json()).toMatchObject({ status: 'SUCCESS', data: { discount_cents: 500 } });
  });

  it('places the order: lines copy the catalogue, monthly lines start subscriptions, the cart empties, an email confirms', async () => {
    const c = await insertCustomer(t.app);
    await add(c, 41);
    await add(c, 30, 2);
    await post(t.app, '/lapi/v2/ecom/apply-coupon', { code: 'WELCOME10' }, c.cookie);
    const response = await post(t.app, '/lapi/v2/ecom/place-order', buildPlaceOrder(), c.cookie);
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
      [41, 'Sleep Gummies', '/images/supp-sleep.webp', 1750, 1, 'supplements'],
      [30, 'Biotin Gummies', '/images/supp-biotin.webp', 2499, 2, 'supplements'],
    ]);
    const subs = await t.app.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('customer_id', '=', c.customerId)
      .execute();
    expect(subs).toMatchObject([
      {
        product_id: 41,
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
    const history = await post(t.app, '/lapi/account/orders/', { leads_id: c.leadsId }, c.cookie);
    expect(
      Object.keys(history.json<{ message: { order_history: object } }>().message.order_history),
    ).toEqual([placed.order_number]);
    // The card used became the card on file, as number-free as ever.
    const account = await post(t.app, '/lapi/account/data/', { leads_id: c.leadsId }, c.cookie);
    expect(account.json()).toMatchObject({
      data: { card: { last4: '4242' }, shipping: { address: '500 Market Street' } },
    });
  });

  it('the confirmation says the bottles that arrive: three a quarter, one of each in the bundle', async () => {
    const c = await insertCustomer(t.app);
    await add(c, 42);
    await add(c, 160);
    const response = await post(t.app, '/lapi/v2/ecom/place-order', buildPlaceOrder(), c.cookie);
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
    await add(c, 40);
    const response = await post(
      t.app,
      '/lapi/v2/ecom/place-order',
      buildPlaceOrder({
        payment: { method: 'card', ccnum: '4000 0000 0000 0002', ccexp: '12/30', cccvv: '123' },
      }),
      c.cookie,
    );
    expect(response.statusCode).toBe(402);
    expect(response.json()).toMatchObject({ message: 'Your card was declined.' });
    expect(await orderCount(c.customerId)).toBe(0);
    expect((await cartOf(c)).item_count).toBe(1);

    const insufficient = await post(
      t.app,
      '/lapi/v2/ecom/place-order',
      buildPlaceOrder({
        payment: { method: 'card', ccnum: '4000 0000 0000 9995', ccexp: '12/30', cccvv: '123' },
      }),
      c.cookie,
    );
    expect(insufficient.statusCode).toBe(402);
    expect(insufficient.json()).toMatchObject({ message: 'Your card has insufficient funds.' });
    expect(await orderCount(c.customerId)).toBe(0);
    expect((await cartOf(c)).item_count).toBe(1);
    // And the next attempt with a good card goes through.
    const ok = await post(t.app, '/lapi/v2/ecom/place-order', buildPlaceOrder(), c.cookie);
    expect(ok.statusCode).toBe(200);
  });

  it('20 concurrent place-order calls with one key make exactly one order and one charge', async () => {
    const c = await insertCustomer(t.app);
    await add(c, 40, 2);
    const charges = await chargeCount();
    const body = buildPlaceOrder({ payment: { method: 'saved' } });
    await post(
      t.app,
      '/lapi/account/ccupdate/',
      { ccnum: '4242424242424242', ccexp: '12/30', cccvv: '123', consent: true },
      c.cookie,
    );
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => post(t.app, '/lapi/v2/ecom/place-order', body, c.cookie)),
    );
    const ok = responses.filter((r) => r.statusCode === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(responses.every((r) => r.statusCode === 200 || r.statusCode === 409)).toBe(true);
    expect(new Set(ok.map((r) => r.json<{ data: PlacedOrder }>().data.order_number)).size).toBe(1);
    expect(await orderCount(c.customerId)).toBe(1);
    expect((await chargeCount()) - charges).toBe(1);
    // A retry later answers with the same order.
    const retry = await post(t.app, '/lapi/v2/ecom/place-order', body, c.cookie);
    expect(retry.json<{ data: PlacedOrder }>().data.order_number).toBe(
      ok[0]?.json<{ data: PlacedOrder }>().data.order_number,
    );
  });

  it('20 concurrent calls from two tabs (different keys) still make one order and one charge', async () => {
    const c = await insertCustomer(t.app);
    await add(c, 35);
    await post(
      t.app,
      '/lapi/account/ccupdate/',
      { ccnum: '4242424242424242', ccexp: '12/30', cccvv: '123', consent: true },
      c.cookie,
    );
    const charges = await chargeCount();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        post(
          t.app,
          '/lapi/v2/ecom/place-order',
          buildPlaceOrder({ payment: { method: 'saved' } }),
          c.cookie,
        ),
      ),
    );
    expect(responses.every((r) => [200, 400, 409].includes(r.statusCode))).toBe(true);
    expect(await orderCount(c.customerId)).toBe(1);
    expect((await chargeCount()) - charges).toBe(1);
  });

  it('an empty cart cannot be ordered; a visitor cannot order', async () => {
    const c = await insertCustomer(t.app);
    const empty = await post(t.app, '/lapi/v2/ecom/place-order', buildPlaceOrder(), c.cookie);
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ message: 'Your cart is empty.' });
    expect((await post(t.app, '/lapi/v2/ecom/place-order', buildPlaceOrder())).statusCode).toBe(
      401,
    );
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
    await add(c, 40);
    const response = await post(
      t.app,
      '/lapi/v2/ecom/place-order',
      buildPlaceOrder(change),
      c.cookie,
    );
    expect(response.statusCode).toBe(400);
    expect(response.json<{ fields: Record<string, string> }>().fields[field]).toBe(message);
    expect(await orderCount(c.customerId)).toBe(0);
  });

  describe('the checkout progress a reload or a new tab goes on from', () => {
    const progressOf = async (c: TestCustomer) =>
      (await post(t.app, '/lapi/checkout/progress/', {}, c.cookie)).json<{
        data: { progress: CheckoutProgress | null };
      }>().data.progress;
    const shipping = buildPlaceOrder().shipping;

    it('keeps the step and address for the customer alone, and forgets them once ordered', async () => {
      const c = await insertCustomer(t.app);
      const other = await insertCustomer(t.app);
      expect(await progressOf(c)).toBeNull();
      const saved = await post(
        t.app,
        '/lapi/checkout/progress/save/',
        { step: 'upsell', shipping },
        c.cookie,
      );
      expect(saved.statusCode).toBe(200);
      expect(await progressOf(c)).toEqual({ step: 'upsell', shipping });
      // Saving again replaces it (one row per customer).
      await post(t.app, '/lapi/checkout/progress/save/', { step: 'payment', shipping }, c.cookie);
      expect(await progressOf(c)).toEqual({ step: 'payment', shipping });
      // Nobody else reads it, and a visitor has none to read.
      expect(await progressOf(other)).toBeNull();
      expect((await post(t.app, '/lapi/checkout/progress/', {})).statusCode).toBe(401);

      await add(c, 41);
      const placed = await post(t.app, '/lapi/v2/ecom/place-order', buildPlaceOrder(), c.cookie);
      expect(placed.statusCode).toBe(200);
      expect(await progressOf(c)).toBeNull();
    });

    it('checks the address with the messages of spec §5 and keeps nothing that fails', async () => {
      const c = await insertCustomer(t.app);
      const response = await post(
        t.app,
        '/lapi/checkout/progress/save/',
        { step: 'upsell', shipping: { ...shipping, zip: '12', phoneNo: '' } },
        c.cookie,
      );
      expect(response.statusCode).toBe(400);
      expect(
        Object.keys(response.json<{ fields: Record<string, string> }>().fields).sort(),
      ).toEqual(['shipping.phoneNo', 'shipping.zip']);
      const badStep = await post(
        t.app,
        '/lapi/checkout/progress/save/',
        { step: 'done', shipping },
        c.cookie,
      );
      expect(badStep.statusCode).toBe(400);
      expect(await progressOf(c)).toBeNull();
    });

    it('a checkout left alone for more than a week starts again', async () => {
      const c = await insertCustomer(t.app);
      await post(t.app, '/lapi/checkout/progress/save/', { step: 'payment', shipping }, c.cookie);
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
    await add(c, 30, 2);
    const response = await post(t.app, '/lapi/leads/upsells', {}, c.cookie);
    const offers = response.json<{ data: { offers: Upsell[] } }>().data.offers;
    expect(offers.map((o) => [o.kind, o.product_id, o.replaces_product_id])).toEqual([
      ['switch_to_subscription', 31, 30],
      ['add_product', 160, null],
    ]);
    expect(offers[0]?.savings_cents).toBe(1498);
  });

  it('registers a click with the connection address and keeps it on the order', async () => {
    const click = await t.app.inject({
      method: 'POST',
      url: '/lapi/click/create/',
      payload: {
        a: 'aff1',
        s1: 'spring',
        url: 'https://pairwell.example/?a=aff1',
        referrer: '',
        user_agent: 'Mozilla/5.0',
        device_type: 'mobile',
        ip_address: '6.6.6.6',
      },
      remoteAddress: '127.0.0.9',
    });
    const clickId = click.json<{ click_id: string }>().click_id;
    expect(clickId).toMatch(/^c[0-9a-f]{20}$/);
    const stored = await t.app.db
      .selectFrom('clicks')
      .selectAll()
      .where('id', '=', clickId)
      .executeTakeFirstOrThrow();
    expect(stored.ip_address).toBe('127.0.0.9');
    const c = await insertCustomer(t.app);
    await add(c, 40);
    const placed = await post(
      t.app,
      '/lapi/v2/ecom/place-order',
      buildPlaceOrder({ click_id: clickId }),
      c.cookie,
    );
    const order = await t.app.db
      .selectFrom('orders')
      .select('click_id')
      .where('id', '=', placed.json<{ data: PlacedOrder }>().data.orders_id)
      .executeTakeFirstOrThrow();
    expect(order.click_id).toBe(clickId);
  });
});
