import { z } from 'zod';
import { apiPaths } from './api.ts';
import { endpoint } from './contract.ts';
import { LeadsIdSchema } from './ids.ts';

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

/** Spec §3 "Order history": each order as the member area shows it, keyed by order number. */
export const OrderItemSchema = z.object({
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

export const OrderSchema = z.object({
  orders_id: z.number().int(),
  order_number: z.string(),
  /** One of `orderStatuses`; `orderStatusLabels` says how it reads ('Declined', …). */
  order_status: z.enum(orderStatuses),
  order_date: z.string(),
  order_total: z.number(),
  order_total_cents: z.number().int(),
  refund_amount: z.number(),
  refund_cents: z.number().int(),
  tracking_number: z.string().nullable(),
  /** Why a provider declined, in words for the patient. */
  decline_reason: z.string().nullable(),
  order_items: z.array(OrderItemSchema),
  shippingAddress: ShippingAddressSchema.nullable(),
});
export type Order = z.infer<typeof OrderSchema>;

export const OrderHistorySchema = z.record(z.string(), OrderSchema);
export type OrderHistory = z.infer<typeof OrderHistorySchema>;

export const flagTypes = [
  'payment_failed',
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

/** Spec §3 `lander`: who the customer is, what needs attention, and their order history. */
export const LanderSchema = z.object({
  prospects_id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  flags: z.array(FlagSchema),
  order_history: OrderHistorySchema,
});
export type Lander = z.infer<typeof LanderSchema>;

export const ordersApi = {
  /** Spec §7 "Orders details": status, and a message that becomes `lander`. */
  ordersDetails: endpoint({
    path: apiPaths.ordersDetails,
    access: 'patient',
    envelope: 'message',
    body: z.strictObject({ leads_id: LeadsIdSchema }),
    response: LanderSchema,
    errors: [],
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

/** Spec §2: the tracking link goes to the postal service's tracking page. */
export function trackingUrl(trackingNumber: string): string {
  return `https://tools.usps.com/go/TrackConfirmAction?tLabels=${encodeURIComponent(trackingNumber)}`;
}
