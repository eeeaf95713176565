import type { AppContext } from '#server/context.ts';
import { hasPlacedOrder } from '#server/features/orders/orders.history.ts';
import { couponDiscount } from '#shared/cart.ts';
import { formatCents } from '#shared/money.ts';
import * as q from './coupons.queries.ts';

export type CouponVerdict =
  | { ok: true; code: string; description: string; discountCents: number }
  | { ok: false; message: string };

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function mediumDate(iso: string): string {
  const date = new Date(iso);
  return `${MONTHS[date.getUTCMonth()]} ${String(date.getUTCDate()).padStart(2, '0')}, ${date.getUTCFullYear()}`;
}

/**
 * Whether a coupon applies, and what it takes off. Every refusal says why. A visitor (no customer
 * yet) passes the first-order rule here; it is checked again when the order is placed.
 */
export async function evaluateCoupon(
  ctx: AppContext,
  code: string,
  subtotalCents: number,
  customerId: number | null,
): Promise<CouponVerdict> {
  const coupon = await q.selectCoupon(ctx.db, code);
  if (!coupon || !coupon.active) return { ok: false, message: 'That coupon code is not valid.' };
  if (coupon.expiresAt && coupon.expiresAt <= ctx.clock.now().toISOString()) {
    return { ok: false, message: `This coupon expired on ${mediumDate(coupon.expiresAt)}.` };
  }
  if (coupon.usageLimit !== null && coupon.usedCount >= coupon.usageLimit) {
    return { ok: false, message: 'This coupon has reached its usage limit.' };
  }
  if (coupon.minSubtotalCents !== null && subtotalCents < coupon.minSubtotalCents) {
    return {
      ok: false,
      message: `This coupon needs a subtotal of at least ${formatCents(coupon.minSubtotalCents)}.`,
    };
  }
  if (coupon.firstOrderOnly && customerId !== null && (await hasPlacedOrder(ctx, customerId))) {
    return { ok: false, message: 'This coupon is for your first order only.' };
  }
  return {
    ok: true,
    code: coupon.code,
    description: coupon.description,
    discountCents: couponDiscount(coupon, subtotalCents),
  };
}

export function claimCouponUse(ctx: AppContext, code: string): Promise<boolean> {
  return q.claimCouponUse(ctx.db, code);
}

export function releaseCouponUse(ctx: AppContext, code: string): Promise<void> {
  return q.releaseCouponUse(ctx.db, code);
}
