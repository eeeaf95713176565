import { sql } from 'kysely';
import { isPostgres, raiseCustomerVersions, type MigrationDb } from './helpers.ts';

/**
 * A version of each customer's own data, raised by the database itself whenever a row a member
 * answer reads changes, so an instance may keep a customer's answer for as long as the version it
 * was read at stands (issue 14; `lib/own-answers.ts`, decision 017). Triggers, not application
 * code, raise it: every write, from any instance, any job and any future code path, counts.
 *
 * Each table names the customers a row belongs to, as a query over the row (`NEW` or `OLD`).
 * A partner's first name shows on the orders that ship to them, and a gift's renewals hide the
 * recipient's address from the payer: those reach the customers of the orders concerned, through
 * two new indexes.
 *
 * On PostgreSQL the version is raised when the transaction commits (a deferred constraint
 * trigger): a version row is then locked only once every other lock a transaction takes is held,
 * so two of one customer's transactions queue as they do today instead of deadlocking on it.
 * SQLite writes one transaction at a time.
 */
const sources: { table: string; customers: (row: 'NEW' | 'OLD') => string }[] = [
  { table: 'customers', customers: (row) => `select ${row}.id as id` },
  { table: 'payment_methods', customers: (row) => `select ${row}.customer_id as id` },
  { table: 'orders', customers: (row) => `select ${row}.customer_id as id` },
  {
    table: 'order_items',
    customers: (row) => `select customer_id as id from orders where id = ${row}.order_id`,
  },
  {
    table: 'subscriptions',
    customers: (row) =>
      `select ${row}.customer_id as id union select customer_id from orders where subscription_id = ${row}.id`,
  },
  { table: 'visits', customers: (row) => `select ${row}.customer_id as id` },
  { table: 'prescriptions', customers: (row) => `select ${row}.customer_id as id` },
  { table: 'message_threads', customers: (row) => `select ${row}.customer_id as id` },
  {
    table: 'messages',
    customers: (row) => `select customer_id as id from message_threads where id = ${row}.thread_id`,
  },
];

/** The customers whose orders ship to this one: their orders show this customer's first name. */
const partnerName = (row: 'NEW' | 'OLD') =>
  `select customer_id as id from orders where ship_to_partner_id = ${row}.id`;

const raise = raiseCustomerVersions;

export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('customer_versions')
    .addColumn('customer_id', 'integer', (col) => col.primaryKey())
    .addColumn('version', 'integer', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('orders_ship_to_partner_idx')
    .on('orders')
    .column('ship_to_partner_id')
    .where(sql.ref('ship_to_partner_id'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('orders_subscription_idx')
    .on('orders')
    .column('subscription_id')
    .where(sql.ref('subscription_id'), 'is not', null)
    .execute();

  const postgres = isPostgres(db);
  for (const { table, customers } of sources) {
    const name = `customer_versions_${table}`;
    if (postgres) {
      await sql
        .raw(
          `create function ${name}() returns trigger language plpgsql as $$
          begin
            if TG_OP <> 'INSERT' then ${raise(customers('OLD'), true)} end if;
            if TG_OP <> 'DELETE' then ${raise(customers('NEW'), true)} end if;
            return null;
          end $$`,
        )
        .execute(db);
      await sql
        .raw(
          `create constraint trigger ${name} after insert or update or delete on ${table}
          deferrable initially deferred for each row execute function ${name}()`,
        )
        .execute(db);
      continue;
    }
    const rows = { insert: ['NEW'], update: ['OLD', 'NEW'], delete: ['OLD'] } as const;
    for (const [event, which] of Object.entries(rows))
      await sql
        .raw(
          `create trigger ${name}_${event} after ${event} on ${table} begin
          ${which.map((row) => raise(customers(row), false)).join('\n')}
          end`,
        )
        .execute(db);
  }

  // A first name changes on few updates: only those reach the partner's orders.
  if (postgres) {
    await sql
      .raw(
        `create function customer_versions_partner_name() returns trigger language plpgsql as $$
        begin ${raise(partnerName('NEW'), true)} return null; end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create constraint trigger customer_versions_partner_name after update of first_name
        on customers deferrable initially deferred for each row
        execute function customer_versions_partner_name()`,
      )
      .execute(db);
  } else {
    await sql
      .raw(
        `create trigger customer_versions_partner_name after update of first_name on customers
        begin ${raise(partnerName('NEW'), false)} end`,
      )
      .execute(db);
  }
}
