import { headlineOffer, type ProductLine } from '#shared/catalog.ts';
import { analytics } from '#shared/constants.ts';
import { centsToAmount } from '#shared/money.ts';

declare global {
  interface Window {
    dataLayer?: Record<string, unknown>[];
  }
}

/**
 * Pushes one event to the tag-manager data layer. Callers send product and price facts only:
 * never a program category, a health answer, a card detail, a name, an email or a token
 * (DESIGN §7, §8). Without a tag manager (GTM_ID unset, no consent, or a member, visit or staff
 * page) the data layer is a plain array that nothing reads.
 */
export function pushEvent(event: Record<string, unknown>): void {
  if (typeof window === 'undefined') return;
  window.dataLayer ??= [];
  window.dataLayer.push(event);
}

// --- Ecommerce (DESIGN §8, spec §3 "Analytics cart item", §4 "Checkout analytics steps") ---------
// GA4's recommended ecommerce events and parameters, as Google documents them for a data layer
// (developers.google.com/analytics/devguides/collection/ga4/ecommerce): decision 020.

/**
 * One item: GA4's item parameters (`item_id`, `item_name`, `item_category`, `item_variant`,
 * `price`, `quantity`) beside spec §3's "Analytics cart item" (`name`, `id`, `category`, `price`,
 * `quantity`), which stays. `price` and `quantity` are the same in both.
 */
export interface AnalyticsItem {
  item_id: string;
  item_name: string;
  item_category: string;
  /** The offer's frequency (ONE_TIME, MONTHLY, QUARTERLY): the only way our products vary. */
  item_variant: string;
  price: number;
  quantity: number;
  /** The item's position in a list (view_item_list, select_item only). */
  index?: number;
  name: string;
  id: string;
  category: string;
}

/** What any cart, order or catalogue line can be turned into an analytics item from. */
export interface ItemSource {
  product_id: number;
  name: string;
  category: string;
  frequency: string;
  price_cents: number;
  quantity: number;
}

/** A product line as the storefront introduces it: its headline offer, one of it. */
export function productLineSource(line: ProductLine): ItemSource | null {
  const offer = headlineOffer(line);
  if (!offer) return null;
  return {
    product_id: offer.product_id,
    name: line.name,
    category: line.category,
    frequency: offer.frequency,
    price_cents: offer.price_cents,
    quantity: 1,
  };
}

/**
 * Only storefront categories travel. A telehealth program's line (ed, sleep, hair) says what a
 * patient is being treated for, by its category, its name and its id alike, so none of them is
 * sent: such a line reads as 'other' throughout.
 */
const sendableCategories = new Set(['supplements']);
const OTHER = 'other';

export function analyticsItem(source: ItemSource, index?: number): AnalyticsItem {
  const sendable = sendableCategories.has(source.category);
  const id = sendable ? String(source.product_id) : OTHER;
  const name = sendable ? source.name : OTHER;
  const category = sendable ? source.category : OTHER;
  const price = centsToAmount(source.price_cents);
  return {
    item_id: id,
    item_name: name,
    item_category: category,
    item_variant: sendable ? source.frequency : OTHER,
    price,
    quantity: source.quantity,
    ...(index === undefined ? {} : { index }),
    name,
    id,
    category,
  };
}

function valueOf(items: AnalyticsItem[]): number {
  return centsToAmount(
    items.reduce((sum, item) => sum + Math.round(item.price * 100) * item.quantity, 0),
  );
}

/** GA4 asks to clear the previous ecommerce object first, so one event's items never leak into the next. */
function pushEcommerce(event: string, ecommerce: Record<string, unknown>): void {
  pushEvent({ ecommerce: null });
  pushEvent({ event, ecommerce });
}

/** currency, value and items: what every cart-level GA4 event carries. */
function cartParameters(sources: ItemSource[]) {
  const items = sources.map((source) => analyticsItem(source));
  return { currency: analytics.currency, value: valueOf(items), items };
}

/** A coupon travels only when there is one (GA4: "coupon", optional). */
const couponParameter = (coupon: string | null | undefined) => (coupon ? { coupon } : {});

/** A list of products shown together: the home page's or the shop's. */
export interface ItemList {
  item_list_id: string;
  item_list_name: string;
}
export const itemLists = {
  home: { item_list_id: 'home', item_list_name: 'Home' },
  shop: { item_list_id: 'shop', item_list_name: 'Shop' },
  related: { item_list_id: 'related_products', item_list_name: 'More from Pairwell' },
} as const satisfies Record<string, ItemList>;

export function trackViewItemList(list: ItemList, sources: ItemSource[]): void {
  if (sources.length === 0) return;
  pushEcommerce('view_item_list', {
    ...list,
    items: sources.map((source, index) => analyticsItem(source, index)),
  });
}

export function trackSelectItem(list: ItemList, source: ItemSource, index: number): void {
  pushEcommerce('select_item', { ...list, items: [analyticsItem(source, index)] });
}

