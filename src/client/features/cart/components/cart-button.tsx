import { lazy, Suspense, useState } from 'react';
import { registerCartButton, setCartDrawerOpen, useCartDrawerOpen } from '../cart-drawer-state.ts';
import { useCartCount } from '../use-cart.ts';

/** The drawer (Radix Dialog, the cart screens) is fetched when it is first wanted (spec §2). */
const loadDrawer = () => import('./cart-drawer.tsx');
const CartDrawer = lazy(() => loadDrawer().then((module) => ({ default: module.CartDrawer })));
const preloadDrawer = () => void loadDrawer();

export function cartLabel(count: number | null): string {
  if (!count) return 'Cart, empty';
  return `Cart, ${count} ${count === 1 ? 'item' : 'items'}`;
}

/** The header's cart button: the item count as a badge; opens the cart drawer. */
export function CartButton() {
  const count = useCartCount();
  const open = useCartDrawerOpen();
  // Once mounted the drawer stays, so its closing animation can run.
  const [wanted, setWanted] = useState(open);
  if (open && !wanted) setWanted(true);
  return (
    <>
      <button
        ref={registerCartButton}
        type="button"
        aria-label={cartLabel(count)}
        aria-haspopup="dialog"
        onClick={() => setCartDrawerOpen(true)}
        onPointerEnter={preloadDrawer}
        onFocus={preloadDrawer}
        className="relative grid size-11 shrink-0 place-items-center rounded-full text-ink-soft transition-colors hover:bg-accent-50 hover:text-accent-800"
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="size-6"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          <path d="M3 4.5h2.2l2.1 10.2a1.5 1.5 0 0 0 1.5 1.2h7.9a1.5 1.5 0 0 0 1.5-1.1L20 8H6.1M9.5 20h.01M17 20h.01" />
        </svg>
        {count ? (
          <span
            aria-hidden="true"
            className="absolute right-0.5 top-0.5 inline-flex min-w-5 items-center justify-center rounded-full bg-accent-700 px-1 text-[0.6875rem] font-bold leading-5 text-white ring-2 ring-white"
          >
            {count}
          </span>
        ) : null}
      </button>
      {wanted ? (
        <Suspense fallback={null}>
          <CartDrawer />
        </Suspense>
      ) : null}
    </>
  );
}
