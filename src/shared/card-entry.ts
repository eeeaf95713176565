import { paths } from './paths.ts';

/**
 * Where a card is typed or a payment confirmed with the bank (issue 28): the store's payment step,
 * a visit's checkout, Accounts → Update payment method and "Confirm your payment". In Stripe mode
 * these are the only pages that load Stripe.js, and the only documents whose
 * Content-Security-Policy lets it in; everywhere else the strict policy holds.
 */
const visitCheckout = /^\/visit\/[^/]+\/checkout$/;

export function cardEntryPage(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return (
    path === paths.checkoutPayment ||
    path === paths.editPaymentMethod ||
    path === paths.confirmPaymentPage ||
    visitCheckout.test(path)
  );
}

/** Stripe.js as Stripe serves it; a local fake (STRIPE_API_BASE) serves its stand-in at /v3/. */
export const STRIPE_SCRIPT_URL = 'https://js.stripe.com/v3/';
