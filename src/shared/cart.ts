// zod/mini, not classic zod: a storefront page reads the browser cart and the server cart on its
// first visit (docs/decisions/007-measured-quality.md).
import * as z from 'zod/mini';
import { FrequencySchema } from './catalog.ts';
import { idSchema } from './ids.ts';

/**
 * Spec §3 "Cart entry", kept in local storage under `selectedProduct`: every field required,
 * frequency one of the three values. Entries that fail are dropped at load (spec §5 Cart).
 */
export const CartEntrySchema = z.object({
  name: z.string().check(z.minLength(1)),
  product_id: idSchema(),
  price: z.number().check(z.nonnegative()),
  frequency: FrequencySchema,
  description: z.string(),
  dose: z.string(),
  quantity: z.number().check(z.int(), z.minimum(1), z.maximum(99)),
  img: z.string(),
});
export type CartEntry = z.infer<typeof CartEntrySchema>;

export const MAX_QUANTITY = 10;

/** One line of the server cart (spec §3 "Server cart": items with a product_id). Prices are the server's. */
export const CartItemSchema = z.object({
  product_id: z.number().check(z.int()),
  name: z.string(),
  price: z.number(),
  price_cents: z.number().check(z.int()),
  frequency: FrequencySchema,
  description: z.string(),
  dose: z.string(),
  quantity: z.number().check(z.int()),
  img: z.string(),
  category: z.string(),
  slug: z.string(),
  quantity_supported: z.boolean(),
  line_total_cents: z.number().check(z.int()),
});
export type CartItem = z.infer<typeof CartItemSchema>;

export const AppliedCouponSchema = z.object({
  code: z.string(),
  description: z.string(),
  discount_cents: z.number().check(z.int()),
});

export const CartSchema = z.object({
  products: z.object({ items: z.array(CartItemSchema) }),
  coupon: z.nullable(AppliedCouponSchema),
  item_count: z.number().check(z.int()),
  subtotal_cents: z.number().check(z.int()),
  discount_cents: z.number().check(z.int()),
  shipping_cents: z.number().check(z.int()),
  tax_cents: z.number().check(z.int()),
  total_cents: z.number().check(z.int()),
});
export type Cart = z.infer<typeof CartSchema>;

/** v2 answers `{ data }` (DESIGN §5). */
export const CartResponseSchema = z.object({ data: z.object({ cart: CartSchema }) });

const productId = idSchema('Choose a product');
const quantity = z
  .number({ error: 'Choose a quantity' })
  .check(
    z.int('Choose a quantity'),
    z.minimum(1, 'Choose a quantity'),
    z.maximum(MAX_QUANTITY, `You can order up to ${MAX_QUANTITY} at a time`),
  );

export const AddProductSchema = z.strictObject({
  product_id: productId,
  quantity: z._default(quantity, 1),
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
        quantity: z.number().check(z.int(), z.minimum(0), z.maximum(MAX_QUANTITY)),
      }),
    )
    .check(z.maxLength(50)),
});

export const ApplyCouponSchema = z.strictObject({
  /** null removes the coupon. */
  code: z.nullable(
    z
      .string({ error: 'Enter a coupon code' })
      .check(
        z.trim(),
        z.toUpperCase(),
        z.minLength(1, 'Enter a coupon code'),
        z.maxLength(40, 'That coupon code is not valid.'),
      ),
  ),
});

/** v1 `/coupon/code`: would this code apply to a subtotal? */
export const CouponCheckSchema = z.strictObject({
  code: z
    .string({ error: 'Enter a coupon code' })
    .check(z.trim(), z.toUpperCase(), z.minLength(1, 'Enter a coupon code'), z.maxLength(40)),
  subtotal_cents: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(10_000_000))),
});
export const CouponCheckResultSchema = z.object({
  code: z.string(),
  description: z.string(),
  discount_cents: z.number().check(z.int()),
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
