import type { Cart } from '#shared/cart.ts';
import type { Catalog, Frequency, Product, ProductLine } from '#shared/catalog.ts';
import { doseTexts, offers } from '#shared/catalog.ts';

/** The seeded catalogue (DESIGN §2), for component tests of the shop, cart and checkout. */
function offer(
  line: { name: string; img: string; summary: string },
  productId: number,
  frequency: Frequency,
  priceCents: number,
  dose: string = doseTexts[frequency],
  quantitySupported = true,
): Product {
  return {
    product_id: productId,
    product_name: line.name,
    price: priceCents / 100,
    price_cents: priceCents,
    frequency,
    quantity_supported: quantitySupported,
    img: line.img,
    description: line.summary,
    dose,
    category: 'supplements',
  };
}

function standardLine(slug: string, name: string, img: string, ids: [number, number, number]) {
  const base = { name, img, summary: `${name}, every day.` };
  return {
    slug,
    name,
    summary: base.summary,
    description: `${name}: a vegan gummy.`,
    img,
    category: 'supplements',
    offers: [
      offer(base, ids[0], 'ONE_TIME', 2499),
      offer(base, ids[1], 'MONTHLY', 1750),
      offer(base, ids[2], 'QUARTERLY', 4500),
    ],
  } satisfies ProductLine;
}

const bundleBase = {
  name: 'Holiday Bundle Special (Sleep, Hair, and Immunity Gummies)',
  img: '/images/supp-bundle.webp',
  summary: 'All three of our gummies, one festive price.',
};

export const sleepLine = standardLine('sleep-gummies', 'Sleep Gummies', '/images/supp-sleep.webp', [
  offers.sleep.oneTime,
  offers.sleep.monthly,
  offers.sleep.quarterly,
]);
export const biotinLine = standardLine(
  'biotin-gummies',
  'Biotin Gummies',
  '/images/supp-biotin.webp',
  [offers.biotin.oneTime, offers.biotin.monthly, offers.biotin.quarterly],
);
export const bundleLine: ProductLine = {
  slug: 'holiday-bundle-special',
  name: bundleBase.name,
  summary: bundleBase.summary,
  description: 'One bottle each.',
  img: bundleBase.img,
  category: 'supplements',
  offers: [offer(bundleBase, offers.bundle.oneTime, 'ONE_TIME', 2499, 'One bottle each', false)],
};

export const catalog: Catalog = { lines: [sleepLine, biotinLine, bundleLine] };

/** A server cart with these lines, priced like the server does. */
export function buildCart(
  lines: { offer: Product; quantity: number; slug: string }[],
  coupon: Cart['coupon'] = null,
): Cart {
  const items = lines.map(({ offer: o, quantity, slug }) => ({
    product_id: o.product_id,
    name: o.product_name,
    price: o.price,
    price_cents: o.price_cents,
    frequency: o.frequency,
    description: o.description,
    dose: o.dose,
    quantity,
    img: o.img,
    category: o.category,
    slug,
    quantity_supported: o.quantity_supported,
    line_total_cents: o.price_cents * quantity,
  }));
  const subtotal = items.reduce((sum, item) => sum + item.line_total_cents, 0);
  const discount = coupon?.discount_cents ?? 0;
  return {
    products: { items },
    coupon,
    item_count: items.reduce((sum, item) => sum + item.quantity, 0),
    subtotal_cents: subtotal,
    discount_cents: discount,
    shipping_cents: 0,
    tax_cents: 0,
    total_cents: subtotal - discount,
  };
}
