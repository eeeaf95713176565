import { autoId, idColumnType, type MigrationDb } from './helpers.ts';

/**
 * Partners (issue 16, decision 016).
 *
 * A link is two rows, one per partner, each holding what that partner shares with the other. The
 * unique `customer_id` is the one-partner rule itself: of two accepts racing for the same person,
 * the second insert conflicts, whatever instance runs it. Sharing lives on the link, so an unlink
 * (deleting both rows) ends every choice with it, and a new link starts from nothing.
 *
 * An invitation's token is made when its email goes out (the outbox mints it); only its SHA-256 is
 * stored. The history is each customer's own account of what happened, shown to them alone.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('partner_links')
    .addColumn('customer_id', 'integer', (col) =>
      col.primaryKey().references('customers.id').onDelete('cascade'),
    )
    .addColumn('partner_id', 'integer', (col) =>
      col.notNull().unique().references('customers.id').onDelete('cascade'),
    )
    .addColumn('linked_at', 'text', (col) => col.notNull())
    .addColumn('share_address', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('share_orders', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('share_subscriptions', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('partner_invitations')
    .addColumn('id', idColumnType(db), autoId(db))
    .addColumn('inviter_id', 'integer', (col) =>
      col.notNull().references('customers.id').onDelete('cascade'),
    )
    // Lower-cased, as accounts store theirs.
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('token_hash', 'text', (col) => col.unique())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('answered_at', 'text')
    .execute();
  await db.schema
    .createIndex('partner_invitations_inviter_idx')
    .on('partner_invitations')
    .column('inviter_id')
    .execute();
  await db.schema
    .createIndex('partner_invitations_email_idx')
    .on('partner_invitations')
    .column('email')
    .execute();

  await db.schema
    .createTable('partner_events')
    .addColumn('id', idColumnType(db), autoId(db))
    .addColumn('customer_id', 'integer', (col) =>
      col.notNull().references('customers.id').onDelete('cascade'),
    )
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('item', 'text')
    .addColumn('counterpart', 'text', (col) => col.notNull())
    .addColumn('quiet', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('partner_events_customer_idx')
    .on('partner_events')
    .column('customer_id')
    .execute();
}
