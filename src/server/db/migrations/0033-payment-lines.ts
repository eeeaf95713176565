import { sql } from 'kysely';
import { isPostgres, raiseCustomerVersions, type MigrationDb } from './helpers.ts';

/**
 * Issue 26: an order shows every charge, hold, release and refund the payment ledger settled for
 * it, so the kept orders answer (migration 0028) now reads the ledger too: a call written or
 * settled raises the version of the order's customer. Only a change of status counts; the
 * reconciler's claims and attempts change nothing the customer sees.
 */
const customers = (row: 'NEW' | 'OLD') =>
  `select customer_id as id from orders where id = ${row}.order_id`;

export async function up(db: MigrationDb): Promise<void> {
  const name = 'customer_versions_payment_ledger';
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
        `create constraint trigger ${name} after insert or update of status, order_id or delete
        on payment_ledger deferrable initially deferred for each row execute function ${name}()`,
      )
      .execute(db);
    return;
  }
  const events = {
    insert: { on: 'insert', rows: ['NEW'] },
    update: { on: 'update of status, order_id', rows: ['OLD', 'NEW'] },
    delete: { on: 'delete', rows: ['OLD'] },
  } as const;
  for (const [event, { on, rows }] of Object.entries(events))
    await sql
      .raw(
        `create trigger ${name}_${event} after ${on} on payment_ledger begin
        ${rows.map((row) => raiseCustomerVersions(customers(row), false)).join('\n')}
        end`,
      )
      .execute(db);
}
