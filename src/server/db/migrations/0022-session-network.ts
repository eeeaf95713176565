import type { MigrationDb } from './helpers.ts';

/**
 * A session remembers the network it logged in from, masked (`203.0.113.x`, or an IPv6 /48), so the
 * customer can tell their devices apart on Accounts without the server keeping a full address.
 * Sessions from before this migration show none.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('network', 'text').execute();
}
