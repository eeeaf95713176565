import { analytics } from '#shared/constants.ts';
import { centsToAmount } from '#shared/money.ts';

declare global {
  interface Window {
    dataLayer?: Record<string, unknown>[];
  }
}

/**
 * Pushes one event to the tag-manager data layer. Callers send product and price facts only:
 * never a program category, a health answer, a card detail or a token (DESIGN §7, §8).
 */
export function pushEvent(event: Record<string, unknown>): void {
  if (typeof window === 'undefined') return;
  window.dataLayer ??= [];
  window.dataLayer.push(event);
}

// --- Ecommerce (DESIGN §8, spec §3 "Analytics cart item", §4 "Checkout analytics steps") ---------

/** Spec §3 "Analytics cart item": exactly these five fields. */
export interface AnalyticsItem {
  name: string;
  id: string;
  category: string;
  price: number;
  quantity: number;
}

/** What any cart, order or catalogue line can be turned into an analytics item from. */
export interface ItemSource {
  product_id: number;
  name: string;
  category: string;
  price_cents: number;
  quantity: number;
}

/**
 * Only storefront categories travel. A telehealth program's category (ed, sleep, hair) says what
 * a patient is being treated for, so it is never sent: such a line reads as 'other'.
 */
const sendableCategories = new Set(['supplements']);

export function analyticsItem(source: ItemSource): AnalyticsItem {
  return {
    name: source.name,
    id: String(source.product_id),
    category: sendableCategories.has(source.category) ? source.category : 'other',
    price: centsToAmount(source.price_cents),
    quantity: source.quantity,
  };
}

function value(items: AnalyticsItem[]): number {
  return centsToAmount(
    items.reduce((sum, item) => sum + Math.round(item.price * 100) * item.quantity, 0),
  );
}

/** GA4 asks to clear the previous ecommerce object first, so one event's items never leak into the next. */
function pushEcommerce(event: string, ecommerce: Record<string, unknown>): void {
  pushEvent({ ecommerce: null });
  pushEvent({ event, ecommerce });
}

export function trackViewItem(source: ItemSource): void {
  const items = [analyticsItem(source)];
  pushEcommerce('view_item', { currency: analytics.currency, value: value(items), items });
}

export function trackAddToCart(source: ItemSource): void {
  const items = [analyticsItem(source)];
  pushEcommerce('add_to_cart', { currency: analytics.currency, value: value(items), items });
}

export function trackBeginCheckout(sources: ItemSource[]): void {
  const items = sources.map(analyticsItem);
  pushEcommerce('begin_checkout', { currency: analytics.currency, value: value(items), items });
}

/** Spec §4: the checkout's analytics steps, 1 Shipping, 2 Upsell, 3 Payment. */
export const checkoutSteps = { 1: 'Shipping', 2: 'Upsell', 3: 'Payment' } as const;
export type CheckoutStep = keyof typeof checkoutSteps;

export function trackCheckoutStep(step: CheckoutStep, sources: ItemSource[]): void {
  pushEcommerce('checkout_progress', {
    checkout_step: step,
    checkout_option: checkoutSteps[step],
    currency: analytics.currency,
    items: sources.map(analyticsItem),
  });
}

export function trackPurchase(order: {
  order_number: string;
  total_cents: number;
  items: ItemSource[];
}): void {
  pushEcommerce('purchase', {
    transaction_id: order.order_number,
    value: centsToAmount(order.total_cents),
    currency: analytics.currency,
    tax: analytics.tax,
    shipping: analytics.shipping,
    items: order.items.map(analyticsItem),
  });
}