export function trackViewItem(source: ItemSource): void {
  pushEcommerce('view_item', cartParameters([source]));
}

export function trackAddToCart(source: ItemSource): void {
  pushEcommerce('add_to_cart', cartParameters([source]));
}

export function trackRemoveFromCart(source: ItemSource): void {
  pushEcommerce('remove_from_cart', cartParameters([source]));
}

/** A line's quantity changed: GA4 has no "update", so the difference is added or removed. */
export function trackQuantityChange(source: ItemSource, next: number): void {
  const difference = next - source.quantity;
  if (difference > 0) trackAddToCart({ ...source, quantity: difference });
  if (difference < 0) trackRemoveFromCart({ ...source, quantity: -difference });
}

export function trackViewCart(sources: ItemSource[], coupon?: string | null): void {
  pushEcommerce('view_cart', { ...cartParameters(sources), ...couponParameter(coupon) });
}

/** Spec §4: the checkout's analytics steps, 1 Shipping, 2 Upsell, 3 Payment. */
export const checkoutSteps = { 1: 'Shipping', 2: 'Upsell', 3: 'Payment' } as const;
export type CheckoutStep = keyof typeof checkoutSteps;

/**
 * The GA4 event each checkout step's moment is (decision 020): step 1 shown is `begin_checkout`;
 * step 2 shows once the shipping address was given, `add_shipping_info`; step 3 sends
 * `add_payment_info` when the payment is submitted (trackAddPaymentInfo). Each carries its step as
 * `checkout_step` and `checkout_option`, so spec §4's three steps stay measurable.
 */
export const checkoutStepEvents = {
  1: 'begin_checkout',
  2: 'add_shipping_info',
  3: 'add_payment_info',
} as const satisfies Record<CheckoutStep, string>;

/** Every order ships free by one service: GA4's `shipping_tier`. */
export const SHIPPING_TIER = 'Free shipping';

function stepParameters(step: CheckoutStep) {
  return { checkout_step: step, checkout_option: checkoutSteps[step] };
}

export function trackBeginCheckout(sources: ItemSource[], coupon?: string | null): void {
  pushEcommerce(checkoutStepEvents[1], {
    ...stepParameters(1),
    ...cartParameters(sources),
    ...couponParameter(coupon),
  });
}

export function trackAddShippingInfo(sources: ItemSource[], coupon?: string | null): void {
  pushEcommerce(checkoutStepEvents[2], {
    ...stepParameters(2),
    ...cartParameters(sources),
    ...couponParameter(coupon),
    shipping_tier: SHIPPING_TIER,
  });
}

/** How the customer paid, in GA4's `payment_type`: a kind of card, never a card detail. */
export type PaymentType = 'Saved card' | 'New card';

export function trackAddPaymentInfo(
  sources: ItemSource[],
  paymentType: PaymentType,
  coupon?: string | null,
): void {
  pushEcommerce(checkoutStepEvents[3], {
    ...stepParameters(3),
    ...cartParameters(sources),
    ...couponParameter(coupon),
    payment_type: paymentType,
  });
}

/** The step event for steps 1 and 2, sent as the step shows (use-checkout-step.ts). */
export function trackCheckoutStep(
  step: 1 | 2,
  sources: ItemSource[],
  coupon?: string | null,
): void {
  if (step === 1) trackBeginCheckout(sources, coupon);
  else trackAddShippingInfo(sources, coupon);
}

export function trackPurchase(order: {
  order_number: string;
  total_cents: number;
  coupon_code?: string | null | undefined;
  items: ItemSource[];
}): void {
  pushEcommerce('purchase', {
    transaction_id: order.order_number,
    value: centsToAmount(order.total_cents),
    tax: analytics.tax,
    shipping: analytics.shipping,
    currency: analytics.currency,
    ...couponParameter(order.coupon_code),
    items: order.items.map((item) => analyticsItem(item)),
  });
}

// --- Accounts and online visits ----------------------------------------------------------------

/** An online visit's page: it pushes nothing but visit_started and visit_submitted. */
const onVisitPage = () =>
  typeof window !== 'undefined' && window.location.pathname.startsWith('/visit/');

/**
 * GA4's `sign_up` and `login`: how, never who. An account made or opened as a step of an online
 * visit is not sent: on a visit's pages a visit is "started" and "submitted", nothing more.
 */
export function trackSignUp(): void {
  if (!onVisitPage()) pushEvent({ event: 'sign_up', method: 'email' });
}

export function trackLogin(): void {
  if (!onVisitPage()) pushEvent({ event: 'login', method: 'email' });
}

/**
 * An online visit is "started" and "submitted", nothing more: no program, answer, page address or
 * health word (HHS guidance on tracking technologies). Visit pages never load the tag manager; a
 * queued event reaches it only if this browser tab later opens a public page.
 */
export function trackVisitStarted(): void {
  pushEvent({ event: 'visit_started' });
}

export function trackVisitSubmitted(): void {
  pushEvent({ event: 'visit_submitted' });
}
