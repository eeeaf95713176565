import { sql } from 'kysely';
import { autoId, idColumnType, type MigrationDb } from './helpers.ts';

/**
 * Couples, household slice (issue 16, decision 016): a store order shipped to the partner, and
 * invitations to start a visit of the same program.
 *
 * `orders.ship_to_partner_id` records that the order ships to the customer's partner (the address
 * itself is copied onto the order, as any order's is, so it stays as placed after an unlink). A
 * deleted partner account leaves the order as it was, without the link.
 *
 * A visit invitation names a program and nothing of the inviter's visit (no visit id, status or
 * answer). At most one pending per program per pair: a partial unique index, so two sends racing on
 * any number of instances make one. `partner_events.program` says which program a history line is
 * about (the owner's own history).
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('orders')
    .addColumn('ship_to_partner_id', 'integer', (col) =>
      col.references('customers.id').onDelete('set null'),
    )
    .execute();

  await db.schema
    .createTable('partner_visit_invitations')
    .addColumn('id', idColumnType(db), autoId(db))
    .addColumn('inviter_id', 'integer', (col) =>
      col.notNull().references('customers.id').onDelete('cascade'),
    )
    .addColumn('invitee_id', 'integer', (col) =>
      col.notNull().references('customers.id').onDelete('cascade'),
    )
    .addColumn('program', 'text', (col) => col.notNull())
    // 1: the invitee may know the inviter started a visit of the program.
    .addColumn('reveal_started', 'integer', (col) => col.notNull().defaultTo(0))
    // pending, dismissed, ended (the link ended while it was pending), or started (the invitee
    // started a visit of the program; the value came with issue 16's last slice, no change of type).
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('closed_at', 'text')
    .execute();
  await db.schema
    .createIndex('partner_visit_invitations_one_pending')
    .on('partner_visit_invitations')
    .columns(['inviter_id', 'invitee_id', 'program'])
    .unique()
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  await db.schema
    .createIndex('partner_visit_invitations_invitee_idx')
    .on('partner_visit_invitations')
    .column('invitee_id')
    .execute();

  await db.schema.alterTable('partner_events').addColumn('program', 'text').execute();
}
