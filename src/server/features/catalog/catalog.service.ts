import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import { notFound } from '#server/lib/errors.ts';
import type { Catalog, Frequency, ProductLine } from '#shared/catalog.ts';
import { centsToAmount } from '#shared/money.ts';
import { site } from '#shared/site.ts';
import { paths } from '#shared/paths.ts';
import {
  selectCatalog,
  selectOffersAt,
  selectSiblingOffer,
  type LineRow,
} from './catalog.queries.ts';

function toProductLine(line: LineRow): ProductLine {
  return {
    slug: line.slug,
    name: line.name,
    summary: line.summary,
    description: line.description,
    img: line.img,
    category: line.category,
    offers: line.offers.map((offer) => ({
      product_id: offer.productId,
      product_name: line.name,
      price: centsToAmount(offer.priceCents),
      price_cents: offer.priceCents,
      frequency: offer.frequency,
      quantity_supported: offer.quantitySupported,
      img: line.img,
      description: line.summary,
      dose: offer.dose,
      category: line.category,
    })),
  };
}

export async function listCatalog(db: Kysely<Database>): Promise<Catalog> {
  const lines = await selectCatalog(db);
  return { lines: lines.map(toProductLine) };
}

export async function getProductLine(db: Kysely<Database>, slug: string): Promise<ProductLine> {
  const [line] = await selectCatalog(db, slug);
  if (!line) throw notFound('We could not find that product.');
  return toProductLine(line);
}

/**
 * The picture a storefront page leads with, which is its largest paint: the home page's hero, or a
 * product page's product. Null for every other page. The page HTML names it so the browser fetches
 * it while the app's code downloads, instead of after it has run.
 */
export async function leadImageFor(db: Kysely<Database>, pathname: string): Promise<string | null> {
  if (pathname === paths.home) return site.heroImage;
  const slug = /^\/shop\/([a-z0-9-]{1,80})$/.exec(pathname)?.[1];
  if (!slug) return null;
  const [line] = await selectCatalog(db, slug);
  return line?.img ?? null;
}

/** The same product at another frequency (e.g. the monthly offer of a one-time product). */
export function siblingOffer(db: Kysely<Database>, productId: number, frequency: Frequency) {
  return selectSiblingOffer(db, productId, frequency);
}

export function offer(db: Kysely<Database>, productId: number) {
  return selectSiblingOffer(db, productId);
}

export function offersAt(db: Kysely<Database>, frequency: Frequency) {
  return selectOffersAt(db, frequency);
}
