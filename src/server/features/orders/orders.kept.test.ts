import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#server/db/schema.ts';
import { demoCustomer } from '#server/db/seed-demo.ts';
import { customerVersion } from '#server/lib/own-answers.ts';
import { ordersApi, type Lander } from '#shared/orders.ts';
import { buildSecondInstance, buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { insertCustomer, sessionCookie, type TestCustomer } from '#test/factories.ts';
import { authApi } from '#shared/auth.ts';
import { messagesApi } from '#shared/messages.ts';
import { callAs } from '#test/contract.ts';

const DAY_MS = 24 * 60 * 60_000;

/**
 * Orders details are kept per customer while the customer's data is unchanged (own-answers.ts):
 * the database raises a version of a customer's data on every write to a row their lander reads
 * (migration 0028), whoever writes it, and a kept answer is sent only at the version and the day
 * it was read at.
 */
describe(`a customer's kept orders details (${testDialect})`, () => {
  let t: TestApp;
  let demo: { cookie: string; leadsId: string; customerId: number };
  let other: TestCustomer;

  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
    const login = await callAs(t.app, authApi.login, {
      email: demoCustomer.email,
      password: demoCustomer.password,
    });
    const data = login.json<{ data: { leads_id: string; user: { customer_id: number } } }>().data;
    demo = {
      cookie: sessionCookie(login),
      leadsId: data.leads_id,
      customerId: data.user.customer_id,
    };
    other = await insertCustomer(t.app, { first_name: 'Robin' });
  });
  afterAll(() => t.close());

  const landerOf = async (who: { cookie: string; leadsId: string }): Promise<Lander> => {
    const response = await callAs(
      t.app,
      ordersApi.ordersDetails,
      { leads_id: who.leadsId },
      who.cookie,
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ message: Lander }>().message;
  };
  const flagTypes = (lander: Lander) => lander.flags.map((flag) => flag.type);

  /** One id of a row of `table` that `customerColumn` says is the demo customer's. */
  async function demoRow(table: string, customerColumn = 'customer_id'): Promise<number> {
    const { rows } = await sql<{ id: number }>`
      select id from ${sql.table(table)} where ${sql.ref(customerColumn)} = ${demo.customerId}
      order by id limit 1`.execute(t.app.db);
    const id = rows[0]?.id;
    if (id === undefined) throw new Error(`the demo customer has no ${table}`);
    return id;
  }
  /** A write that changes nothing but is a write: the row's triggers run. */
  const touch = (table: string, id: number, db: Kysely<Database> = t.app.db) =>
    sql`update ${sql.table(table)} set id = id where id = ${id}`.execute(db);

  async function demoThread(): Promise<number> {
    const sent = await callAs(
      t.app,
      messagesApi.send,
      { leads_id: demo.leadsId, subject: 'A question', topic: 'order', body: 'Hello' },
      demo.cookie,
    );
    expect(sent.statusCode, sent.body).toBe(200);
    return demoRow('message_threads');
  }

  const careTeamMessage = (threadId: number) =>
    t.app.db
      .insertInto('messages')
      .values({
        thread_id: threadId,
        sender: 'care_team',
        staff_id: null,
        body: 'Your provider wrote back.',
        created_at: t.clock.now().toISOString(),
        read_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();

  it("every row a lander reads raises its own customer's version, and no one else's", async () => {
    const provider = await t.app.db
      .selectFrom('staff_users')
      .select('id')
      .where('role', '=', 'provider')
      .executeTakeFirstOrThrow();
    const itemOfDemo = async () => {
      const { rows } = await sql<{ id: number }>`
        select i.id from order_items i join orders o on o.id = i.order_id
        where o.customer_id = ${demo.customerId} order by i.id limit 1`.execute(t.app.db);
      return rows[0]!.id;
    };
    let threadId = 0;
    let messageId = 0;
    const writes: [string, () => Promise<unknown>][] = [
      ['their customer row', () => touch('customers', demo.customerId)],
      ['their card', async () => touch('payment_methods', await demoRow('payment_methods'))],
      ['an order', async () => touch('orders', await demoRow('orders'))],
      ["an order's line", async () => touch('order_items', await itemOfDemo())],
      ['a subscription', async () => touch('subscriptions', await demoRow('subscriptions'))],
      ['a visit', async () => touch('visits', await demoRow('visits'))],
      ['a new conversation', async () => (threadId = await demoThread())],
      ['a conversation', () => touch('message_threads', threadId)],
      ['a new message', async () => (messageId = (await careTeamMessage(threadId)).id)],
      [
        'a message read',
        () =>
          t.app.db
            .updateTable('messages')
            .set({ read_at: t.clock.now().toISOString() })
            .where('id', '=', messageId)
            .execute(),
      ],
      [
        'a message deleted',
        () => t.app.db.deleteFrom('messages').where('id', '=', messageId).execute(),
      ],
      [
        'a new prescription',
        async () =>
          t.app.db
            .insertInto('prescriptions')
            .values({
              visit_id: await demoRow('visits'),
              customer_id: demo.customerId,
              provider_id: provider.id,
              drug: 'Melatonin',
              dosage: '3 mg',
              quantity: 30,
              refills: 2,
              valid_until: '2027-11-21',
              created_at: t.clock.now().toISOString(),
              directions: 'One at bedtime',
            })
            .execute(),
      ],
    ];
    for (const [what, write] of writes) {
      const before = [
        await customerVersion(t.app.db, demo.customerId),
        await customerVersion(t.app.db, other.customerId),
      ];
      await write();
      expect(await customerVersion(t.app.db, demo.customerId), what).toBeGreaterThan(before[0]!);
      expect(await customerVersion(t.app.db, other.customerId), what).toBe(before[1]);
    }
  });

  it.runIf(testDialect === 'postgres')(
    "two of the customer's transactions that queue today still do: the version is raised at commit",
    async () => {
      // A card update charging a renewal writes the order, then the subscription; a cancellation
      // writes the subscription alone. Raised as each row is written, the version would be the
      // first transaction's from its first write, and the second would wait for it while holding
      // the subscription the first needs next: a deadlock. Raised at commit, the second commits
      // while the first is still open, and then the first does.
      const orderId = await demoRow('orders');
      const subscriptionId = await demoRow('subscriptions');
      const before = await customerVersion(t.app.db, demo.customerId);
      let orderWritten!: () => void;
      let goOn!: () => void;
      const written = new Promise<void>((resolve) => (orderWritten = resolve));
      const resumed = new Promise<void>((resolve) => (goOn = resolve));
      const first = t.app.db.transaction().execute(async (trx) => {
        await touch('orders', orderId, trx);
        orderWritten();
        await resumed;
        await touch('subscriptions', subscriptionId, trx);
      });
      await written;
      await t.app.db.transaction().execute((trx) => touch('subscriptions', subscriptionId, trx));
      expect(await customerVersion(t.app.db, demo.customerId)).toBeGreaterThan(before);
      goOn();
      await first;
      expect(await customerVersion(t.app.db, demo.customerId)).toBeGreaterThan(before + 1);
    },
  );

  it('a kept lander shows a new message from the care team, and its reading', async () => {
    const threadId = await demoRow('message_threads').catch(() => demoThread());
    await t.app.db.updateTable('messages').set({ read_at: t.clock.now().toISOString() }).execute();
    expect(flagTypes(await landerOf(demo))).not.toContain('unread_messages');
    expect(flagTypes(await landerOf(demo))).not.toContain('unread_messages');
    const { id } = await careTeamMessage(threadId);
    expect(flagTypes(await landerOf(demo))).toContain('unread_messages');
    await t.app.db
      .updateTable('messages')
      .set({ read_at: t.clock.now().toISOString() })
      .where('id', '=', id)
      .execute();
    expect(flagTypes(await landerOf(demo))).not.toContain('unread_messages');
  });

  it("a partner's new first name shows on the kept orders that ship to them", async () => {
    const orderId = await demoRow('orders');
    await t.app.db
      .updateTable('orders')
      .set({ ship_to_partner_id: other.customerId })
      .where('id', '=', orderId)
      .execute();
    const shippedTo = async () =>
      Object.values((await landerOf(demo)).order_history).find((o) => o.orders_id === orderId)
        ?.ship_to_partner?.first_name;
    expect(await shippedTo()).toBe('Robin');
    expect(await shippedTo()).toBe('Robin');
    await t.app.db
      .updateTable('customers')
      .set({ first_name: 'Robyn' })
      .where('id', '=', other.customerId)
      .execute();
    expect(await shippedTo()).toBe('Robyn');
  });

  it("another instance's write shows on this one at once", async () => {
    const second = await buildSecondInstance(t);
    try {
      const before = await landerOf(demo);
      await second.db
        .updateTable('customers')
        .set({ last_name: 'Avery-Lane' })
        .where('id', '=', demo.customerId)
        .execute();
      expect(before.last_name).not.toBe('Avery-Lane');
      expect((await landerOf(demo)).last_name).toBe('Avery-Lane');
    } finally {
      await second.close();
    }
  });

  it("no customer is ever sent another's kept lander", async () => {
    const mine = await landerOf(demo);
    const theirs = await landerOf(other);
    expect(theirs.prospects_id).toBe(other.customerId);
    expect(theirs.email).toBe(other.email);
    expect(theirs.order_history).toEqual({});
    expect(mine.prospects_id).toBe(demo.customerId);
    const crossed = await callAs(
      t.app,
      ordersApi.ordersDetails,
      { leads_id: demo.leadsId },
      other.cookie,
    );
    expect(crossed.statusCode).toBe(403);
    expect(crossed.body).not.toContain(demoCustomer.email);
  });

  it('a kept lander follows the day: a card that expires overnight is flagged the next morning', async () => {
    // Expires at the end of this month (the clock starts on 2026-11-21).
    await t.app.db
      .updateTable('payment_methods')
      .set({ exp_month: 11, exp_year: 2026 })
      .where('customer_id', '=', demo.customerId)
      .execute();
    expect(flagTypes(await landerOf(demo))).toContain('card_expiring');
    expect(flagTypes(await landerOf(demo))).not.toContain('card_expired');
    t.clock.advance(10 * DAY_MS);
    // Last: ten days idle end the sessions; the kept answer is the customer's, not the session's.
    const login = await callAs(t.app, authApi.login, {
      email: demoCustomer.email,
      password: demoCustomer.password,
    });
    demo.cookie = sessionCookie(login);
    expect(flagTypes(await landerOf(demo))).toContain('card_expired');
  });
});
