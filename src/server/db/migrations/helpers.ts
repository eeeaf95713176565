import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

// Migrations take Kysely<any> by Kysely's own convention: they run against every past schema.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type MigrationDb = Kysely<any>;

export function isPostgres(db: MigrationDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** An auto-numbered primary key on either database. */
export function idColumnType(db: MigrationDb): 'serial' | 'integer' {
  return isPostgres(db) ? 'serial' : 'integer';
}

export function autoId(db: MigrationDb) {
  return (col: ColumnDefinitionBuilder) =>
    isPostgres(db) ? col.primaryKey() : col.primaryKey().autoIncrement();
}
