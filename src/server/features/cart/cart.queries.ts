import { sql, type Kysely } from 'kysely';
import { reusable } from '#server/db/reusable.ts';
import type { Database } from '#server/db/schema.ts';
import type { Frequency } from '#shared/catalog.ts';

type Db = Kysely<Database>;

export interface CartLineRow {
  productId: number;
  quantity: number;
  name: string;
  slug: string;
  summary: string;
  img: string;
  category: string;
  frequency: Frequency;
  priceCents: number;
  dose: string;
  quantitySupported: boolean;
}

export interface CartRow {
  couponCode: string | null;
  checkoutKey: string | null;
  lines: CartLineRow[];
}

/**
 * The cart with each line priced from the catalogue as it is now (never from the client), in one
 * statement: the customer's row anchors it, so a customer without a cart or lines still gets one
 * row (all nulls) to read the coupon and claim from. A line whose product is no longer sold drops.
 */
const cartQuery = reusable((db: Db, customerId: number) =>
  db
    .selectFrom('customers as c')
    .leftJoin('carts as k', 'k.customer_id', 'c.id')
    .leftJoin('cart_items as i', 'i.customer_id', 'c.id')
    .leftJoin('products as p', (join) =>
      join.onRef('p.id', '=', 'i.product_id').on('p.active', '=', 1),
    )
    .leftJoin('product_lines as l', 'l.id', 'p.line_id')
    .select([
      'k.coupon_code',
      'k.checkout_key',
      'i.product_id',
      'i.quantity',
      'l.name',
      'l.slug',
      'l.summary',
      'l.img',
      'l.category',
      'p.frequency',
      'p.price_cents',
      'p.dose',
      'p.quantity_supported',
    ])
    .where('c.id', '=', customerId)
    .orderBy('i.added_at')
    .orderBy('i.product_id'),
);

export async function selectCart(db: Db, customerId: number): Promise<CartRow> {
  const rows = await cartQuery(db, customerId);
  const lines: CartLineRow[] = [];
  for (const l of rows) {
    if (l.product_id === null || l.quantity === null || l.frequency === null || l.name === null)
      continue;
    lines.push({
      productId: l.product_id,
      quantity: l.quantity,
      name: l.name,
      slug: l.slug ?? '',
      summary: l.summary ?? '',
      img: l.img ?? '',
      category: l.category ?? '',
      frequency: l.frequency,
      priceCents: l.price_cents ?? 0,
      dose: l.dose ?? '',
      quantitySupported: l.quantity_supported === 1,
    });
  }
  return {
    couponCode: rows[0]?.coupon_code ?? null,
    checkoutKey: rows[0]?.checkout_key ?? null,
    lines,
  };
}

export async function ensureCart(db: Db, customerId: number, now: string): Promise<void> {
  await db
    .insertInto('carts')
    .values({ customer_id: customerId, coupon_code: null, checkout_key: null, updated_at: now })
    .onConflict((oc) => oc.column('customer_id').doNothing())
    .execute();
}

/**
 * Sets a line to `quantity` (0 removes it): one statement, so the last change wins whole. Changes
 * relative to what is there go through `addToLine`, never a read and then a write.
 */
export async function setLineQuantity(
  db: Db,
  customerId: number,
  productId: number,
  quantity: number,
  now: string,
): Promise<void> {
  if (quantity <= 0) {
    await db
      .deleteFrom('cart_items')
      .where('customer_id', '=', customerId)
      .where('product_id', '=', productId)
      .execute();
    return;
  }
  await db
    .insertInto('cart_items')
    .values({ customer_id: customerId, product_id: productId, quantity, added_at: now })
    .onConflict((oc) => oc.columns(['customer_id', 'product_id']).doUpdateSet({ quantity }))
    .execute();
}

/**
 * Adds `quantity` to a line in one statement (an upsert that adds to the row it finds), so
 * concurrent additions from any number of instances all count; both databases lock the row for
 * the update. `over` says what happens past `max`: `refuse` changes nothing and answers
 * undefined, `cap` stops at `max`. Answers the line's new quantity.
 */
