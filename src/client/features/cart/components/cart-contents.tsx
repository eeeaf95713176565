import { Link } from 'react-router';
import { buttonClass } from '#client/components/ui/button.ts';
import { LoadError } from '#client/components/ui/load-error.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { useEffect, useRef } from 'react';
import { trackQuantityChange, trackRemoveFromCart, trackViewCart } from '#client/lib/analytics.ts';
import { paths } from '#shared/paths.ts';
import { itemSource, useCart, useCartActions, type CartLine, type CartView } from '../use-cart.ts';
import { CartLineRow } from './cart-line.tsx';
import { CartTotals } from './cart-totals.tsx';
import { CouponForm } from './coupon-form.tsx';

interface CartContentsProps {
  /** Called when a link leaves the cart (the drawer closes). */
  onNavigate?: (() => void) | undefined;
  /** The drawer keeps the totals and Checkout in view at the bottom; the page puts them beside. */
  layout: 'drawer' | 'page';
}

/** GA4 `view_cart`, once per opening of the drawer or the page, when its lines are known. */
function useViewCart(cart: CartView): void {
  const sent = useRef(false);
  const known = cart.status === 'ready' && cart.lines.length > 0;
  useEffect(() => {
    if (sent.current || !known) return;
    sent.current = true;
    trackViewCart(cart.lines.map(itemSource), cart.coupon?.code);
  }, [known, cart.lines, cart.coupon?.code]);
}

/** The cart, for the drawer and for /cart: lines, coupon, totals and Checkout. */
export function CartContents({ onNavigate, layout }: CartContentsProps) {
  const cart = useCart();
  const actions = useCartActions();
  useViewCart(cart);
  const lineOf = (productId: number): CartLine | undefined =>
    cart.lines.find((line) => line.product_id === productId);
  const changeQuantity = async (productId: number, quantity: number) => {
    const line = lineOf(productId);
    await actions.setQuantity(productId, quantity);
    if (line) trackQuantityChange(itemSource(line), quantity);
  };
  const remove = async (productId: number) => {
    const line = lineOf(productId);
    await actions.remove(productId);
    if (line) trackRemoveFromCart(itemSource(line));
  };

  if (cart.status === 'pending') return <Spinner block label="Loading your cart…" />;
  if (cart.status === 'error')
    return <LoadError message={cart.error?.message ?? ''} onRetry={cart.retry} />;

  if (cart.lines.length === 0) {
    return (
      <div className="flex flex-col items-center rounded-3xl border border-dashed border-line bg-surface px-6 py-12 text-center">
        <span
          aria-hidden="true"
          className="grid size-14 place-items-center rounded-full bg-accent-100 text-accent-800"
        >
          <svg
            viewBox="0 0 24 24"
            className="size-7"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
            strokeLinecap="round"
            strokeLinejoin="round"
          >
            <path d="M3 4.5h2.2l2.1 10.2a1.5 1.5 0 0 0 1.5 1.2h7.9a1.5 1.5 0 0 0 1.5-1.1L20 8H6.1M9.5 20h.01M17 20h.01" />
          </svg>
        </span>
        <p className="mt-4 font-display text-xl text-ink">Your cart is empty</p>
        <p className="mt-1 text-ink-soft">Sleep, hair and immunity gummies, delivered free.</p>
        <Link to={paths.shop} onClick={onNavigate} className={`${buttonClass('primary')} mt-6`}>
          Shop supplements
        </Link>
      </div>
    );
  }

  const checkout = (
    <Link
      to={paths.checkoutShipping}
      onClick={() => onNavigate?.()}
      className={`${buttonClass('primary', 'lg')} w-full`}
    >
      Checkout
    </Link>
  );
  const reassurance = (
    <p className="flex items-center justify-center gap-2 text-sm text-muted">
      <svg
        aria-hidden="true"
        viewBox="0 0 20 20"
        className="size-4"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
      >
        <rect x="4" y="9" width="12" height="8" rx="1.5" />
        <path d="M7 9V6.5a3 3 0 1 1 6 0V9" strokeLinecap="round" />
      </svg>
      Free shipping · Secure checkout
    </p>
  );
  const coupon = (
    <CouponForm cart={cart} onApply={actions.applyCoupon} onRemove={actions.removeCoupon} />
  );

  const lines = (
    <ul className="divide-y divide-line" aria-label="Items in your cart">
      {cart.lines.map((line) => (
        <CartLineRow
          key={line.product_id}
          line={line}
          onQuantity={changeQuantity}
          onRemove={remove}
          onNavigate={onNavigate}
        />
      ))}
    </ul>
  );

  if (layout === 'drawer') {
    // The lines, coupon and totals scroll; the total and Checkout stay in view at the bottom.
    return (
      <div className="flex min-h-full flex-col">
        <div className="flex-1 px-5 sm:px-8">
          {lines}
          <div className="space-y-5 border-t border-line py-5">
            {coupon}
            <CartTotals cart={cart} />
          </div>
        </div>
        <div className="sticky bottom-0 space-y-3 border-t border-line bg-white px-5 py-4 shadow-[0_-8px_24px_rgba(15,37,51,0.06)] sm:px-8">
          {checkout}
          {reassurance}
        </div>
      </div>
    );
  }

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
      <section
        aria-label="Cart items"
        className="rounded-3xl border border-line bg-white px-5 shadow-[0_1px_2px_rgba(15,37,51,0.04)] sm:px-6"
      >
        {lines}
      </section>
      <section
        aria-labelledby="cart-summary-title"
        className="rounded-3xl border border-line bg-white p-5 shadow-[0_1px_2px_rgba(15,37,51,0.04)] sm:p-6 lg:sticky lg:top-24"
      >
        <h2 id="cart-summary-title" className="mb-5 text-xl text-ink">
          Order summary
        </h2>
        <div className="space-y-5">
          {coupon}
          <CartTotals cart={cart} />
          {checkout}
          {reassurance}
        </div>
      </section>
    </div>
  );
}
