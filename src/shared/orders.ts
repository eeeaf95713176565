import { z } from 'zod';
import { apiPaths } from './api.ts';
import { endpoint } from './contract.ts';
import { LeadsIdSchema } from './ids.ts';
import { RenewalSchema } from './renewals.ts';

export const orderStatuses = [
  'PENDING_REVIEW',
  'PROCESSING',
  'SHIPPED',
  'DELIVERED',
  'DECLINED',
  'PAYMENT_FAILED',
  'REFUNDED',
  'CANCELLED',
] as const;
export type OrderStatus = (typeof orderStatuses)[number];

export const orderKinds = ['store', 'renewal', 'visit'] as const;

/** Spec §3 "Order history": each order as the member area shows it, keyed by order number. */
export const OrderItemSchema = z.object({
  /** The catalogue offer (product at one frequency) the line was bought as. */
  product_id: z.number().int(),
  product_name: z.string(),
  product_image: z.string(),
  category: z.string(),
  quantity: z.number().int(),
  price_cents: z.number().int(),
  frequency: z.string(),
});

export const ShippingAddressSchema = z.object({
  address: z.string(),
  address2: z.string(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
  country: z.string(),
});

/**
 * Where a visit's order stands clinically, in the patient's words, beside (never instead of) the
 * order's status: under review, then approved or declined, then shipped and delivered.
 */
export const careStates = ['UNDER_REVIEW', 'APPROVED', 'DECLINED', 'SHIPPED', 'DELIVERED'] as const;
export type CareState = (typeof careStates)[number];

/** The prescription a provider wrote, as its patient reads it (drug and dose in words). */
export const PrescriptionViewSchema = z.object({
  drug: z.string(),
  dose: z.string(),
  quantity: z.number().int(),
  /** Refills still to come: none once the refill plan ends or is cancelled. */
  refills_left: z.number().int(),
  /** The last day it may be filled, `YYYY-MM-DD`. */
  valid_until: z.string(),
  /** The provider's directions (sig); null on a prescription written before they were asked for. */
  directions: z.string().nullable(),
});
export type PrescriptionView = z.infer<typeof PrescriptionViewSchema>;

/** An online visit's side of its order: only on the patient's own visit orders. */
export const VisitCareSchema = z.object({
  state: z.enum(careStates),
  prescription: PrescriptionViewSchema.nullable(),
});
export type VisitCare = z.infer<typeof VisitCareSchema>;

/**
 * Issue 26: money that moved for an order, one line per settled gateway call, oldest first: a
 * charge ('paid'), a hold on the card for an online visit ('hold'), its release ('released': not
 * charged), a refund ('refunded'), or a charge the card declined ('declined').
 */
export const paymentLineKinds = ['paid', 'hold', 'released', 'refunded', 'declined'] as const;
export type PaymentLineKind = (typeof paymentLineKinds)[number];

export const PaymentLineSchema = z.object({
  kind: z.enum(paymentLineKinds),
  amount_cents: z.number().int(),
  /** When the gateway answered. */
  date: z.string(),
});
export type PaymentLine = z.infer<typeof PaymentLineSchema>;

/** How each payment line reads on the order. */
export const paymentLineLabels: Record<PaymentLineKind, string> = {
  paid: 'Paid',
  hold: 'Hold on your card',
  released: 'Hold released — not charged',
  refunded: 'Refunded',
  declined: 'Card declined',
};

/**
 * Issue 29: where an order's medicine is at the pharmacy, in the order the steps happen. Each
 * step is kept when it arrives, whatever order the pharmacy's callbacks come in; `rejected` ends it.
 */
export const pharmacySteps = ['sent', 'received', 'filled', 'shipped', 'delivered'] as const;
export const pharmacyStepNames = [...pharmacySteps, 'rejected'] as const;
export type PharmacyStep = (typeof pharmacyStepNames)[number];

/** How each step reads to the patient (and to operations). */
export const pharmacyStepLabels: Record<PharmacyStep, string> = {
  sent: 'Sent to the pharmacy',
  received: 'Received by the pharmacy',
  filled: 'Filled by the pharmacist',
  shipped: 'Shipped',
  delivered: 'Delivered',
  rejected: 'The pharmacy could not fill it',
};

export const PharmacyTimelineSchema = z.object({
  /** The steps that happened, earliest step first. */
  steps: z.array(z.object({ step: z.enum(pharmacyStepNames), at: z.string() })),
  /** The pharmacy's reason, when it could not fill the prescription. */
  rejected_reason: z.string().nullable(),
});
export type PharmacyTimeline = z.infer<typeof PharmacyTimelineSchema>;

/** The step the medicine has reached (a rejection ends it), with when; null before any. */
export function pharmacyNow(timeline: PharmacyTimeline): { step: PharmacyStep; at: string } | null {
  const rejected = timeline.steps.find((s) => s.step === 'rejected');
  if (rejected) return rejected;
  return timeline.steps.reduce<{ step: PharmacyStep; at: string } | null>(
    (last, s) =>
      last === null || pharmacyStepNames.indexOf(s.step) > pharmacyStepNames.indexOf(last.step)
        ? s
        : last,
    null,
  );
}

export const OrderSchema = z.object({
  orders_id: z.number().int(),
  order_number: z.string(),
  /** One of `orderStatuses`; `orderStatusLabels` says how it reads ('Declined', …). */
  order_status: z.enum(orderStatuses),
  order_date: z.string(),
  /** 'store' (the shop's checkout), 'renewal' (a plan's delivery) or 'visit' (an online visit). */
  order_kind: z.enum(orderKinds),
  /** The coupon the order was placed with, if any (its discount is `orderDiscount`). */
  coupon_code: z.string().nullable(),
  order_total: z.number(),
  order_total_cents: z.number().int(),
  refund_amount: z.number(),
  refund_cents: z.number().int(),
  tracking_number: z.string().nullable(),
  /** Why a provider declined, in words for the patient. */
  decline_reason: z.string().nullable(),
  /**
   * Issue 28: the payment failed because the bank wants the customer to confirm it ("Confirm your
   * payment"); absent otherwise.
   */
  payment_confirmation: z.literal(true).optional(),
  /** For the order of an online visit: its clinical state and prescription; null otherwise. */
  visit: VisitCareSchema.nullable(),
  order_items: z.array(OrderItemSchema),
  shippingAddress: ShippingAddressSchema.nullable(),
  /** Issue 16: the order ships to the customer's partner (by first name); null or absent: to them. */
  ship_to_partner: z.object({ first_name: z.string() }).nullish(),
  /**
   * Issue 26: a gift's delivery, paid by this customer, for their partner (by first name). It shows
   * that it shipped, not where or with what tracking number: that is the recipient's.
   */
  gift_for: z.object({ first_name: z.string() }).nullish(),
  /** Issue 26: every charge, hold and refund of the order, oldest first. */
  payments: z.array(PaymentLineSchema),
  /** Issue 29: an order of medicine, at the pharmacy; absent for what the store ships. */
  pharmacy: PharmacyTimelineSchema.optional(),
});
export type Order = z.infer<typeof OrderSchema>;

export const OrderHistorySchema = z.record(z.string(), OrderSchema);
export type OrderHistory = z.infer<typeof OrderHistorySchema>;

export const flagTypes = [
  'payment_failed',
  'payment_confirmation',
  'card_expired',
  'card_expiring',
  'visit_incomplete',
  'unread_messages',
] as const;

/** One thing that needs the customer's attention, and where it is fixed. */
export const FlagSchema = z.object({
  type: z.enum(flagTypes),
  message: z.string(),
  href: z.string(),
});
export type Flag = z.infer<typeof FlagSchema>;

/** Orders in one page of the order history (orders details, and the lander of patient data). */
export const ORDERS_PAGE_SIZE = 10;
/** The most orders one page may be asked for. */
export const MAX_ORDERS_PAGE_SIZE = 50;

/** An order number as the customer may name one (in a cursor, a link, a URL hash). */
export const OrderNumberSchema = z
  .string({ error: 'Choose an order' })
  .trim()
  .min(1, 'Choose an order')
  .max(40, 'Choose an order');

/**
 * Spec §3 `lander`: who the customer is, what needs attention, and their order history — one page
 * of it, newest first (keyset by order date, then id). `next_cursor` asks for the next, older
 * page; `treatment` holds the online visits' orders Home shows whatever page they are on.
 */
export const LanderSchema = z.object({
  prospects_id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  flags: z.array(FlagSchema),
  order_history: OrderHistorySchema,
  /** Whether older orders follow this page. */
  has_more: z.boolean(),
  /** The `cursor` of the next page (the last order's number here); null on the last page. */
  next_cursor: z.string().nullable(),
  /**
   * The orders of online visits still in care (under review, approved, shipped, delivered; not
   * declined), newest first, on whatever page they are: what Home shows under "Your treatment".
   */
  treatment: z.array(OrderSchema),
  /** Issue 29: the prescriptions due for renewal, and where each renewal stands (Home). */
  renewals: z.array(RenewalSchema),
});
export type Lander = z.infer<typeof LanderSchema>;

export const OrdersDetailsRequestSchema = z.strictObject({
  leads_id: LeadsIdSchema,
  /** The `next_cursor` of the page before; without it, the first (newest) page. */
  cursor: OrderNumberSchema.optional(),
  /** Orders per page (ORDERS_PAGE_SIZE when not given). */
  limit: z
    .number({ error: 'Ask for a whole number of orders' })
    .int('Ask for a whole number of orders')
    .min(1, 'Ask for at least 1 order')
    .max(MAX_ORDERS_PAGE_SIZE, `Ask for at most ${MAX_ORDERS_PAGE_SIZE} orders`)
    .optional(),
});

export const ordersApi = {
  /**
   * Spec §7 "Orders details": status, and a message that becomes `lander`. Paged (ours, additive):
   * without a cursor the newest page; another customer's cursor is not found.
   */
  ordersDetails: endpoint({
    path: apiPaths.ordersDetails,
    access: 'patient',
    envelope: 'message',
    body: OrdersDetailsRequestSchema,
    response: LanderSchema,
    errors: ['NOT_FOUND'],
  }),
  /** One of the customer's orders by its number, on whatever page it is (`/orders#<number>`). */
  order: endpoint({
    path: apiPaths.orderDetail,
    access: 'patient',
    body: z.strictObject({ leads_id: LeadsIdSchema, order_number: OrderNumberSchema }),
    response: z.object({ order: OrderSchema }),
    errors: ['NOT_FOUND'],
  }),
};

/** How each status reads to the customer; 'Declined' is the spec's word (shown in red). */
export const orderStatusLabels: Record<OrderStatus, string> = {
  PENDING_REVIEW: 'Awaiting provider review',
  PROCESSING: 'Processing',
  SHIPPED: 'Shipped',
  DELIVERED: 'Delivered',
  DECLINED: 'Declined',
  PAYMENT_FAILED: 'Payment failed',
  REFUNDED: 'Refunded',
  CANCELLED: 'Cancelled',
};

/** A visit order's clinical state in words ('Declined' is the spec's word, shown in red). */
export const careStateLabels: Record<CareState, string> = {
  UNDER_REVIEW: 'Under review by a provider',
  APPROVED: 'Approved',
  DECLINED: 'Declined',
  SHIPPED: 'Shipped',
  DELIVERED: 'Delivered',
};

/** What happens next, one line for each clinical state. */
export const careStateNext: Record<CareState, string> = {
  UNDER_REVIEW:
    'A licensed provider is reviewing your visit, usually within one business day. Your card is charged only if they approve.',
  APPROVED:
    "Your provider approved your treatment. Our pharmacy is preparing it, and we'll email you the tracking number when it ships.",
  DECLINED:
    'Your provider explained why in a note you can answer in Messages. The hold on your card was released, so you were not charged.',
  SHIPPED: 'Your treatment is on its way. Follow the package with the tracking number below.',
  DELIVERED:
    'Your treatment was delivered. Questions about taking it? Your care team is a message away.',
};

/**
 * A visit order's clinical state from the visit's decision and the order's fulfilment; null while
 * there is nothing to say (a visit cancelled, or an order cancelled or refunded before it shipped).
 */
export function careStateOf(visitStatus: string, orderStatus: OrderStatus): CareState | null {
  if (visitStatus === 'PENDING_REVIEW')
    return orderStatus === 'PENDING_REVIEW' ? 'UNDER_REVIEW' : null;
  if (visitStatus === 'DECLINED') return 'DECLINED';
  if (visitStatus !== 'APPROVED') return null;
  if (orderStatus === 'SHIPPED') return 'SHIPPED';
  if (orderStatus === 'DELIVERED') return 'DELIVERED';
  return orderStatus === 'PROCESSING' ? 'APPROVED' : null;
}

const transitions: Record<OrderStatus, readonly OrderStatus[]> = {
  PENDING_REVIEW: ['PROCESSING', 'DECLINED', 'CANCELLED'],
  PROCESSING: ['SHIPPED', 'CANCELLED', 'REFUNDED'],
  PAYMENT_FAILED: ['PROCESSING', 'CANCELLED'],
  SHIPPED: ['DELIVERED', 'REFUNDED'],
  DELIVERED: ['REFUNDED'],
  DECLINED: [],
  REFUNDED: [],
  CANCELLED: [],
};

/** The one place that says which status may follow which (STYLE.md: only services move them). */
export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return transitions[from].includes(to);
}

