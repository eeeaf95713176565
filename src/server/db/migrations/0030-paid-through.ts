import { sql } from 'kysely';
import { isPostgres, raiseCustomerVersions, type MigrationDb } from './helpers.ts';

/**
 * Issue 26, gifts:
 *
 * - `paid_through`: the day a subscription is paid until, the billing date its last paid period
 *   moved it to. Only the payer may bring a charge forward; a gift's recipient may move the next
 *   delivery earlier only as far as this day (decision 018). Null until a period is paid after this
 *   migration: then the next billing date stands in for it.
 * - A gift's orders name their recipient by first name on the payer's Orders, so a rename of the
 *   recipient raises the payer's kept-answer version too (migration 0028's partner-name trigger,
 *   which already does so for orders shipped to a partner).
 */
const namedOn = (row: 'NEW') =>
  `select customer_id as id from orders where ship_to_partner_id = ${row}.id
   union select customer_id as id from subscriptions where recipient_id = ${row}.id`;

const raise = raiseCustomerVersions;

export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('subscriptions').addColumn('paid_through', 'text').execute();
  await db.schema
    .createIndex('subscriptions_recipient_idx')
    .on('subscriptions')
    .column('recipient_id')
    .where(sql.ref('recipient_id'), 'is not', null)
    .execute();
  if (isPostgres(db)) {
    await sql
      .raw(
        `create or replace function customer_versions_partner_name() returns trigger
        language plpgsql as $$ begin ${raise(namedOn('NEW'), true)} return null; end $$`,
      )
      .execute(db);
    return;
  }
  await sql.raw('drop trigger customer_versions_partner_name').execute(db);
  await sql
    .raw(
      `create trigger customer_versions_partner_name after update of first_name on customers
      begin ${raise(namedOn('NEW'), false)} end`,
    )
    .execute(db);
}
