import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import type { Frequency } from '#shared/catalog.ts';

export interface OfferRow {
  productId: number;
  frequency: Frequency;
  priceCents: number;
  dose: string;
  quantitySupported: boolean;
}

export interface LineRow {
  id: number;
  slug: string;
  name: string;
  summary: string;
  description: string;
  img: string;
  category: string;
  offers: OfferRow[];
}

const FREQUENCY_ORDER: Record<Frequency, number> = { ONE_TIME: 0, MONTHLY: 1, QUARTERLY: 2 };

/** Every product line with its active offers, in catalogue order. */
export async function selectCatalog(db: Kysely<Database>, slug?: string): Promise<LineRow[]> {
  let query = db
    .selectFrom('product_lines as l')
    .innerJoin('products as p', 'p.line_id', 'l.id')
    .select([
      'l.id as line_id',
      'l.slug',
      'l.name',
      'l.summary',
      'l.description',
      'l.img',
      'l.category',
      'l.sort_order',
      'p.id as product_id',
      'p.frequency',
      'p.price_cents',
      'p.dose',
      'p.quantity_supported',
    ])
    .where('p.active', '=', 1)
    .orderBy('l.sort_order')
    .orderBy('p.id');
  if (slug !== undefined) query = query.where('l.slug', '=', slug);
  const rows = await query.execute();

  const lines = new Map<number, LineRow>();
  for (const row of rows) {
    let line = lines.get(row.line_id);
    if (!line) {
      line = {
        id: row.line_id,
        slug: row.slug,
        name: row.name,
        summary: row.summary,
        description: row.description,
        img: row.img,
        category: row.category,
        offers: [],
      };
      lines.set(row.line_id, line);
    }
    line.offers.push({
      productId: row.product_id,
      frequency: row.frequency,
      priceCents: row.price_cents,
      dose: row.dose,
      quantitySupported: row.quantity_supported === 1,
    });
  }
  for (const line of lines.values()) {
    line.offers.sort((a, b) => FREQUENCY_ORDER[a.frequency] - FREQUENCY_ORDER[b.frequency]);
  }
  return [...lines.values()];
}

export interface OfferInfo {
  productId: number;
  name: string;
  slug: string;
  img: string;
  category: string;
  frequency: Frequency;
  priceCents: number;
}

/** The active offer of the same product line as `productId` at `frequency` (or `productId` itself). */
export async function selectSiblingOffer(
  db: Kysely<Database>,
  productId: number,
  frequency?: Frequency,
): Promise<OfferInfo | undefined> {
  let query = db
    .selectFrom('products as p')
    .innerJoin('products as origin', 'origin.line_id', 'p.line_id')
    .innerJoin('product_lines as l', 'l.id', 'p.line_id')
    .select(['p.id', 'l.name', 'l.slug', 'l.img', 'l.category', 'p.frequency', 'p.price_cents'])
    .where('origin.id', '=', productId)
    .where('p.active', '=', 1);
  query = frequency
    ? query.where('p.frequency', '=', frequency)
    : query.where('p.id', '=', productId);
  const row = await query.executeTakeFirst();
  return row && toOffer(row);
}

function toOffer(row: {
  id: number;
  name: string;
  slug: string;
  img: string;
  category: string;
  frequency: Frequency;
  price_cents: number;
}): OfferInfo {
  return {
    productId: row.id,
    name: row.name,
    slug: row.slug,
    img: row.img,
    category: row.category,
    frequency: row.frequency,
    priceCents: row.price_cents,
  };
}

/** Every active offer at a frequency, in catalogue order. */
export async function selectOffersAt(
  db: Kysely<Database>,
  frequency: Frequency,
): Promise<OfferInfo[]> {
  const rows = await db
    .selectFrom('products as p')
    .innerJoin('product_lines as l', 'l.id', 'p.line_id')
    .select(['p.id', 'l.name', 'l.slug', 'l.img', 'l.category', 'p.frequency', 'p.price_cents'])
    .where('p.frequency', '=', frequency)
    .where('p.active', '=', 1)
    .orderBy('l.sort_order')
    .execute();
  return rows.map(toOffer);
}