/**
 * A supplement order from the shop or a supplement plan: one that may be bought again and has a
 * receipt. Never an online visit's order or a prescription refill.
 */
export function isStoreOrder(order: Pick<Order, 'order_kind' | 'order_items'>): boolean {
  return (
    order.order_kind !== 'visit' &&
    order.order_items.length > 0 &&
    order.order_items.every((item) => item.category === 'supplements')
  );
}

/** A store order that was paid for, so has a receipt (not one whose payment failed or never ran). */
export function hasReceipt(order: Pick<Order, 'order_kind' | 'order_items' | 'order_status'>) {
  return (
    isStoreOrder(order) &&
    order.order_status !== 'PAYMENT_FAILED' &&
    order.order_status !== 'CANCELLED'
  );
}

/**
 * Issue 29: an order of medicine (an online visit's, a prescription refill's) that was charged has
 * a receipt for an HSA or FSA claim; a hold, a declined visit or a failed payment has none.
 */
export function hasCareReceipt(
  order: Pick<Order, 'order_kind' | 'order_items' | 'payments'>,
): boolean {
  const medicine =
    order.order_kind === 'visit' ||
    order.order_items.some((item) => item.category !== 'supplements');
  return medicine && order.payments.some((line) => line.kind === 'paid');
}

/** Spec §2: the tracking link goes to the postal service's tracking page. */
export function trackingUrl(trackingNumber: string): string {
  return `https://tools.usps.com/go/TrackConfirmAction?tLabels=${encodeURIComponent(trackingNumber)}`;
}
