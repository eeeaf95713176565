import { z } from 'zod';
import { idSchema } from './ids.ts';
import { orderStatuses } from './orders.ts';

export const staffRoles = ['provider', 'operations'] as const;
export type StaffRole = (typeof staffRoles)[number];

export const StaffLoginSchema = z.strictObject({
  email: z
    .string({ error: 'Field required' })
    .trim()
    .toLowerCase()
    .min(1, 'Field required')
    .max(254)
    .pipe(z.email('Invalid Email')),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1024),
  code: z
    .string({ error: 'Enter the 6-digit code from your authenticator app' })
    .trim()
    .regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app'),
});
export type StaffLogin = z.infer<typeof StaffLoginSchema>;

export const StaffUserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: z.enum(staffRoles),
  licensed_states: z.array(z.string()),
});
export type StaffUser = z.infer<typeof StaffUserSchema>;

export const StaffMeSchema = z.object({
  authenticated: z.boolean(),
  staff: StaffUserSchema.nullable(),
});

// --- Operations ----------------------------------------------------------------------------------

export const StaffOrderListRequestSchema = z.strictObject({
  status: z.enum(orderStatuses).optional(),
  /** An order number, or part of a customer's e-mail or name. */
  query: z.string().trim().max(100).optional(),
});

export const StaffOrderSummarySchema = z.object({
  orders_id: z.number().int(),
  order_number: z.string(),
  order_status: z.enum(orderStatuses),
  payment_status: z.string(),
  order_date: z.string(),
  total_cents: z.number().int(),
  refund_cents: z.number().int(),
  customer_name: z.string(),
  customer_email: z.string(),
  item_count: z.number().int(),
  tracking_number: z.string().nullable(),
});
export type StaffOrderSummary = z.infer<typeof StaffOrderSummarySchema>;

export const StaffOrderListSchema = z.object({ orders: z.array(StaffOrderSummarySchema) });

export const StaffOrderDetailSchema = StaffOrderSummarySchema.extend({
  customer_id: z.number().int(),
  kind: z.string(),
  subtotal_cents: z.number().int(),
  discount_cents: z.number().int(),
  coupon_code: z.string().nullable(),
  items: z.array(
    z.object({
      product_name: z.string(),
      category: z.string(),
      quantity: z.number().int(),
      unit_price_cents: z.number().int(),
    }),
  ),
  shipping: z.object({
    address: z.string(),
    address2: z.string(),
    city: z.string(),
    state: z.string(),
    zip: z.string(),
    country: z.string(),
  }),
  /** What the order's status allows next (the console offers only these). */
  actions: z.array(z.enum(['ship', 'deliver', 'refund', 'cancel'])),
});
export type StaffOrderDetail = z.infer<typeof StaffOrderDetailSchema>;

const orderId = idSchema('Choose an order');

export const StaffOrderIdSchema = z.strictObject({ order_id: orderId });

export const ShipOrderSchema = z.strictObject({
  order_id: orderId,
  tracking_number: z
    .string({ error: 'Enter the tracking number' })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9]{10,34}$/, 'Enter a USPS tracking number (10 to 34 letters and digits)'),
});

export const RefundOrderSchema = z.strictObject({
  order_id: orderId,
  amount_cents: z
    .number({ error: 'Enter the amount to refund' })
    .int('Enter the amount in cents')
    .positive('Enter the amount to refund'),
  reason: z.string().trim().max(500).optional(),
});

export const StaffOrderResultSchema = z.object({
  status: z.literal('SUCCESS'),
  message: z.string(),
  data: z.object({ order: StaffOrderDetailSchema }),
});
