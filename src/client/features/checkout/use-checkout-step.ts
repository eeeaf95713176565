import { useEffect, useRef } from 'react';
import { trackCheckoutStep, type CheckoutStep } from '#client/lib/analytics.ts';
import { itemSource, type CartView } from '#client/features/cart/use-cart.ts';

/**
 * One `checkout_progress` event per step shown (spec §4: 1 Shipping, 2 Upsell, 3 Payment), with
 * the cart's items once they are known.
 */
export function useCheckoutStepEvent(step: CheckoutStep, cart: CartView, ready = true): void {
  const sent = useRef(false);
  const known = ready && cart.status === 'ready' && cart.lines.length > 0;
  useEffect(() => {
    if (sent.current || !known) return;
    sent.current = true;
    trackCheckoutStep(step, cart.lines.map(itemSource));
  }, [known, step, cart.lines]);
}
