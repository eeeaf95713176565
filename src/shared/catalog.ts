// zod/mini, not classic zod: a storefront page reads the catalogue on its first visit
// (docs/decisions/007-measured-quality.md).
import * as z from 'zod/mini';
import { apiPaths } from './api.ts';
import { endpoint } from './contract.ts';

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

export const catalogApi = {
  products: endpoint({
    method: 'GET',
    path: apiPaths.products,
    access: 'public',
    response: CatalogSchema,
    errors: [],
  }),
  product: endpoint({
    method: 'GET',
    path: apiPaths.product,
    access: 'public',
    params: ProductSlugParamsSchema,
    response: ProductLineSchema,
    errors: ['NOT_FOUND'],
  }),
};

export const doseTexts = {
  ONE_TIME: 'One bottle',
  MONTHLY: 'One bottle a month subscription',
  QUARTERLY: 'Three bottles every quarter subscription',
} as const satisfies Record<Frequency, string>;

/**
 * The bottles one unit of an offer brings each delivery: its dose text as a number (catalog.test.ts
 * holds the two together), so a quarterly plan of one says '3 bottles', not '1 bottle'.
 */
export const bottlesPerUnit = {
  ONE_TIME: 1,
  MONTHLY: 1,
  QUARTERLY: 3,
} as const satisfies Record<Frequency, number>;

/**
 * The catalogue's offers (DESIGN §2) by name, as code and tests write them instead of a raw id:
 * `offers.sleep.monthly` is the Sleep Gummies' monthly subscription. The seed is built from these.
 */
export const offers = {
  sleep: { oneTime: 40, monthly: 41, quarterly: 42 },
  biotin: { oneTime: 30, monthly: 31, quarterly: 32 },
  immunity: { oneTime: 35, monthly: 36, quarterly: 37 },
  bundle: { oneTime: 160 },
} as const;

/** The Holiday Bundle Special (spec §3): 'One bottle each' of its three gummies, one-time only. */
export const bundleOffer = {
  productId: offers.bundle.oneTime,
  dose: 'One bottle each',
  bottles: 3,
} as const;

/** An offer as far as what arrives goes; lines that know no product id (order history) omit it. */
export interface BottleOffer {
  product_id?: number | null | undefined;
  frequency: Frequency;
}

const isBundle = (offer: BottleOffer) => offer.product_id === bundleOffer.productId;

/** The bottles `quantity` units of an offer bring in one delivery. */
export function bottlesPerDelivery(offer: BottleOffer, quantity: number): number {
  return (isBundle(offer) ? bundleOffer.bottles : bottlesPerUnit[offer.frequency]) * quantity;
}

/** How often those bottles come; spec §3's "every quarter" said in months, as the portal says it. */
const deliveryCadence = {
  ONE_TIME: '',
  MONTHLY: ' a month',
  QUARTERLY: ' every 3 months',
} as const satisfies Record<Frequency, string>;

export const bottleCount = (bottles: number) =>
  `${bottles} ${bottles === 1 ? 'bottle' : 'bottles'}`;

/**
 * What arrives, in the customer's words, wherever a quantity of supplement is shown (cards,
 * dialogs, cart, orders, emails): '3 bottles every 3 months', '1 bottle a month', '2 bottles',
 * '3 bottles, one of each' (the bundle). Prescription refills are not bottles and never come here.
 */
export function bottlesText(offer: BottleOffer, quantity: number): string {
  const each = isBundle(offer) ? `, ${quantity === 1 ? 'one' : quantity} of each` : '';
  return `${bottleCount(bottlesPerDelivery(offer, quantity))}${each}${deliveryCadence[offer.frequency]}`;
}

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
