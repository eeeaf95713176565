import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '#server/db/client.ts';
import { migrations } from './index.ts';

/**
 * Migration 0017 on a database that already has photo IDs: each gets its own random public id.
 * SQLite only: the data step is the same on both databases, and every suite on PostgreSQL runs
 * the whole migration on an empty schema.
 */
describe('migration 0017: upload public ids', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pairwell-m0017-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('gives every existing upload a distinct 22-character random id', async () => {
    const handle = openDatabase({ dataDir: dir });
    try {
      const migrator = new Migrator({
        db: handle.db,
        provider: { getMigrations: () => Promise.resolve(migrations) },
      });
      const before = Object.keys(migrations).filter((name) => name < '0017');
      const upTo = await migrator.migrateTo(before.at(-1)!);
      expect(upTo.error).toBeUndefined();
      const now = '2026-01-01T00:00:00.000Z';
      const customer = await handle.db
        .insertInto('customers')
        .values({
          leads_id: 'Lm0017',
          email: 'm0017@example.test',
          first_name: 'Mia',
          last_name: 'Grant',
          password_hash: 'x',
          dob: '1985-05-05',
          phone: '5035550142',
          created_at: now,
          updated_at: now,
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const name of ['a', 'b', 'c'])
        await handle.db
          .insertInto('uploads')
          .values({
            customer_id: customer.id,
            visit_id: null,
            kind: 'photo_id',
            mime_type: 'image/jpeg',
            size_bytes: 1,
            stored_name: name,
            created_at: now,
          } as never)
          .execute();

      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const ids = (await handle.db.selectFrom('uploads').select('public_id').execute()).map(
        (r) => r.public_id,
      );
      expect(ids).toHaveLength(3);
      for (const id of ids) expect(id).toMatch(/^[\w-]{22}$/);
      expect(new Set(ids).size).toBe(3);
    } finally {
      await handle.close();
    }
  });
});
