import { z } from 'zod';
import { FrequencySchema } from './catalog.ts';

/**
 * Spec §3 "Cart entry", kept in local storage under `selectedProduct`: every field required,
 * frequency one of the three values. Entries that fail are dropped at load (spec §5 Cart).
 */
export const CartEntrySchema = z.object({
  name: z.string().min(1),
  product_id: z.number().int().positive(),
  price: z.number().nonnegative(),
  frequency: FrequencySchema,
  description: z.string(),
  dose: z.string(),
  quantity: z.number().int().min(1).max(99),
  img: z.string(),
});
export type CartEntry = z.infer<typeof CartEntrySchema>;

export const MAX_QUANTITY = 10;

/** One line of the server cart (spec §3 "Server cart": items with a product_id). Prices are the server's. */
export const CartItemSchema = z.object({
  product_id: z.number().int(),
  name: z.string(),
  price: z.number(),
  price_cents: z.number().int(),
  frequency: FrequencySchema,
  description: z.string(),
  dose: z.string(),
  quantity: z.number().int(),
  img: z.string(),
  category: z.string(),
  slug: z.string(),
  quantity_supported: z.boolean(),
  line_total_cents: z.number().int(),
});
export type CartItem = z.infer<typeof CartItemSchema>;

export const AppliedCouponSchema = z.object({
  code: z.string(),
  description: z.string(),
  discount_cents: z.number().int(),
});

export const CartSchema = z.object({
  products: z.object({ items: z.array(CartItemSchema) }),
  coupon: AppliedCouponSchema.nullable(),
  item_count: z.number().int(),
  subtotal_cents: z.number().int(),
  discount_cents: z.number().int(),
  shipping_cents: z.number().int(),
  tax_cents: z.number().int(),
  total_cents: z.number().int(),
});
export type Cart = z.infer<typeof CartSchema>;

/** v2 answers `{ data }` (DESIGN §5). */
export const CartResponseSchema = z.object({ data: z.object({ cart: CartSchema }) });

const productId = z.number({ error: 'Choose a product' }).int().positive();
const quantity = z
  .number({ error: 'Choose a quantity' })
  .int('Choose a quantity')
  .min(1, 'Choose a quantity')
  .max(MAX_QUANTITY, `You can order up to ${MAX_QUANTITY} at a time`);

export const AddProductSchema = z.strictObject({
  product_id: productId,
  quantity: quantity.default(1),
});
export const RemoveProductSchema = z.strictObject({ product_id: productId });

/**
 * `set`: these quantities replace the cart's (0 removes a line). `merge`: add these to the cart,
 * as when a visitor's browser cart joins their account at log-in.
 */
export const UpdateCartSchema = z.strictObject({
  mode: z.enum(['set', 'merge']),
  items: z
    .array(
      z.strictObject({
        product_id: productId,
        quantity: z.number().int().min(0).max(MAX_QUANTITY),
      }),
    )
    .max(50),
});

export const ApplyCouponSchema = z.strictObject({
  /** null removes the coupon. */
  code: z
    .string({ error: 'Enter a coupon code' })
    .trim()
    .toUpperCase()
    .min(1, 'Enter a coupon code')
    .max(40, 'That coupon code is not valid.')
    .nullable(),
});

/** v1 `/coupon/code`: would this code apply to a subtotal? */
export const CouponCheckSchema = z.strictObject({
  code: z
    .string({ error: 'Enter a coupon code' })
    .trim()
    .toUpperCase()
    .min(1, 'Enter a coupon code')
    .max(40),
  subtotal_cents: z.number().int().min(0).max(10_000_000).optional(),
});
export const CouponCheckResultSchema = z.object({
  code: z.string(),
  description: z.string(),
  discount_cents: z.number().int(),
});

export interface CouponRule {
  kind: 'percent' | 'fixed';
  /** Percent (1–100) or cents. */
  value: number;
}

/** What a coupon takes off a subtotal, in cents: never more than the subtotal. */
export function couponDiscount(rule: CouponRule, subtotalCents: number): number {
  const raw = rule.kind === 'percent' ? Math.floor((subtotalCents * rule.value) / 100) : rule.value;
  return Math.max(0, Math.min(raw, subtotalCents));
}
