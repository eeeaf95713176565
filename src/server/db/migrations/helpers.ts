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

/**
 * The statement a kept-answer trigger runs (migration 0028): raises the version of each customer
 * `customers` (a query over the row) names, once each, creating the version row if need be. On
 * PostgreSQL the rows are locked in id order, so two transactions never take them crosswise.
 */
export function raiseCustomerVersions(customers: string, postgres: boolean): string {
  return `insert into customer_versions (customer_id, version)
    select id, 1 from (${customers}) as belongs where id is not null${postgres ? ' order by id' : ''}
    on conflict (customer_id) do update set version = customer_versions.version + 1;`;
}
