import type { AppContext } from '#server/context.ts';
import { evaluateCoupon } from '#server/features/coupons/coupons.service.ts';
import { AppError, notFound } from '#server/lib/errors.ts';
import {
  cartSubtotal,
  cartTotals,
  lineQuantity,
  lineTotal,
  MAX_QUANTITY,
  stacks,
  type Cart,
  type CartItem,
  type Stackable,
} from '#shared/cart.ts';
import { centsToAmount } from '#shared/money.ts';
import * as q from './cart.queries.ts';

/** The cart priced by the server: lines, coupon, totals. Shipping and tax are free (spec §9). */
export interface PricedCart {
  cart: Cart;
  lines: q.CartLineRow[];
  couponCode: string | null;
  checkoutKey: string | null;
}

function toItem(line: q.CartLineRow): CartItem {
  return {
    product_id: line.productId,
    name: line.name,
    price: centsToAmount(line.priceCents),
    price_cents: line.priceCents,
    frequency: line.frequency,
    description: line.summary,
    dose: line.dose,
    quantity: line.quantity,
    img: line.img,
    category: line.category,
    slug: line.slug,
    quantity_supported: line.quantitySupported,
    line_total_cents: lineTotal({ price_cents: line.priceCents, quantity: line.quantity }),
  };
}

export async function pricedCart(ctx: AppContext, customerId: number): Promise<PricedCart> {
  const row = await q.selectCart(ctx.db, customerId);
  const items = row.lines.map(toItem);
  const subtotal = cartSubtotal(items);
  let coupon: Cart['coupon'] = null;
  let couponCode = row.couponCode;
  if (couponCode) {
    const verdict = await evaluateCoupon(ctx, couponCode, subtotal, customerId);
    if (verdict.ok) {
      coupon = {
        code: verdict.code,
        description: verdict.description,
        discount_cents: verdict.discountCents,
      };
    } else {
      // The cart changed under it (or it expired): the coupon no longer applies and comes off.
      await q.setCoupon(ctx.db, customerId, null, ctx.clock.now().toISOString());
      couponCode = null;
    }
  }
  return {
    cart: { products: { items }, coupon, ...cartTotals(items, coupon?.discount_cents ?? 0) },
    lines: row.lines,
    couponCode,
    checkoutKey: row.checkoutKey,
  };
}

export async function getCart(ctx: AppContext, customerId: number): Promise<Cart> {
  return (await pricedCart(ctx, customerId)).cart;
}

/** A catalogue row in the words of the shared stacking rule (shared/cart.ts). */
function stackable(row: q.ProductRow): Stackable {
  return { frequency: row.frequency, quantity_supported: row.quantitySupported };
}

async function product(ctx: AppContext, productId: number) {
  const found = await q.selectActiveProduct(ctx.db, productId);
  if (!found) throw notFound('We could not find that product.');
  return found;
}

function tooMany(): AppError {
  const message = `You can order up to ${MAX_QUANTITY} at a time`;
  return new AppError('QUANTITY', message, { quantity: message });
}

/**
 * Adds to a line when the product stacks (a one-time product with quantity); anything else stays
 * one line of one. One statement per change, so additions made at the same moment (two tabs, two
 * instances) all count and none is lost.
 */
export async function addProduct(
  ctx: AppContext,
  customerId: number,
  productId: number,
  quantity: number,
): Promise<Cart> {
  const found = await product(ctx, productId);
  const now = ctx.clock.now().toISOString();
  await q.ensureCart(ctx.db, customerId, now);
  if (!stacks(stackable(found))) {
    await q.setLineQuantity(ctx.db, customerId, productId, 1, now);
  } else {
    const next = await q.addToLine(ctx.db, {
      customerId,
      productId,
      quantity,
      max: MAX_QUANTITY,
      over: 'refuse',
      now,
    });
    if (next === undefined) throw tooMany();
  }
  return getCart(ctx, customerId);
}