export async function addToLine(
  db: Db,
  line: {
    customerId: number;
    productId: number;
    quantity: number;
    max: number;
    over: 'refuse' | 'cap';
    now: string;
  },
): Promise<number | undefined> {
  const sum = sql<number>`cart_items.quantity + excluded.quantity`;
  const row = await db
    .insertInto('cart_items')
    .values({
      customer_id: line.customerId,
      product_id: line.productId,
      quantity: Math.min(line.quantity, line.max),
      added_at: line.now,
    })
    .onConflict((oc) => {
      const update = oc.columns(['customer_id', 'product_id']);
      return line.over === 'cap'
        ? update.doUpdateSet({
            quantity: sql<number>`case when ${sum} > ${line.max} then ${line.max} else ${sum} end`,
          })
        : update.doUpdateSet({ quantity: sum }).where(sum, '<=', line.max);
    })
    .returning('quantity')
    .executeTakeFirst();
  return row?.quantity;
}

export async function setCoupon(
  db: Db,
  customerId: number,
  code: string | null,
  now: string,
): Promise<void> {
  await db
    .updateTable('carts')
    .set({ coupon_code: code, updated_at: now })
    .where('customer_id', '=', customerId)
    .execute();
}

export interface ProductRow {
  productId: number;
  quantitySupported: boolean;
  frequency: Frequency;
  lineId: number;
}

export async function selectActiveProduct(
  db: Db,
  productId: number,
): Promise<ProductRow | undefined> {
  const row = await db
    .selectFrom('products')
    .select(['id', 'quantity_supported', 'frequency', 'line_id'])
    .where('id', '=', productId)
    .where('active', '=', 1)
    .executeTakeFirst();
  return (
    row && {
      productId: row.id,
      quantitySupported: row.quantity_supported === 1,
      frequency: row.frequency,
      lineId: row.line_id,
    }
  );
}

/** The one checkout attempt in flight: true when `key` now holds the cart (or already did). */
export async function claimCheckout(
  db: Db,
  customerId: number,
  key: string,
  now: string,
): Promise<'claimed' | 'mine' | 'taken'> {
  const result = await db
    .updateTable('carts')
    .set({ checkout_key: key, checkout_claimed_at: now })
    .where('customer_id', '=', customerId)
    .where('checkout_key', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 1) return 'claimed';
  const cart = await db
    .selectFrom('carts')
    .select('checkout_key')
    .where('customer_id', '=', customerId)
    .executeTakeFirst();
  return cart?.checkout_key === key ? 'mine' : 'taken';
}

export async function releaseCheckout(db: Db, customerId: number, key: string): Promise<void> {
  await db
    .updateTable('carts')
    .set({ checkout_key: null, checkout_claimed_at: null })
    .where('customer_id', '=', customerId)
    .where('checkout_key', '=', key)
    .execute();
}

/** After an order: take the ordered quantities out of the cart (anything added meanwhile stays). */
export async function removeOrdered(
  db: Db,
  customerId: number,
  ordered: { productId: number; quantity: number }[],
  now: string,
): Promise<void> {
  for (const line of ordered) {
    await db
      .updateTable('cart_items')
      .set({ quantity: sql`quantity - ${line.quantity}` })
      .where('customer_id', '=', customerId)
      .where('product_id', '=', line.productId)
      .execute();
  }
  await db
    .deleteFrom('cart_items')
    .where('customer_id', '=', customerId)
    .where('quantity', '<=', 0)
    .execute();
  await db
    .updateTable('carts')
    .set({ coupon_code: null, checkout_key: null, checkout_claimed_at: null, updated_at: now })
    .where('customer_id', '=', customerId)
    .execute();
}

/** Checkout claims older than `before` (attempts a crash may have interrupted), oldest first. */
export async function selectStaleCheckoutClaims(
  db: Db,
  before: string,
  limit: number,
): Promise<{ customerId: number; key: string; claimedAt: string }[]> {
  const rows = await db
    .selectFrom('carts')
    .select(['customer_id', 'checkout_key', 'checkout_claimed_at'])
    .where('checkout_key', 'is not', null)
    .where('checkout_claimed_at', '<', before)
    .orderBy('checkout_claimed_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    customerId: r.customer_id,
    key: r.checkout_key ?? '',
    claimedAt: r.checkout_claimed_at ?? '',
  }));
}

/**
 * Takes a stale claim for one reconciler (compare-and-set on its time, which moves on to `now`):
 * false when another instance took it first or the attempt finished meanwhile.
 */
export async function retakeCheckoutClaim(
  db: Db,
  claim: { customerId: number; key: string; claimedAt: string },
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('carts')
    .set({ checkout_claimed_at: now })
    .where('customer_id', '=', claim.customerId)
    .where('checkout_key', '=', claim.key)
    .where('checkout_claimed_at', '=', claim.claimedAt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
