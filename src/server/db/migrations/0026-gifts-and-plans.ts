import { autoId, idColumnType, type MigrationDb } from './helpers.ts';

/**
 * Gifts and couples' plans between linked partners (issue 16, decision 018).
 *
 * An offer (`partner_offers`) is what one partner proposes and the other answers: a gift
 * subscription, or a couples' plan. Nothing bills while it waits; accepting it starts one
 * subscription row, which keeps the payer as `customer_id`, so billing, the card, dunning and
 * card-update retries work on it as on any other. A gift names its recipient and which of the
 * recipient's addresses it ships to (`ship_to`: their shipping or billing address, read at each
 * renewal); a couples' plan carries the partner's line (product and quantity) beside the owner's,
 * so one renewal order holds both lines and takes one charge. The offer's `subscription_id` is
 * unique: however many accepts race, one subscription is started.
 *
 * The table is `together_items` since migration 0034 (issue 27: "offer" is the catalogue's word).
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('partner_offers')
    .addColumn('id', idColumnType(db), autoId(db))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('from_id', 'integer', (col) =>
      col.notNull().references('customers.id').onDelete('cascade'),
    )
    .addColumn('to_id', 'integer', (col) =>
      col.notNull().references('customers.id').onDelete('cascade'),
    )
    .addColumn('product_id', 'integer', (col) => col.notNull().references('products.id'))
    .addColumn('quantity', 'integer', (col) => col.notNull())
    .addColumn('partner_product_id', 'integer', (col) => col.references('products.id'))
    .addColumn('partner_quantity', 'integer')
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('subscription_id', 'integer', (col) => col.unique().references('subscriptions.id'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('answered_at', 'text')
    .execute();
  await db.schema
    .createIndex('partner_offers_from_idx')
    .on('partner_offers')
    .column('from_id')
    .execute();
  await db.schema
    .createIndex('partner_offers_to_idx')
    .on('partner_offers')
    .column('to_id')
    .execute();

  await db.schema.alterTable('subscriptions').addColumn('recipient_id', 'integer').execute();
  await db.schema.alterTable('subscriptions').addColumn('ship_to', 'text').execute();
  await db.schema.alterTable('subscriptions').addColumn('plan_partner_id', 'integer').execute();
  await db.schema
    .alterTable('subscriptions')
    .addColumn('plan_partner_product_id', 'integer')
    .execute();
  await db.schema
    .alterTable('subscriptions')
    .addColumn('plan_partner_quantity', 'integer')
    .execute();
}
