import { formatCents } from '#shared/money.ts';
import type { CartView } from '../use-cart.ts';

/** Subtotal, discount, shipping, tax and total (shipping and tax are free, spec §9 analytics). */
export function CartTotals({ cart }: { cart: CartView }) {
  const row = 'flex items-baseline justify-between gap-4';
  return (
    <dl className="space-y-2 text-[0.9375rem]">
      <div className={row}>
        <dt className="text-ink-soft">Subtotal</dt>
        <dd className="tabular-nums text-ink">{formatCents(cart.subtotalCents)}</dd>
      </div>
      {cart.coupon ? (
        <div className={row}>
          <dt className="text-ink-soft">Discount ({cart.coupon.code})</dt>
          <dd className="tabular-nums text-success">−{formatCents(cart.discountCents)}</dd>
        </div>
      ) : null}
      <div className={row}>
        <dt className="text-ink-soft">Shipping</dt>
        <dd className="text-ink">
          {cart.shippingCents === 0 ? 'Free' : formatCents(cart.shippingCents)}
        </dd>
      </div>
      <div className={row}>
        <dt className="text-ink-soft">Tax</dt>
        <dd className="tabular-nums text-ink">{formatCents(cart.taxCents)}</dd>
      </div>
      <div className={`${row} border-t border-line pt-3 text-lg font-semibold`}>
        <dt className="text-ink">Total</dt>
        <dd className="tabular-nums text-ink">{formatCents(cart.totalCents)}</dd>
      </div>
    </dl>
  );
}
