import pg from 'pg';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '#server/db/schema.ts';
import { demoCustomer } from '#server/db/seed-demo.ts';
import { apiUrl } from '#shared/api.ts';
import { authApi } from '#shared/auth.ts';
import { catalogApi } from '#shared/catalog.ts';
import { ordersApi } from '#shared/orders.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { post, sessionCookie } from '#test/factories.ts';
import { sqliteStatementsRun } from '#test/sql-statements.ts';

/**
 * The kept answers (decisions 017 and 019) are sent for as long as a version stands, and only the
 * database's triggers raise it: migrations 0028, 0030 and 0033 on every table a customer's orders
 * details read (`customer_versions`), 0029 on the catalogue's (`catalog_version`). A query that
 * starts reading a table with no such trigger serves stale answers and no other test fails. This
 * one records the SQL of a real answer of each kind, finds every table it reads, and names those
 * whose inserts, updates or deletes would not raise the answer's version.
 */

type Event = 'insert' | 'update' | 'delete';
const EVENTS: readonly Event[] = ['insert', 'update', 'delete'];

interface KeptAnswer {
  /** The table the answer's version lives in, which its triggers write. */
  version: 'customer_versions' | 'catalog_version';
  /**
   * Tables the recorded requests read that are not part of what the answer shows, each with the
   * reason it needs no trigger. Kept short: a table belongs here only when a change to it cannot
   * change a kept answer's bytes.
   */
  outside: Record<string, string>;
}

const ordersDetails: KeptAnswer = {
  version: 'customer_versions',
  outside: {
    customer_versions: 'the version itself: reading it is how a kept answer is found',
    sessions:
      'authentication: who is asking is checked on every request, before anything kept is sent, ' +
      'and a session is not part of the answer',
  },
};

const catalogue: KeptAnswer = {
  version: 'catalog_version',
  outside: {
    catalog_version: 'the version itself: reading it is how a kept answer is found',
  },
};

/** Each SQL statement the test database's driver runs while `work` does. */
async function sqlRun(work: () => Promise<unknown>): Promise<string[]> {
  if (testDialect === 'sqlite') return (await sqliteStatementsRun(work)).map(({ sql }) => sql);
  const spy = vi.spyOn(pg.Client.prototype, 'query');
  try {
    await work();
    // pg takes the text, or a config with it (a named prepared statement of db/reusable.ts).
    return spy.mock.calls.map(([query]) =>
      typeof query === 'string' ? query : (query as { text: string }).text,
    );
  } finally {
    spy.mockRestore();
  }
}

/**
 * The tables a statement reads: every name after FROM or JOIN, quoted (Kysely quotes identifiers)
 * or not (raw SQL). A name followed by `(` is a function (`json_each(?)`), one followed by `.` a
 * column (`extract(day from "o"."created_at")`); the caller keeps only names that are tables, so a
 * common table expression or a subquery's alias is not mistaken for one. The app names no schema:
 * PostgreSQL's is its connection's search path.
 */
function tablesIn(statement: string): string[] {
  const pattern = /\b(?:from|join)\s+(?:"([^"]+)"|([A-Za-z_][A-Za-z0-9_]*)\b)(?!\s*[.(])/gi;
  return [...statement.matchAll(pattern)].map((match) =>
    (match[1] ?? match[2] ?? '').toLowerCase(),
  );
}

/** Each table of the database, with the write events a trigger raising `version` runs on. */
async function versionTriggers(
  db: Kysely<Database>,
  version: KeptAnswer['version'],
): Promise<{ tables: Set<string>; raisedOn: Map<string, Set<Event>> }> {
  const writesVersion = new RegExp(String.raw`\b${version}\b`, 'i');
  const raisedOn = new Map<string, Set<Event>>();
  const add = (table: string, events: Event[]) =>
    raisedOn.set(table, new Set([...(raisedOn.get(table) ?? []), ...events]));

  if (testDialect === 'sqlite') {
    const { rows: tables } = await sql<{ name: string }>`
      select name from sqlite_master where type = 'table'`.execute(db);
    const { rows: triggers } = await sql<{ table: string; sql: string }>`
      select tbl_name as "table", sql from sqlite_master where type = 'trigger'`.execute(db);
    for (const trigger of triggers) {
      if (!writesVersion.test(trigger.sql)) continue;
      // `create trigger <name> after update of status, order_id on payment_ledger begin …`
      const event =
        /^\s*create\s+trigger\s+(?:if\s+not\s+exists\s+)?\S+\s+(?:before\s+|after\s+|instead\s+of\s+)?(insert|update|delete)\b/i.exec(
          trigger.sql,
        )?.[1];
      if (event) add(trigger.table.toLowerCase(), [event.toLowerCase() as Event]);
    }
    return { tables: new Set(tables.map((t) => t.name.toLowerCase())), raisedOn };
  }

  const { rows: tables } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
  // pg_trigger's tgtype: 4 insert, 8 delete, 16 update (PostgreSQL's TRIGGER_TYPE_* bits).
  const { rows: triggers } = await sql<{ table: string; type: number; body: string }>`
    select c.relname as "table", t.tgtype as type, p.prosrc as body
    from pg_trigger t
    join pg_class c on c.oid = t.tgrelid
    join pg_namespace n on n.oid = c.relnamespace
    join pg_proc p on p.oid = t.tgfoid
    where not t.tgisinternal and n.nspname = current_schema()`.execute(db);
  for (const trigger of triggers) {
    if (!writesVersion.test(trigger.body)) continue;
    const type = Number(trigger.type);
    add(trigger.table, [
      ...(type & 4 ? (['insert'] as const) : []),
      ...(type & 16 ? (['update'] as const) : []),
      ...(type & 8 ? (['delete'] as const) : []),
    ]);
  }
  return { tables: new Set(tables.map((t) => t.name.toLowerCase())), raisedOn };
}