export async function removeProduct(
  ctx: AppContext,
  customerId: number,
  productId: number,
): Promise<Cart> {
  await q.setLineQuantity(ctx.db, customerId, productId, 0, ctx.clock.now().toISOString());
  return getCart(ctx, customerId);
}

/**
 * `set` replaces quantities (0 removes); `merge` adds, as a browser cart joining at log-in, up to
 * the limit. Each line is one statement (`set` writes the number, `merge` adds in the database), so
 * a merge never overwrites an addition made meanwhile.
 */
export async function updateCart(
  ctx: AppContext,
  customerId: number,
  input: { mode: 'set' | 'merge'; items: { product_id: number; quantity: number }[] },
): Promise<Cart> {
  const now = ctx.clock.now().toISOString();
  await q.ensureCart(ctx.db, customerId, now);
  for (const item of input.items) {
    const found = await q.selectActiveProduct(ctx.db, item.product_id);
    // A merge skips products that left the catalogue; a set names them and is refused.
    if (!found) {
      if (input.mode === 'merge') continue;
      throw notFound('We could not find that product.');
    }
    if (input.mode === 'set' || !stacks(stackable(found))) {
      const next = lineQuantity(stackable(found), item.quantity);
      if (input.mode === 'merge' && next === 0) continue;
      await q.setLineQuantity(ctx.db, customerId, item.product_id, next, now);
    } else if (item.quantity > 0) {
      await q.addToLine(ctx.db, {
        customerId,
        productId: item.product_id,
        quantity: item.quantity,
        max: MAX_QUANTITY,
        over: 'cap',
        now,
      });
    }
  }
  return getCart(ctx, customerId);
}

/** Applies a coupon to the cart, or refuses and says why; `null` takes it off. */
export async function applyCoupon(
  ctx: AppContext,
  customerId: number,
  code: string | null,
): Promise<Cart> {
  const now = ctx.clock.now().toISOString();
  await q.ensureCart(ctx.db, customerId, now);
  if (code === null) {
    await q.setCoupon(ctx.db, customerId, null, now);
    return getCart(ctx, customerId);
  }
  const { cart } = await pricedCart(ctx, customerId);
  if (cart.item_count === 0)
    throw new AppError('EMPTY_CART', 'Add something to your cart first.', {
      code: 'Add something to your cart first.',
    });
  const verdict = await evaluateCoupon(ctx, code, cart.subtotal_cents, customerId);
  if (!verdict.ok) throw new AppError('COUPON_REFUSED', verdict.message, { code: verdict.message });
  await q.setCoupon(ctx.db, customerId, verdict.code, now);
  return getCart(ctx, customerId);
}

export function claimCheckout(ctx: AppContext, customerId: number, key: string) {
  return q.claimCheckout(ctx.db, customerId, key, ctx.clock.now().toISOString());
}

/** Checkout claims held longer than `graceMs`, each taken by this caller alone (the reconciler). */
export async function takeStaleCheckoutClaims(
  ctx: AppContext,
  graceMs: number,
  limit: number,
): Promise<{ customerId: number; key: string }[]> {
  const now = ctx.clock.now();
  const stale = await q.selectStaleCheckoutClaims(
    ctx.db,
    new Date(now.getTime() - graceMs).toISOString(),
    limit,
  );
  const taken: { customerId: number; key: string }[] = [];
  for (const claim of stale) {
    if (await q.retakeCheckoutClaim(ctx.db, claim, now.toISOString())) taken.push(claim);
  }
  return taken;
}

export function releaseCheckout(ctx: AppContext, customerId: number, key: string) {
  return q.releaseCheckout(ctx.db, customerId, key);
}

export function removeOrdered(
  ctx: AppContext,
  customerId: number,
  ordered: { productId: number; quantity: number }[],
) {
  return q.removeOrdered(ctx.db, customerId, ordered, ctx.clock.now().toISOString());
}
