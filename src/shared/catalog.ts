// zod/mini, not classic zod: a storefront page reads the catalogue on its first visit
// (docs/decisions/007-measured-quality.md).
import * as z from 'zod/mini';

export const frequencies = ['ONE_TIME', 'MONTHLY', 'QUARTERLY'] as const;
export const FrequencySchema = z.enum(frequencies);
export type Frequency = z.infer<typeof FrequencySchema>;

/** One purchasable offer: a product id at one frequency and price (spec §3 "Product"). */
export const ProductSchema = z.object({
  product_id: z.number().check(z.int()),
  product_name: z.string(),
  /** Dollars as a number, as the spec's payloads carry it (24.99). */
  price: z.number(),
  price_cents: z.number().check(z.int()),
  frequency: FrequencySchema,
  quantity_supported: z.boolean(),
  img: z.string(),
  description: z.string(),
  dose: z.string(),
  category: z.string(),
});
export type Product = z.infer<typeof ProductSchema>;

/** A product as the storefront shows it: one name, image and text, with its offers. */
export const ProductLineSchema = z.object({
  slug: z.string(),
  name: z.string(),
  summary: z.string(),
  description: z.string(),
  img: z.string(),
  category: z.string(),
  offers: z.array(ProductSchema),
});
export type ProductLine = z.infer<typeof ProductLineSchema>;

export const CatalogSchema = z.object({ lines: z.array(ProductLineSchema) });
export type Catalog = z.infer<typeof CatalogSchema>;

export const ProductSlugParamsSchema = z.object({
  slug: z.string().check(z.minLength(1), z.maxLength(120)),
});

export const doseTexts = {
  ONE_TIME: 'One bottle',
  MONTHLY: 'One bottle a month subscription',
  QUARTERLY: 'Three bottles every quarter subscription',
} as const satisfies Record<Frequency, string>;

/** The offer a product line is introduced with: its one-time price when it has one. */
export function headlineOffer(line: ProductLine): Product | undefined {
  return line.offers.find((o) => o.frequency === 'ONE_TIME') ?? line.offers[0];
}

/** How a product category reads to a customer (order lines, cart). */
export function categoryLabel(category: string): string {
  const labels: Record<string, string> = {
    supplements: 'Supplement',
    ed: 'ED treatment',
    sleep: 'Sleep treatment',
    hair: 'Hair treatment',
  };
  return labels[category] ?? category;
}
