import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_QUANTITY, cartApi, type Cart } from '#shared/cart.ts';
import { offers } from '#shared/catalog.ts';
import type { BodyOf } from '#shared/contract.ts';
import { buildSecondInstance, buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import { insertCustomer, type TestCustomer } from '#test/factories.ts';

/** A product sold in quantities (and ones that are not), from the catalogue seed. */
const COUNTED = offers.biotin.oneTime;
const SINGLE = offers.bundle.oneTime;
/** A subscription: one line of one, however it is added. */
const MONTHLY = offers.biotin.monthly;

/**
 * Cart changes made at the same moment all count (issue 11, finding 5). On PostgreSQL the calls are
 * spread over two instances on one database, as behind a load balancer; on SQLite one instance
 * serves them (a SQLite file has one server).
 */
describe(`cart changes made at the same moment (${testDialect})`, () => {
  let t: TestApp;
  let instances: FastifyInstance[];
  beforeAll(async () => {
    t = await buildTestApp();
    instances = testDialect === 'postgres' ? [t.app, await buildSecondInstance(t)] : [t.app];
  });
  afterAll(async () => {
    for (const app of instances.slice(1)) await app.close();
    await t.close();
  });

  const on = (i: number) => instances[i % instances.length]!;
  const quantityOf = async (c: TestCustomer, productId: number) => {
    const response = await callAs(t.app, cartApi.cart, {}, c);
    const cart = response.json<{ data: { cart: Cart } }>().data.cart;
    return cart.products.items.find((i) => i.product_id === productId)?.quantity ?? 0;
  };
  const addOne = (i: number, c: TestCustomer, productId: number = COUNTED) =>
    callAs(on(i), cartApi.addProduct, { product_id: productId, quantity: 1 }, c);
  const mergeOne = (i: number, c: TestCustomer) =>
    callAs(
      on(i),
      cartApi.updateCart,
      { mode: 'merge', items: [{ product_id: COUNTED, quantity: 1 }] },
      c,
    );

  it('counts every one of 10 additions of one product made at once: exactly +10', async () => {
    const c = await insertCustomer(t.app);
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => addOne(i, c)));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(await quantityOf(c, COUNTED)).toBe(10);
  });

  it('counts additions and merges made at once alike (none overwrites another)', async () => {
    const c = await insertCustomer(t.app);
    await addOne(0, c);
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? addOne(i, c) : mergeOne(i, c))),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    expect(await quantityOf(c, COUNTED)).toBe(9);
  });

  it('stops at the limit under concurrency: the additions past it are refused, the rest count', async () => {
    const c = await insertCustomer(t.app);
    const responses = await Promise.all(
      Array.from({ length: MAX_QUANTITY + 3 }, (_, i) => addOne(i, c)),
    );
    const ok = responses.filter((r) => r.statusCode === 200).length;
    const refused = responses.filter((r) => r.statusCode === 400);
    expect(ok).toBe(MAX_QUANTITY);
    expect(refused).toHaveLength(3);
    for (const r of refused)
      expect(r.json<{ message: string }>().message).toBe(
        `You can order up to ${MAX_QUANTITY} at a time`,
      );
    expect(await quantityOf(c, COUNTED)).toBe(MAX_QUANTITY);
  });

  it('caps a merge at the limit instead of refusing it, as at log-in', async () => {
    const c = await insertCustomer(t.app);
    await callAs(t.app, cartApi.addProduct, { product_id: COUNTED, quantity: 8 }, c);
    const merged = await callAs(
      t.app,
      cartApi.updateCart,
      { mode: 'merge', items: [{ product_id: COUNTED, quantity: 5 }] },
      c,
    );
    expect(merged.statusCode, merged.body).toBe(200);
    expect(await quantityOf(c, COUNTED)).toBe(MAX_QUANTITY);
  });

  it('keeps a product sold one at a time at 1 however often it is added at once', async () => {
    const c = await insertCustomer(t.app);
    const responses = await Promise.all(Array.from({ length: 5 }, (_, i) => addOne(i, c, SINGLE)));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(5).fill(200));
    expect(await quantityOf(c, SINGLE)).toBe(1);
  });

  it('sets a quantity outright with `set`, and removes the line at 0', async () => {
    const c = await insertCustomer(t.app);
    await addOne(0, c);
    const set = (quantity: number) =>
      callAs(
        t.app,
        cartApi.updateCart,
        { mode: 'set', items: [{ product_id: COUNTED, quantity }] },
        c,
      );
    expect((await set(4)).statusCode).toBe(200);
    expect(await quantityOf(c, COUNTED)).toBe(4);
    expect((await set(0)).statusCode).toBe(200);
    expect(await quantityOf(c, COUNTED)).toBe(0);
  });

  it('keeps a subscription one line of one, added twice, set to 3 or merged (shared/cart.ts stacks)', async () => {
    const c = await insertCustomer(t.app);
    const change = (body: BodyOf<typeof cartApi.updateCart>) =>
      callAs(t.app, cartApi.updateCart, body, c);
    const line = { product_id: MONTHLY, quantity: 3 };
    expect((await addOne(0, c, MONTHLY)).statusCode).toBe(200);
    expect((await addOne(1, c, MONTHLY)).statusCode).toBe(200);
    expect(await quantityOf(c, MONTHLY)).toBe(1);
    await change({ mode: 'merge', items: [line] });
    expect(await quantityOf(c, MONTHLY)).toBe(1);
    await change({ mode: 'set', items: [line] });
    expect(await quantityOf(c, MONTHLY)).toBe(1);
  });
});
