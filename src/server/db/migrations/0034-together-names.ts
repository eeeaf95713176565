import { sql } from 'kysely';
import { isPostgres, type MigrationDb } from './helpers.ts';

/**
 * Issue 27: a gift or couples' plan between partners is called "together" on every side (the
 * contract's `together_id`, the server, the partner page), so its table is too: `partner_offers`
 * (migration 0026) becomes `together_items`, and every name made after it follows. "Offer" stays
 * the catalogue's word for a product at a frequency and price.
 *
 * Nothing else names the table: no trigger reads it (those of migrations 0028 and 0033 are on
 * other tables) and no other table's foreign key points at it. Its own keys point out, at
 * customers, products and subscriptions, and a rename keeps them on both databases.
 *
 * PostgreSQL renames in place: the two indexes, the constraints it named after the table (the
 * primary key, the unique `subscription_id` and the foreign keys, whose indexes go with them) and
 * the id's sequence, which the column's default follows by its identity, not its name. SQLite
 * renames the table's own automatic index with it but cannot rename an index: the two are dropped
 * and made again, on the same columns, under the new names.
 */
const indexes = [
  { before: 'partner_offers_from_idx', after: 'together_items_from_idx', column: 'from_id' },
  { before: 'partner_offers_to_idx', after: 'together_items_to_idx', column: 'to_id' },
] as const;

export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('partner_offers').renameTo('together_items').execute();
  if (!isPostgres(db)) {
    for (const { before, after, column } of indexes) {
      await db.schema.dropIndex(before).execute();
      await db.schema.createIndex(after).on('together_items').column(column).execute();
    }
    return;
  }
  for (const { before, after } of indexes)
    await sql`alter index ${sql.id(before)} rename to ${sql.id(after)}`.execute(db);
  const constraints = await sql<{ name: string }>`
    select conname as name from pg_constraint
    where conrelid = 'together_items'::regclass and conname like 'partner\\_offers\\_%'`.execute(
    db,
  );
  for (const { name } of constraints.rows)
    await sql`alter table together_items rename constraint ${sql.id(name)} to ${sql.id(
      name.replace(/^partner_offers_/, 'together_items_'),
    )}`.execute(db);
  await sql`alter sequence if exists partner_offers_id_seq rename to together_items_id_seq`.execute(
    db,
  );
}
