import SQLite from 'better-sqlite3';
import pg from 'pg';
import { CompiledQuery, type Kysely } from 'kysely';
import { SQLITE_DATA_VERSION } from '#server/db/client.ts';
import type { Database } from '#server/db/schema.ts';
import { expect, vi } from 'vitest';
import { testDialect } from './app.ts';

/** better-sqlite3's Statement prototype, whose methods run a statement. */
function sqliteStatement(): SQLite.Statement {
  const probe = new SQLite(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('select 1')) as SQLite.Statement;
  probe.close();
  return statement;
}
const sqliteRunMethods = ['run', 'get', 'all', 'iterate'] as const;

/**
 * How many SQL statements the test database's driver runs, in this process, while `work` does. On
 * SQLite the session cache's check of `PRAGMA data_version` (at most one a call, and none within
 * SQLITE_CHECK_MS of the last; it reads no table) is not counted, so the count does not depend on
 * how fast the machine is; `sqliteStatementsRun` shows it.
 */
export async function statementsDuring(work: () => Promise<unknown>): Promise<number> {
  if (testDialect === 'sqlite')
    return (await sqliteStatementsRun(work)).filter(({ sql }) => sql !== SQLITE_DATA_VERSION)
      .length;
  const spy = vi.spyOn(pg.Client.prototype, 'query');
  try {
    await work();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

/** On SQLite: each statement better-sqlite3 runs while `work` does, its SQL and its values. */
export async function sqliteStatementsRun(
  work: () => Promise<unknown>,
): Promise<{ sql: string; parameters: unknown[] }[]> {
  if (testDialect !== 'sqlite')
    throw new Error('sqliteStatementsRun needs the SQLite test database');
  const statement = sqliteStatement();
  const run: { sql: string; parameters: unknown[] }[] = [];
  const spies = sqliteRunMethods.map((method) => {
    const original = statement[method] as (...args: unknown[]) => unknown;
    return vi.spyOn(statement, method).mockImplementation(function (
      this: SQLite.Statement,
      ...args: unknown[]
    ) {
      run.push({ sql: this.source, parameters: (args[0] as unknown[] | undefined) ?? [] });
      return original.apply(this, args);
    } as never);
  });
  try {
    await work();
    return run;
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

/**
 * On SQLite: every statement reads each table through an index, never whole. A subquery in FROM
 * is read as a co-routine ("CO-ROUTINE o", then "SCAN o"): its rows come from the searches inside.
 */
export async function expectIndexedReads(
  db: Kysely<Database>,
  statements: { sql: string; parameters: unknown[] }[],
): Promise<void> {
  for (const { sql, parameters } of statements) {
    const plan = await db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${sql}`, parameters),
    );
    const details = plan.rows.map((row) => row.detail);
    const coroutines = details.flatMap((d) => /^CO-ROUTINE (\S+)/.exec(d)?.[1] ?? []);
    const scans = details.filter((d) => {
      const scanned = /^SCAN (\S+)/.exec(d)?.[1];
      return scanned !== undefined && !coroutines.includes(scanned);
    });
    expect({ sql, scans }).toEqual({ sql, scans: [] });
  }
}
