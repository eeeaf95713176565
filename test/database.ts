import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { testDialect, type TestApp } from './app.ts';

/** Every table of the app's database (its PostgreSQL schema, or the SQLite file), as the catalogue says. */
export async function tableNames(t: TestApp): Promise<string[]> {
  const result =
    testDialect === 'sqlite'
      ? await sql<{ name: string }>`
          select name from sqlite_master where type = 'table' and name not like 'sqlite_%'
        `.execute(t.app.db)
      : await sql<{ name: string }>`
          select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE'
        `.execute(t.app.db);
  return result.rows.map((r) => r.name).sort();
}

/**
 * A snapshot function for "did anything change?": for every table, its row count and a digest of
 * its rows, taken in one query (the fuzz tests take one after every request, so it must be cheap
 * on PostgreSQL too). `skip` tables are left out; `countOnly` tables are only counted (a session's
 * last-seen time moves with every request it makes). The tables are listed once, when it is made.
 */
export async function databaseState(
  t: TestApp,
  options: { skip?: readonly string[]; countOnly?: readonly string[] } = {},
): Promise<() => Promise<Record<string, string>>> {
  const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
  const tables = (await tableNames(t)).filter((name) => !options.skip?.includes(name));
  const parts: string[] = [];
  for (const name of tables) {
    const label = `'${name.replaceAll("'", "''")}'`;
    if (options.countOnly?.includes(name)) {
      parts.push(`select ${label} as name, cast(count(*) as text) as v from ${quote(name)}`);
    } else if (testDialect === 'postgres') {
      parts.push(
        `select ${label} as name, count(*) || ':' || coalesce(md5(string_agg(x::text, '|' order by x::text)), '') as v from ${quote(name)} x`,
      );
    } else {
      const columns = await sql<{ name: string }>`
        select name from pragma_table_info(${name})
      `.execute(t.app.db);
      const row = `json_array(${columns.rows.map((c) => quote(c.name)).join(', ')})`;
      parts.push(
        `select ${label} as name, count(*) || ':' || coalesce(group_concat(${row}, '|'), '') as v from ${quote(name)}`,
      );
    }
  }
  const query = sql.raw(parts.join(' union all '));
  return async () => {
    const result = await sql<{ name: string; v: string }>`${query}`.execute(t.app.db);
    return Object.fromEntries(
      result.rows.map((r) => [
        r.name,
        r.v.length > 64 ? crypto.createHash('sha256').update(r.v).digest('hex') : r.v,
      ]),
    );
  };
}

/** Every row of every table, as text: what a database dump would show. */
export async function everyRow(t: TestApp): Promise<string> {
  const dumps: string[] = [];
  for (const name of await tableNames(t)) {
    const rows = await sql`select * from ${sql.table(name)}`.execute(t.app.db);
    dumps.push(`${name}: ${JSON.stringify(rows.rows)}`);
  }
  return dumps.join('\n');
}

/**
 * Every byte the database holds for this app: every row of every table, and on SQLite the files
 * themselves (the database, its WAL and shared memory), where a deleted or overwritten value can
 * linger in a free page.
 */
export async function everythingStored(t: TestApp): Promise<string> {
  const rows = await everyRow(t);
  if (testDialect !== 'sqlite') return rows;
  const files = fs
    .readdirSync(t.dataDir)
    .filter((f) => f.startsWith('pairwell.db'))
    .map((f) => fs.readFileSync(path.join(t.dataDir, f)).toString('latin1'));
  return [rows, ...files].join('\n');
}
