import { sql } from 'kysely';
import { isPostgres, type MigrationDb } from './helpers.ts';

/**
 * A version of the catalogue (the product lines and their offers), raised by the database itself on
 * every write to either table, whoever makes it: a release's seed, an operator's edit by hand, any
 * instance. An instance keeps the catalogue's answers and the drawn pages under the version they
 * were made at, and reads the version at most once a second in the background
 * (`features/catalog/catalog.version.ts`), so a change shows on every instance within about a
 * second while a warm request runs no statement (issue 14, decision 019).
 *
 * One row. Writes to the catalogue are rare (a seed, an edit), so a row trigger raising it once per
 * changed row costs nothing that matters.
 */
const tables = ['product_lines', 'products'] as const;
const raise = 'update catalog_version set version = version + 1 where id = 1;';

export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('catalog_version')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('version', 'integer', (col) => col.notNull())
    .execute();
  await sql`insert into catalog_version (id, version) values (1, 1)`.execute(db);

  if (isPostgres(db)) {
    await sql
      .raw(
        `create function catalog_version_raise() returns trigger language plpgsql as $$
        begin ${raise} return null; end $$`,
      )
      .execute(db);
    for (const table of tables)
      await sql
        .raw(
          `create trigger catalog_version_${table} after insert or update or delete on ${table}
          for each row execute function catalog_version_raise()`,
        )
        .execute(db);
    return;
  }
  for (const table of tables)
    for (const event of ['insert', 'update', 'delete'])
      await sql
        .raw(
          `create trigger catalog_version_${table}_${event} after ${event} on ${table} begin ${raise} end`,
        )
        .execute(db);
}
