import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStaff } from '#server/db/seed-demo.ts';
import { accountsApi, type PatientData } from '#shared/accounts.ts';
import { ordersApi, ORDERS_PAGE_SIZE, type Lander, type Order } from '#shared/orders.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { insertCustomer, staffCookie, type TestCustomer } from '#test/factories.ts';
import { submittedEdVisit } from '#test/visits.ts';
import { reviewsApi } from '#shared/reviews.ts';
import { callAs, malformed } from '#test/contract.ts';
import { offers } from '#shared/catalog.ts';

const provider = demoStaff.find((s) => s.role === 'provider')!;

/**
 * Orders details a page at a time (issue 14): keyset pages, newest first, that neither repeat nor
 * skip an order when one is placed between two pages; a cursor or order number of anyone else's is
 * not found; one order by its number, wherever it is.
 */
describe(`orders details, a page at a time (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
  });
  afterAll(() => t.close());

  let sequence = 0;
  /** `count` delivered store orders of one line each, the newest at `newest`, a minute apart. */
  async function insertOrders(
    c: TestCustomer,
    count: number,
    newest: Date,
    { sameInstant = false }: { sameInstant?: boolean } = {},
  ): Promise<string[]> {
    const numbers: string[] = [];
    for (let i = 0; i < count; i++) {
      sequence += 1;
      const at = new Date(newest.getTime() - (sameInstant ? 0 : i * 60_000)).toISOString();
      const orderNumber = `PW-PG${String(sequence).padStart(5, '0')}`;
      numbers.push(orderNumber);
      const order = await t.app.db
        .insertInto('orders')
        .values({
          order_number: orderNumber,
          customer_id: c.customerId,
          kind: 'store',
          status: 'DELIVERED',
          payment_status: 'paid',
          subtotal_cents: 2499,
          discount_cents: 0,
          total_cents: 2499,
          coupon_code: null,
          tracking_number: null,
          decline_reason: null,
          ship_address: '1200 Harbor Street',
          ship_address2: '',
          ship_city: 'Portland',
          ship_state: 'OR',
          ship_zip: '97201',
          ship_country: 'US',
          click_id: null,
          idempotency_key: null,
          charge_id: null,
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await t.app.db
        .insertInto('order_items')
        .values({
          order_id: order.id,
          product_id: offers.sleep.oneTime,
          product_name: 'Sleep Gummies',
          product_image: '/images/supp-sleep.webp',
          category: 'supplements',
          frequency: 'ONE_TIME',
          unit_price_cents: 2499,
          quantity: 1,
        })
        .execute();
    }
    return numbers;
  }

  async function page(c: TestCustomer, extra: { cursor?: string; limit?: number } = {}) {
    const response = await callAs(
      t.app,
      ordersApi.ordersDetails,
      { leads_id: c.leadsId, ...extra },
      c.cookie,
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ message: Lander }>().message;
  }

  /** Every page from the first, following next_cursor. */
  async function allPages(c: TestCustomer, limit?: number): Promise<Lander[]> {
    const pages = [await page(c, limit ? { limit } : {})];
    for (let last = pages[0]!; last.has_more;) {
      expect(last.next_cursor).not.toBeNull();
      last = await page(c, { cursor: last.next_cursor!, ...(limit ? { limit } : {}) });
      pages.push(last);
    }
    return pages;
  }

  const numbersOf = (pages: Lander[]) => pages.flatMap((p) => Object.keys(p.order_history));

  it('pages of ORDERS_PAGE_SIZE, newest first, following next_cursor to the last', async () => {
    const c = await insertCustomer(t.app);
    const numbers = await insertOrders(c, 25, t.clock.now());
    const pages = await allPages(c);
    expect(pages.map((p) => Object.keys(p.order_history).length)).toEqual([
      ORDERS_PAGE_SIZE,
      ORDERS_PAGE_SIZE,
      25 - 2 * ORDERS_PAGE_SIZE,
    ]);
    expect(numbersOf(pages)).toEqual(numbers);
    expect(pages.map((p) => p.has_more)).toEqual([true, true, false]);
    const last = pages[2]!;
    expect(last.next_cursor).toBeNull();
    // Each page's cursor is its last order's number.
    expect(pages[0]!.next_cursor).toBe(numbers[ORDERS_PAGE_SIZE - 1]);
    // Any page size up to 50: the same orders, in the same order.
    expect(numbersOf(await allPages(c, 7))).toEqual(numbers);
    expect(Object.keys((await page(c, { limit: 50 })).order_history)).toEqual(numbers);
  });

  it('an order placed between two pages neither repeats nor hides one', async () => {
    const c = await insertCustomer(t.app);
    const numbers = await insertOrders(c, 15, new Date(t.clock.now().getTime() - 3_600_000));
    const first = await page(c);
    expect(Object.keys(first.order_history)).toEqual(numbers.slice(0, ORDERS_PAGE_SIZE));
    const placed = await insertOrders(c, 3, t.clock.now());
    const second = await page(c, { cursor: first.next_cursor! });
    expect(Object.keys(second.order_history)).toEqual(numbers.slice(ORDERS_PAGE_SIZE));
    expect(second.has_more).toBe(false);
    // A fresh first page starts with the new orders.
    expect(Object.keys((await page(c)).order_history).slice(0, 3)).toEqual(placed);
  });

  it('orders placed in the same instant keep one order across a page boundary', async () => {
    const c = await insertCustomer(t.app);
    const numbers = await insertOrders(c, 12, t.clock.now(), { sameInstant: true });
    const all = numbersOf(await allPages(c, 5));
    expect(all).toHaveLength(12);
    expect(new Set(all).size).toBe(12);
    // Newest first: the one inserted last (the highest id) leads.
    expect(all).toEqual([...numbers].reverse());
  });

  it('a cursor of another customer, or of no order, is not found and shows nothing', async () => {
    const mine = await insertCustomer(t.app);
    const theirs = await insertCustomer(t.app);
    await insertOrders(mine, 3, t.clock.now());
    const [theirOrder] = await insertOrders(theirs, 3, t.clock.now());
    for (const cursor of [theirOrder, 'PW-NOSUCH']) {
      const response = await callAs(
        t.app,
        ordersApi.ordersDetails,
        { leads_id: mine.leadsId, cursor },
        mine.cookie,
      );
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({
        status: 'FAILURE',
        code: 'NOT_FOUND',
        message: 'We could not find that order.',
      });
      expect(response.body).not.toContain('PW-PG');
    }
  });

  it('says what is wrong with a page size or a cursor', async () => {
    const c = await insertCustomer(t.app);
    const ask = (extra: Record<string, unknown>) =>
      callAs(
        t.app,
        ordersApi.ordersDetails,
        malformed({ leads_id: c.leadsId, ...extra }),
        c.cookie,
      );
    for (const [extra, field, message] of [
      [{ limit: 0 }, 'limit', 'Ask for at least 1 order'],
      [{ limit: 51 }, 'limit', 'Ask for at most 50 orders'],
      [{ limit: 2.5 }, 'limit', 'Ask for a whole number of orders'],
      [{ limit: 'ten' }, 'limit', 'Ask for a whole number of orders'],
      [{ cursor: '' }, 'cursor', 'Choose an order'],
      [{ cursor: 'x'.repeat(41) }, 'cursor', 'Choose an order'],
    ] as const) {
      const response = await ask(extra);
      expect(response.statusCode, JSON.stringify(extra)).toBe(400);
      expect(response.json<{ fields: Record<string, string> }>().fields[field]).toBe(message);
    }
  });

  it("one order by its number, wherever it is; anyone else's is not found", async () => {
    const c = await insertCustomer(t.app);
    const numbers = await insertOrders(c, 30, t.clock.now());
    const oldest = numbers[numbers.length - 1]!;
    expect(Object.keys((await page(c)).order_history)).not.toContain(oldest);
    const found = await callAs(
      t.app,
      ordersApi.order,
      { leads_id: c.leadsId, order_number: oldest },
      c.cookie,
    );
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json<{ data: { order: Order } }>().data.order).toMatchObject({
      order_number: oldest,
      order_status: 'DELIVERED',
      order_items: [{ product_name: 'Sleep Gummies', quantity: 1 }],
      visit: null,
    });

    const other = await insertCustomer(t.app);
    const theirs = await callAs(
      t.app,
      ordersApi.order,
      { leads_id: other.leadsId, order_number: oldest },
      other.cookie,
    );
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ message: 'We could not find that order.' });
    expect(theirs.body).not.toContain('Sleep Gummies');
    const named = await callAs(
      t.app,
      ordersApi.order,
      { leads_id: c.leadsId, order_number: oldest },
      other.cookie,
    );
    expect(named.statusCode).toBe(403);
    const visitor = await callAs(t.app, ordersApi.order, {
      leads_id: c.leadsId,
      order_number: oldest,
    });
    expect(visitor.statusCode).toBe(401);
    const blank = await callAs(
      t.app,
      ordersApi.order,
      { leads_id: c.leadsId, order_number: ' ' },
      c.cookie,
    );
    expect(blank.statusCode).toBe(400);
    expect(blank.json<{ fields: Record<string, string> }>().fields.order_number).toBe(
      'Choose an order',
    );
  });

  it("a visit's order in care stays on Home when newer orders push it off the first page", async () => {
    const c = await insertCustomer(t.app);
    const visit = await submittedEdVisit(t.app, c);
    const staff = await staffCookie(t, provider);
    const approved = await callAs(
      t.app,
      reviewsApi.approve,
      {
        visit_id: visit.visitId,
        prescription: {
          drug: 'sildenafil',
          dosage: '50mg',
          quantity: 6,
          refills: 2,
          valid_until: new Date(t.clock.now().getTime() + 300 * 86_400_000)
            .toISOString()
            .slice(0, 10),
          directions: 'Take one tablet an hour before, no more than once a day.',
        },
      },
      staff,
    );
    expect(approved.statusCode, approved.body).toBe(200);
    await insertOrders(c, ORDERS_PAGE_SIZE + 2, new Date(t.clock.now().getTime() + 86_400_000));

    const first = await page(c);
    expect(Object.keys(first.order_history)).not.toContain(visit.orderNumber);
    expect(first.treatment.map((o) => o.order_number)).toEqual([visit.orderNumber]);
    expect(first.treatment[0]?.visit?.state).toBe('APPROVED');

    const home = await callAs(t.app, accountsApi.patientData, { leads_id: c.leadsId }, c.cookie);
    expect(home.statusCode, home.body).toBe(200);
    const data = home.json<{ message: PatientData }>().message;
    // Home's lander is the first page, with the visit's order beside it.
    expect(Object.keys(data.lander.order_history)).toHaveLength(ORDERS_PAGE_SIZE);
    expect(data.lander.has_more).toBe(true);
    expect(data.lander.treatment.map((o) => o.order_number)).toEqual([visit.orderNumber]);
  });
});
