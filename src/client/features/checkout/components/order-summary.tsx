import { Link } from 'react-router';
import { bottlesPerDelivery, bottlesText } from '#shared/catalog.ts';
import { formatCents, priceLabel } from '#shared/money.ts';
import { textLinkClass } from '#client/components/ui/button.ts';
import { CartTotals } from '#client/features/cart/components/cart-totals.tsx';
import type { CartView } from '#client/features/cart/use-cart.ts';
import { paths } from '#shared/paths.ts';

/**
 * The checkout's order summary: each line (its price and the bottles it brings, which its badge
 * counts), the totals and a way back to the cart.
 */
export function OrderSummary({ cart }: { cart: CartView }) {
  return (
    <div className="space-y-5">
      <ul className="space-y-4">
        {cart.lines.map((line) => (
          <li key={line.product_id} className="flex items-center gap-3">
            <span className="relative shrink-0">
              <img
                src={line.img}
                alt=""
                width={56}
                height={56}
                className="size-14 rounded-xl bg-surface object-cover ring-1 ring-line"
              />
              <span
                aria-hidden="true"
                className="absolute -right-1.5 -top-1.5 grid min-w-5 place-items-center rounded-full bg-ink-soft px-1 text-[0.6875rem] font-bold leading-5 text-white"
              >
                {bottlesPerDelivery(line, line.quantity)}
              </span>
            </span>
            <span className="min-w-0 flex-1">
              <span className="block text-[0.9375rem] font-semibold leading-snug text-ink">
                {line.name}
              </span>
              <span className="block text-sm text-ink-soft">
                {priceLabel(line.unitCents, line.frequency)}
                <span aria-hidden="true"> · </span>
                <span className="sr-only">, </span>
                {bottlesText(line, line.quantity)}
              </span>
            </span>
            <span className="shrink-0 text-[0.9375rem] font-semibold tabular-nums text-ink">
              {formatCents(line.lineTotalCents)}
            </span>
          </li>
        ))}
      </ul>
      <div className="border-t border-line pt-4">
        <CartTotals cart={cart} />
      </div>
      <p className="text-sm">
        <Link to={paths.cart} className={textLinkClass}>
          Edit cart
        </Link>
      </p>
    </div>
  );
}
