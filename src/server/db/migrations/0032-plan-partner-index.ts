import { sql } from 'kysely';
import type { MigrationDb } from './helpers.ts';

/**
 * Issue 26: gifts and couples' plans are on the Subscriptions page of both people. A plan
 * partner's list finds their plans by `plan_partner_id`, as a recipient's finds gifts by
 * `subscriptions_recipient_idx` (migration 0030); partial, since most subscriptions are in no plan.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createIndex('subscriptions_plan_partner_idx')
    .on('subscriptions')
    .column('plan_partner_id')
    .where(sql.ref('plan_partner_id'), 'is not', null)
    .execute();
}
