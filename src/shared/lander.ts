import { z } from 'zod';
import { OrderHistorySchema } from './orders.ts';

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

/** Spec §7 "Orders details": status, and a message that becomes `lander`. */
export const OrdersDetailsResponseSchema = z.object({
  status: z.literal('SUCCESS'),
  message: LanderSchema,
});
