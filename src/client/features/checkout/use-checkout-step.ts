import { useEffect, useRef } from 'react';
import { trackCheckoutStep } from '#client/lib/analytics.ts';
import { itemSource, type CartView } from '#client/features/cart/use-cart.ts';

/**
 * The GA4 event of a checkout step as it shows, with the cart's items once they are known (spec §4:
 * 1 Shipping is `begin_checkout`, 2 Upsell is `add_shipping_info`; 3 Payment sends
 * `add_payment_info` as the payment is submitted). Each carries its step (decision 020).
 */
export function useCheckoutStepEvent(step: 1 | 2, cart: CartView, ready = true): void {
  const sent = useRef(false);
  const known = ready && cart.status === 'ready' && cart.lines.length > 0;
  useEffect(() => {
    if (sent.current || !known) return;
    sent.current = true;
    trackCheckoutStep(step, cart.lines.map(itemSource), cart.coupon?.code);
  }, [known, step, cart.lines, cart.coupon?.code]);
}
