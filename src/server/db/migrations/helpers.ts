import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

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

/**
 * A kept-answer trigger (migration 0028) on `table`: a row written, changed or deleted raises the
 * version of the customers `customers(row)` names (a query over NEW or OLD). `updateOf`: the columns
 * whose change counts (all of them when null). On PostgreSQL it is a constraint trigger deferred to
 * the commit, so a transaction raises each version once whatever it wrote.
 */
export async function createVersionTrigger(
  db: MigrationDb,
  name: string,
  table: string,
  customers: (row: 'NEW' | 'OLD') => string,
  updateOf: string | null = null,
): Promise<void> {
  const update = updateOf ? `update of ${updateOf}` : 'update';
  if (isPostgres(db)) {
    await sql
      .raw(
        `create function ${name}() returns trigger language plpgsql as $$
        begin
          if TG_OP <> 'INSERT' then ${raiseCustomerVersions(customers('OLD'), true)} end if;
          if TG_OP <> 'DELETE' then ${raiseCustomerVersions(customers('NEW'), true)} end if;
          return null;
        end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create constraint trigger ${name} after insert or ${update} or delete
        on ${table} deferrable initially deferred for each row execute function ${name}()`,
      )
      .execute(db);
    return;
  }
  const events = {
    insert: { on: 'insert', rows: ['NEW'] },
    update: { on: update, rows: ['OLD', 'NEW'] },
    delete: { on: 'delete', rows: ['OLD'] },
  } as const;
  for (const [event, { on, rows }] of Object.entries(events))
    await sql
      .raw(
        `create trigger ${name}_${event} after ${on} on ${table} begin
        ${rows.map((row) => raiseCustomerVersions(customers(row), false)).join('\n')}
        end`,
      )
      .execute(db);
}
