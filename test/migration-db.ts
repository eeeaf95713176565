import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator } from 'kysely';
import pg from 'pg';
import { afterAll } from 'vitest';
import { openDatabase, pgConnection, type DbHandle } from '#server/db/client.ts';
import { migrations } from '#server/db/migrations/index.ts';
import { testDatabaseUrl } from './app.ts';

/**
 * A database of its own for a migration's test, on whichever database the suite runs on: a SQLite
 * file in a temporary directory, or a fresh PostgreSQL schema, removed after the file's tests.
 * `open()` opens it; `migratorFor(handle)` migrates it step by step (to the migration before the
 * one under test, rows written, then to the latest).
 */
export function migrationDatabase(name: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `pairwell-${name}-`));
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  const onPg = async (statement: string) => {
    const client = new pg.Client(pgConnection(testDatabaseUrl ?? ''));
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    if (testDatabaseUrl) await onPg(`drop schema if exists ${schema} cascade`);
  });

  return {
    async open(): Promise<DbHandle> {
      if (!testDatabaseUrl) return openDatabase({ dataDir: dir });
      await onPg(`create schema ${schema}`);
      return openDatabase({ dataDir: dir, databaseUrl: testDatabaseUrl, pgSchema: schema });
    },
    migratorFor(handle: DbHandle): Migrator {
      return new Migrator({
        db: handle.db,
        provider: { getMigrations: () => Promise.resolve(migrations) },
        // On PostgreSQL Kysely looks for its own tables in every schema unless told which one (as
        // db/migrate.ts tells it): another test's schema must not count as this one's.
        ...(testDatabaseUrl ? { migrationTableSchema: schema } : {}),
      });
    },
    /** The name of the migration just before `name` ('0041' → '0040-…'). */
    before(prefix: string): string {
      const earlier = Object.keys(migrations).filter((m) => m < prefix);
      const last = earlier.at(-1);
      if (!last) throw new Error(`no migration before ${prefix}`);
      return last;
    },
  };
}
