import { z } from 'zod';
import { apiPaths } from './api.ts';
import { endpoint } from './contract.ts';
import { idSchema } from './ids.ts';
import {
  CareInboxItemSchema,
  CareReplySchema,
  CareThreadRequestSchema,
  HandOffProviderSchema,
  HandOffSchema,
  SentSchema,
  ThreadSchema,
} from './messages.ts';
import { orderStatuses } from './orders.ts';
import { programs, type Program } from './visits.ts';

/*
 * The operations console (DESIGN §6): orders, fulfilment, refunds, the care team's inbox of
 * threads not about a visit, and which offered states have a licensed provider. Every view and
 * change is written to the staff audit log.
 */

export const StaffOrderListRequestSchema = z.strictObject({
  status: z.enum(orderStatuses).optional(),
  /** An order number, or part of a customer's email or name. */
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

/**
 * How the payment processor's fraud screening rated a payment (Stripe Radar's `risk_level`):
 * `not_assessed` where it did not look, `unknown` where it could not tell.
 */
export const riskLevels = ['normal', 'elevated', 'highest', 'not_assessed', 'unknown'] as const;
export type RiskLevel = (typeof riskLevels)[number];

/**
 * The order's payment as the payment processor shows it (issue 28). `unavailable`: the processor
 * could not be asked just now, so the link and the risk level are missing, not absent there.
 */
export const StaffOrderProcessorSchema = z.object({
  /** The processor's id of the order's charge or hold (a Stripe PaymentIntent, `pi_…`). */
  payment_id: z.string(),
  /** The payment's page in the processor's dashboard; null where it has none. */
  dashboard_url: z.string().nullable(),
  /** Null before a charge was attempted, or where the processor does not rate payments. */
  risk_level: z.enum(riskLevels).nullable(),
  /** Why the newest capture of the held amount failed, as the ledger recorded it. */
  capture_failure: z.string().nullable(),
  unavailable: z.boolean(),
});
export type StaffOrderProcessor = z.infer<typeof StaffOrderProcessorSchema>;

export const StaffOrderDetailSchema = StaffOrderSummarySchema.extend({
  customer_id: z.number().int(),
  kind: z.string(),
  subtotal_cents: z.number().int(),
  discount_cents: z.number().int(),
  coupon_code: z.string().nullable(),
  items: z.array(
    z.object({
      /** An online visit's line reads `visitOrderLineName` until its visit is approved. */
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
  /**
   * The customer's linked partner (issue 16), by first name and customer id only: nothing of the
   * partner's own records, clinical or otherwise.
   */
  partner: z.object({ first_name: z.string(), customer_id: z.number().int() }).nullable(),
  /**
   * The partner this order ships to (issue 16), by first name and customer id: `shipping` is their
   * shared address as it was when the order was placed. Null: the customer's own address. It stays
   * after an unlink (the order is history), and goes only if the partner's account does.
   */
  ships_to_partner: z.object({ first_name: z.string(), customer_id: z.number().int() }).nullable(),
  /**
   * A renewal of a gift or a couples' plan (decision 018): the customer above pays; a gift ships
   * to its recipient (the address below is theirs), a plan to the customer with both lines.
   */
  together: z
    .object({
      kind: z.enum(['gift', 'plan']),
      partner_first_name: z.string(),
      partner_id: z.number().int(),
    })
    .nullable(),
  /**
   * Disputes (chargebacks) of the order's payment, as the payment processor's events tell them
   * (issue 28): Stripe's state (`needs_response`, `under_review`, `won`, `lost`, …) and the time
   * by which evidence must be submitted, null once it is closed.
   */
  disputes: z.array(
    z.object({
      dispute_id: z.string(),
      payment_ref: z.string(),
      amount_cents: z.number().int(),
      reason: z.string(),
      status: z.string(),
      evidence_due_by: z.string().nullable(),
      opened_at: z.string(),
      closed_at: z.string().nullable(),
    }),
  ),
  /** Card issuers' early fraud warnings on the order's payment (Stripe Radar). */
  fraud_warnings: z.array(
    z.object({
      warning_id: z.string(),
      payment_ref: z.string(),
      fraud_type: z.string(),
      /** Whether refunding now could still head off a dispute. */
      actionable: z.boolean(),
      warned_at: z.string(),
    }),
  ),
  /**
   * The order's payment at the processor: null when the order has no processor payment, or the
   * processor has nothing to show of it (the simulator, unless a capture failed).
   */
  processor: StaffOrderProcessorSchema.nullable(),
});
export type StaffOrderDetail = z.infer<typeof StaffOrderDetailSchema>;

/**
 * How the line of an online visit's order reads to operations until a provider approves the visit:
 * the program alone, never the treatment or dose the patient asked for (minimum necessary). Once
 * approved, the line is the prescription they fulfil.
 */
export function visitOrderLineName(category: string): string {
  const program = (programs as Partial<Record<string, Program>>)[category];
  return program ? `Online visit (${program.name})` : 'Online visit';
}

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
  /** Why, for the ledger and the audit trail (never sent to the customer, who is told the amount). */
  reason: z
    .string({ error: 'Say why you are refunding' })
    .trim()
    .min(1, 'Say why you are refunding')
    .max(500, 'Keep the reason under 500 characters'),
});

const OrderResultSchema = z.object({ order: StaffOrderDetailSchema });

/** An offered state (STATES_ALLOWED) and how many active providers are licensed there. */
export const StateCoverageSchema = z.object({
  state: z.string(),
  /** None: patients there are refused at eligibility and at checkout. */
  providers: z.number().int(),
});
export type StateCoverage = z.infer<typeof StateCoverageSchema>;

/** Issue 29: operations see a provider's licence this many days before its last valid day. */
export const LICENCE_WARNING_DAYS = 60;

/** A provider's state licence whose last valid day is within LICENCE_WARNING_DAYS. */
export const ExpiringLicenceSchema = z.object({
  provider: z.string(),
  state: z.string(),
  number: z.string(),
  /** YYYY-MM-DD: the last day it is valid. */
  expires_on: z.string(),
});
export type ExpiringLicence = z.infer<typeof ExpiringLicenceSchema>;

export const operationsApi = {
  orders: endpoint({
    path: apiPaths.staffOrders,
    access: 'operations',
    view: true,
    body: StaffOrderListRequestSchema,
    response: StaffOrderListSchema,
    errors: [],
  }),
  order: endpoint({
    path: apiPaths.staffOrder,
    access: 'operations',
    view: true,
    body: StaffOrderIdSchema,
    response: OrderResultSchema,
    errors: ['NOT_FOUND'],
  }),
  ship: endpoint({
    path: apiPaths.staffShip,
    access: 'operations',
    body: ShipOrderSchema,
    response: OrderResultSchema,
    message: 'Marked shipped; the customer was emailed the tracking link.',
    errors: ['NOT_FOUND', 'ORDER_STATE'],
  }),
  deliver: endpoint({
    path: apiPaths.staffDeliver,
    access: 'operations',
    body: StaffOrderIdSchema,
    response: OrderResultSchema,
    message: 'Marked delivered; the customer was emailed a link to the order.',
    errors: ['NOT_FOUND', 'ORDER_STATE'],
  }),
  refund: endpoint({
    path: apiPaths.staffRefund,
    access: 'operations',
    body: RefundOrderSchema,
    response: OrderResultSchema,
    message: 'Refunded; the customer was emailed a receipt.',
    errors: ['NOT_FOUND', 'ORDER_STATE', 'REFUND_TOO_LARGE', 'REFUND_FAILED'],
  }),
  cancel: endpoint({
    path: apiPaths.staffCancel,
    access: 'operations',
    body: StaffOrderIdSchema,
    response: OrderResultSchema,
    message: 'Cancelled; any payment was refunded in full.',
    errors: ['NOT_FOUND', 'ORDER_STATE', 'ORDER_CHANGED', 'REFUND_FAILED'],
  }),
  /**
   * Each offered state (STATES_ALLOWED, in its order) with its number of providers licensed there
   * today, and the licences that expire within LICENCE_WARNING_DAYS, soonest first.
   */
  coverage: endpoint({
    path: apiPaths.staffCoverage,
    access: 'operations',
    view: true,
    body: z.strictObject({}),
    response: z.object({
      states: z.array(StateCoverageSchema),
      expiring_licences: z.array(ExpiringLicenceSchema),
    }),
    errors: [],
  }),
  inbox: endpoint({
    path: apiPaths.staffInbox,
    access: 'operations',
    view: true,
    body: z.strictObject({}),
    response: z.object({ threads: z.array(CareInboxItemSchema) }),
    errors: [],
  }),
  /** A thread of the inbox (not a clinical one), and the providers it could be handed to. */
  inboxThread: endpoint({
    path: apiPaths.staffInboxThread,
    access: 'operations',
    view: true,
    body: CareThreadRequestSchema,
    response: z.object({
      thread: ThreadSchema,
      patient: z.object({ name: z.string(), customer_id: z.number().int() }),
      providers: z.array(HandOffProviderSchema),
    }),
    errors: ['NOT_FOUND'],
  }),
  inboxReply: endpoint({
    path: apiPaths.staffInboxReply,
    access: 'operations',
    body: CareReplySchema,
    response: SentSchema,
    message: 'Sent.',
    errors: ['NOT_FOUND'],
  }),
  /** A clinical question asked as something else: the thread goes to a provider to answer. */
  inboxHandOff: endpoint({
    path: apiPaths.staffInboxHandOff,
    access: 'operations',
    body: HandOffSchema,
    message: 'Handed to the provider. They answer the patient from their console.',
    errors: ['NOT_FOUND'],
  }),
};
