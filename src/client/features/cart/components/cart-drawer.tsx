import { useRef } from 'react';
import { limits } from '#shared/constants.ts';
import { useViewportAtMost } from '#client/lib/use-viewport.ts';
import { cartButtonElement, setCartDrawerOpen, useCartDrawerOpen } from '../cart-drawer-state.ts';
import { useCartCount } from '../use-cart.ts';
import { CartContents } from './cart-contents.tsx';
import { Dialog, DialogHeader } from '#client/components/ui/dialog.tsx';

/**
 * The cart drawer (spec §2): slides in from the right, 700px wide, the full width under 920px.
 * Loaded on demand (cart-button.tsx). A Radix dialog: focus stays inside, Escape closes, and
 * focus returns to the header's cart button. A link in the drawer (Checkout, a product) leaves for
 * another page, whose main region takes the focus: the cart button may still be on screen as the
 * drawer closes and be gone a moment later (the checkout's header has none), and focus must not
 * fall to the page's body with it.
 */
export function CartDrawer() {
  const open = useCartDrawerOpen();
  const count = useCartCount();
  const narrow = useViewportAtMost(limits.cartDrawerBreakpointPx - 1);
  const leaving = useRef(false);
  const close = () => setCartDrawerOpen(false);
  const leave = () => {
    leaving.current = true;
    close();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      variant="drawer"
      aria-describedby={undefined}
      onCloseAutoFocus={(event) => {
        const main = document.getElementById('main');
        const target = leaving.current ? main : (cartButtonElement() ?? main);
        leaving.current = false;
        if (!target) return;
        event.preventDefault();
        target.focus();
      }}
      testId="cart-drawer"
      style={{ width: narrow ? '100%' : `${limits.cartDrawerWidthPx}px` }}
    >
      <DialogHeader
        title={
          <>
            Your cart{' '}
            {count ? (
              <span className="ml-2 align-middle font-sans text-base font-medium text-muted">
                ({count} {count === 1 ? 'item' : 'items'})
              </span>
            ) : null}
          </>
        }
        closeLabel="Close cart"
        className="px-5 py-4 sm:px-8"
      />
      <div className="flex-1 overflow-y-auto">
        <CartContents layout="drawer" onNavigate={leave} />
      </div>
    </Dialog>
  );
}
