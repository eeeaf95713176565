/**
 * The couples' plan price (issue 16, decision 018), with no imports: the catalogue's cards and
 * product pages show it on a first visit without bringing the partners contract along.
 *
 * Two supplement subscriptions on one couples' plan are each charged 10% less than their catalogue
 * offer's own price, rounded to the nearest cent, worked out again from the offer's current price
 * at every renewal. The catalogue's products and prices (spec §3) do not change.
 */
export const COUPLES_DISCOUNT_PERCENT = 10;

/** What one unit of an offer costs on a couples' plan: $17.50 becomes $15.75, $45 becomes $40.50. */
export function couplesPriceCents(priceCents: number): number {
  return Math.round((priceCents * (100 - COUPLES_DISCOUNT_PERCENT)) / 100);
}