/**
 * The guard: every table `statements` read, and each one (outside the answer's short list) whose
 * inserts, updates or deletes would not raise the answer's version, with the events missing.
 */
async function unguardedTables(
  db: Kysely<Database>,
  statements: readonly string[],
  answer: KeptAnswer,
): Promise<{ read: string[]; unguarded: Record<string, Event[]> }> {
  const { tables, raisedOn } = await versionTriggers(db, answer.version);
  const read = [...new Set(statements.flatMap(tablesIn))].filter((name) => tables.has(name)).sort();
  const unguarded: Record<string, Event[]> = {};
  for (const table of read) {
    if (table in answer.outside) continue;
    const missing = EVENTS.filter((event) => !raisedOn.get(table)?.has(event));
    if (missing.length > 0) unguarded[table] = missing;
  }
  return { read, unguarded };
}

/**
 * The SQL of one orders-details answer of the demo customer (the seed's store, renewal and visit
 * orders, subscriptions and payments, so every part of the answer is read) and of one catalogue
 * answer, each made afresh on `t` (nothing kept yet).
 */
async function keptAnswersSql(t: TestApp): Promise<{ orders: string[]; catalogue: string[] }> {
  const login = await post(t.app, apiUrl(authApi.login.path), {
    email: demoCustomer.email,
    password: demoCustomer.password,
  });
  expect(login.statusCode, login.body).toBe(200);
  const cookie = sessionCookie(login);
  const leadsId = login.json<{ data: { leads_id: string } }>().data.leads_id;
  const orders = await sqlRun(async () => {
    const answered = await post(
      t.app,
      apiUrl(ordersApi.ordersDetails.path),
      { leads_id: leadsId },
      cookie,
    );
    expect(answered.statusCode, answered.body).toBe(200);
  });
  const catalogue = await sqlRun(async () => {
    const answered = await t.app.inject({ method: 'GET', url: apiUrl(catalogApi.products.path) });
    expect(answered.statusCode, answered.body).toBe(200);
  });
  return { orders, catalogue };
}

describe(`the kept answers' version triggers (${testDialect})`, () => {
  let t: TestApp;
  let broken: TestApp;
  beforeAll(async () => {
    [t, broken] = await Promise.all([
      buildTestApp({ env: { SEED_DEMO: 'true' } }),
      buildTestApp({ env: { SEED_DEMO: 'true' } }),
    ]);
  });
  afterAll(() => Promise.all([t.close(), broken.close()]));

  it('finds the tables a statement reads, quoted or not, and nothing else', () => {
    expect(
      tablesIn(
        'select "o"."id" from "orders" as "o" inner join "order_items" on "order_items"."order_id" = "o"."id" ' +
          'left join payment_ledger pl on pl.order_id = o.id where extract(day from "o"."created_at") = 1 ' +
          'and exists (select 1 from (select id from visits) as "v") and x in (select value from json_each(?))',
      ),
    ).toEqual(['orders', 'order_items', 'payment_ledger', 'visits']);
  });

  it('every table the orders details and the catalogue read raises their version', async () => {
    const recorded = await keptAnswersSql(t);
    const orders = await unguardedTables(t.app.db, recorded.orders, ordersDetails);
    const catalog = await unguardedTables(t.app.db, recorded.catalogue, catalogue);
    // The requests did make their answers (nothing was kept yet), so the guard saw what they read.
    expect(orders.read).toEqual(
      expect.arrayContaining(['orders', 'order_items', 'payment_ledger']),
    );
    expect(catalog.read).toEqual(expect.arrayContaining(['product_lines', 'products']));
    expect(orders.unguarded).toEqual({});
    expect(catalog.unguarded).toEqual({});
  });

  it('names a table whose trigger is gone', async () => {
    if (testDialect === 'sqlite')
      for (const event of EVENTS) {
        await sql
          .raw(`drop trigger customer_versions_payment_ledger_${event}`)
          .execute(broken.app.db);
        await sql.raw(`drop trigger catalog_version_products_${event}`).execute(broken.app.db);
      }
    else {
      await sql`drop trigger customer_versions_payment_ledger on payment_ledger`.execute(
        broken.app.db,
      );
      await sql`drop trigger catalog_version_products on products`.execute(broken.app.db);
    }
    const recorded = await keptAnswersSql(broken);
    const orders = await unguardedTables(broken.app.db, recorded.orders, ordersDetails);
    const catalog = await unguardedTables(broken.app.db, recorded.catalogue, catalogue);
    expect(orders.unguarded).toEqual({ payment_ledger: ['insert', 'update', 'delete'] });
    expect(catalog.unguarded).toEqual({ products: ['insert', 'update', 'delete'] });
  });
});
