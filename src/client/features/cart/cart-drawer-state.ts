import { useSyncExternalStore } from 'react';

/** Whether the cart drawer is open: one small store, so any page can open it (after Add to cart). */
let open = false;
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function setCartDrawerOpen(next: boolean): void {
  if (open === next) return;
  open = next;
  for (const listener of listeners) listener();
}

export function useCartDrawerOpen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => open,
    () => false,
  );
}

/**
 * The header's cart button, where focus goes back when the drawer closes: the drawer often opens
 * from 'Add to cart' (busy and disabled at that moment), and the cart button is what reopens it.
 */
let cartButton: HTMLElement | null = null;

export function registerCartButton(element: HTMLElement | null): void {
  cartButton = element;
}

export function cartButtonElement(): HTMLElement | null {
  return cartButton?.isConnected ? cartButton : null;
}
