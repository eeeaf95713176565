import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';
import { catalogSeed } from './seed-catalog.ts';

/**
 * Inserts the catalogue when it is missing. Idempotent and safe from several instances at once:
 * rows that exist are left alone (staff edits survive restarts), nothing is ever duplicated.
 */
export async function seedCatalog(db: Kysely<Database>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const [index, line] of catalogSeed.entries()) {
      await trx
        .insertInto('product_lines')
        .values({
          id: line.id,
          slug: line.slug,
          name: line.name,
          summary: line.summary,
          description: line.description,
          img: line.img,
          category: line.category,
          sort_order: index + 1,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      for (const offer of line.offers) {
        await trx
          .insertInto('products')
          .values({
            id: offer.id,
            line_id: line.id,
            frequency: offer.frequency,
            price_cents: offer.priceCents,
            dose: offer.dose,
            quantity_supported: offer.quantity ? 1 : 0,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
      }
    }
  });
}
