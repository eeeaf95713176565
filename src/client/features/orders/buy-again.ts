import { lineQuantity, MAX_QUANTITY } from '#shared/cart.ts';
import type { Catalog, Product } from '#shared/catalog.ts';
import type { Order } from '#shared/orders.ts';

/** What "Buy again" puts in the cart, and the lines of the order the shop no longer sells. */
export interface BuyAgainPlan {
  items: { product_id: number; quantity: number }[];
  unavailable: string[];
}

/**
 * A past store order as it can be bought today: each line's current catalogue offer — the same
 * offer, or failing that the same product at the same frequency — with the same quantity (as far
 * as the offer takes one). Lines with no such offer are named, not guessed at.
 */
export function planBuyAgain(order: Pick<Order, 'order_items'>, catalog: Catalog): BuyAgainPlan {
  const offers: Product[] = catalog.lines.flatMap((line) => line.offers);
  const quantities = new Map<number, number>();
  const unavailable: string[] = [];
  for (const item of order.order_items) {
    const offer =
      offers.find((o) => o.product_id === item.product_id && o.frequency === item.frequency) ??
      offers.find((o) => o.product_name === item.product_name && o.frequency === item.frequency);
    if (!offer) {
      if (!unavailable.includes(item.product_name)) unavailable.push(item.product_name);
      continue;
    }
    const wanted = (quantities.get(offer.product_id) ?? 0) + item.quantity;
    quantities.set(offer.product_id, lineQuantity(offer, Math.min(wanted, MAX_QUANTITY)));
  }
  return {
    items: [...quantities].map(([product_id, quantity]) => ({ product_id, quantity })),
    unavailable,
  };
}

/** How the customer hears which lines were left out: 'Biotin Gummies is', 'A and B are'. */
export function unavailableText(names: readonly string[]): string {
  const list =
    names.length <= 2
      ? names.join(' and ')
      : `${names.slice(0, -1).join(', ')}, and ${names[names.length - 1]}`;
  return `${list} ${names.length === 1 ? 'is' : 'are'} no longer sold, so we left ${names.length === 1 ? 'it' : 'them'} out.`;
}
