import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DbHandle } from '#server/db/client.ts';
import { testDialect } from '#test/app.ts';
import { migrationDatabase } from '#test/migration-db.ts';

/**
 * Migration 0034 on a database that already has a gift waiting: the row, its keys and its indexes
 * come through under the table's new name, on whichever database the suite runs on, and nothing
 * in the schema names the old table any more.
 */
describe(`migration 0034: together_items (${testDialect})`, () => {
  const database = migrationDatabase('m0034');

  /** Every index, constraint, trigger, function and sequence name the schema holds. */
  async function namesIn(handle: DbHandle): Promise<string[]> {
    if (handle.dialect === 'sqlite')
      return (
        await sql<{ name: string }>`select name from sqlite_master where type != 'table'`.execute(
          handle.db,
        )
      ).rows.map((r) => r.name);
    const rows = await sql<{ name: string }>`
      select indexname as name from pg_indexes where schemaname = current_schema()
      union all select conname from pg_constraint
        where connamespace = current_schema()::regnamespace
      union all select tgname from pg_trigger join pg_class on pg_class.oid = tgrelid
        where relnamespace = current_schema()::regnamespace
      union all select sequencename from pg_sequences where schemaname = current_schema()`.execute(
      handle.db,
    );
    return rows.rows.map((r) => r.name);
  }

  /** The text of every trigger, view and function in the schema. */
  async function codeIn(handle: DbHandle): Promise<string> {
    const rows =
      handle.dialect === 'sqlite'
        ? await sql<{ code: string }>`
            select sql as code from sqlite_master where type in ('trigger', 'view')`.execute(
            handle.db,
          )
        : await sql<{ code: string }>`
            select prosrc as code from pg_proc where pronamespace = current_schema()::regnamespace
            union all select definition from pg_views where schemaname = current_schema()`.execute(
            handle.db,
          );
    return rows.rows.map((r) => r.code).join('\n');
  }

  it('keeps the waiting gift, its keys and its indexes under the new names', async () => {
    const handle = await database.open();
    try {
      const { db } = handle;
      const migrator = database.migratorFor(handle);
      expect((await migrator.migrateTo(database.before('0034'))).error).toBeUndefined();
      const now = '2026-01-01T00:00:00.000Z';
      const customer = (who: string) =>
        db
          .insertInto('customers')
          .values({
            leads_id: `Lm0034${who}`,
            email: `m0034-${who}@example.test`,
            first_name: who,
            last_name: 'Grant',
            password_hash: 'x',
            dob: '1985-05-05',
            phone: '5035550142',
            created_at: now,
            updated_at: now,
          } as never)
          .returning('id')
          .executeTakeFirstOrThrow();
      const alex = await customer('Alex');
      const sam = await customer('Sam');
      await db
        .insertInto('product_lines')
        .values({
          id: 1,
          slug: 'sleep',
          name: 'Sleep Gummies',
          summary: '',
          description: '',
          img: '',
          category: 'supplements',
          sort_order: 1,
        } as never)
        .execute();
      await db
        .insertInto('products')
        .values({
          id: 11,
          line_id: 1,
          frequency: 'MONTHLY',
          price_cents: 1750,
          dose: '',
          quantity_supported: 1,
        } as never)
        .execute();
      const gift = (from: number, to: number) => ({
        kind: 'gift',
        from_id: from,
        to_id: to,
        product_id: 11,
        quantity: 1,
        partner_product_id: null,
        partner_quantity: null,
        status: 'pending',
        subscription_id: null,
        created_at: now,
        answered_at: null,
      });
      const waiting = await sql<{ id: number }>`
        insert into partner_offers (kind, from_id, to_id, product_id, quantity, status, created_at)
        values ('gift', ${alex.id}, ${sam.id}, 11, 1, 'pending', ${now}) returning id`.execute(db);
      const waitingId = waiting.rows[0]!.id;

      expect((await migrator.migrateToLatest()).error).toBeUndefined();

      expect(
        await db.selectFrom('together_items').select(['id', 'kind', 'status', 'to_id']).execute(),
      ).toEqual([{ id: waitingId, kind: 'gift', status: 'pending', to_id: sam.id }]);
      await expect(sql`select id from partner_offers`.execute(db)).rejects.toThrow();
      const names = await namesIn(handle);
      expect(names.filter((name) => name.includes('partner_offers'))).toEqual([]);
      expect(names).toEqual(
        expect.arrayContaining(['together_items_from_idx', 'together_items_to_idx']),
      );
      expect(await codeIn(handle)).not.toContain('partner_offers');

      // The id goes on from where it was; the keys still hold and still cascade.
      const next = await db
        .insertInto('together_items')
        .values(gift(sam.id, alex.id) as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      expect(next.id).toBeGreaterThan(waitingId);
      await expect(
        db
          .insertInto('together_items')
          .values({ ...gift(alex.id, sam.id), subscription_id: 999_999 } as never)
          .execute(),
      ).rejects.toThrow();
      await expect(
        db
          .insertInto('together_items')
          .values({ ...gift(alex.id, sam.id), product_id: 999 } as never)
          .execute(),
      ).rejects.toThrow();
      await db.deleteFrom('customers').where('id', '=', sam.id).execute();
      expect(await db.selectFrom('together_items').select('id').execute()).toEqual([]);
    } finally {
      await handle.close();
    }
  });
});
