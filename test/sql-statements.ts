import SQLite from 'better-sqlite3';
import pg from 'pg';
import { vi } from 'vitest';
import { testDialect } from './app.ts';

/** How many SQL statements the test database's driver runs, in this process, while `work` does. */
export async function statementsDuring(work: () => Promise<unknown>): Promise<number> {
  const spies =
    testDialect === 'postgres'
      ? [vi.spyOn(pg.Client.prototype, 'query')]
      : (() => {
          const probe = new SQLite(':memory:');
          const statement = Object.getPrototypeOf(probe.prepare('select 1')) as SQLite.Statement;
          probe.close();
          return (['run', 'get', 'all', 'iterate'] as const).map((method) =>
            vi.spyOn(statement, method),
          );
        })();
  try {
    await work();
    return spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}
