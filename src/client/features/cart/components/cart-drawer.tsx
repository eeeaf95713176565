import * as Dialog from '@radix-ui/react-dialog';
import { limits } from '#shared/constants.ts';
import { useViewportAtMost } from '#client/lib/use-viewport.ts';
import { cartButtonElement, setCartDrawerOpen, useCartDrawerOpen } from '../cart-drawer-state.ts';
import { useCartCount } from '../use-cart.ts';
import { CartContents } from './cart-contents.tsx';
import { CloseIcon } from '#client/components/ui/close-icon.tsx';

/**
 * The cart drawer (spec §2): slides in from the right, 700px wide, the full width under 920px.
 * Loaded on demand (cart-button.tsx). A Radix dialog: focus stays inside, Escape closes, and
 * focus returns to the header's cart button.
 */
export function CartDrawer() {
  const open = useCartDrawerOpen();
  const count = useCartCount();
  const narrow = useViewportAtMost(limits.cartDrawerBreakpointPx - 1);
  const close = () => setCartDrawerOpen(false);
  return (
    <Dialog.Root open={open} onOpenChange={setCartDrawerOpen}>
      <Dialog.Portal>
        <Dialog.Overlay className="slider-overlay fixed inset-0 z-50 bg-ink/40 backdrop-blur-[2px]" />
        <Dialog.Content
          aria-describedby={undefined}
          onCloseAutoFocus={(event) => {
            const button = cartButtonElement();
            if (!button) return;
            event.preventDefault();
            button.focus();
          }}
          data-testid="cart-drawer"
          style={{ width: narrow ? '100%' : `${limits.cartDrawerWidthPx}px` }}
          className="slider-panel fixed inset-y-0 right-0 z-50 flex max-w-full flex-col bg-white shadow-2xl outline-none"
        >
          <div className="flex items-center justify-between gap-4 border-b border-line px-5 py-4 sm:px-8">
            <Dialog.Title className="text-2xl text-ink">
              Your cart{' '}
              {count ? (
                <span className="ml-2 align-middle font-sans text-base font-medium text-muted">
                  ({count} {count === 1 ? 'item' : 'items'})
                </span>
              ) : null}
            </Dialog.Title>
            <Dialog.Close
              aria-label="Close cart"
              className="grid size-10 place-items-center rounded-full text-muted hover:bg-surface hover:text-ink"
            >
              <CloseIcon />
            </Dialog.Close>
          </div>
          <div className="flex-1 overflow-y-auto">
            <CartContents layout="drawer" onNavigate={close} />
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
