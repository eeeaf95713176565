// zod/mini, not classic zod: a storefront page reads the browser cart and the server cart on its
// first visit (docs/decisions/007-measured-quality.md).
import * as z from 'zod/mini';
import { apiPaths } from './api.ts';
import { FrequencySchema, offers, type Frequency } from './catalog.ts';
import { endpoint } from './contract.ts';
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

const CartDataSchema = z.object({ cart: CartSchema });

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

/** The v2 commerce calls of spec §7 (`{ data: { cart } }`, the server's pricing) and the v1 coupon check. */
export const cartApi = {
  cart: endpoint({
    path: apiPaths.v2Cart,
    access: 'customer',
    body: z.optional(z.strictObject({})),
    response: CartDataSchema,
    errors: [],
  }),
  addProduct: endpoint({
    path: apiPaths.v2AddProduct,
    access: 'customer',
    body: AddProductSchema,
    example: { product_id: offers.biotin.oneTime, quantity: 2 },
    response: CartDataSchema,
    errors: ['NOT_FOUND', 'QUANTITY'],
  }),
  removeProduct: endpoint({
    path: apiPaths.v2RemoveProduct,
    access: 'customer',
    body: RemoveProductSchema,
    response: CartDataSchema,
    errors: [],
  }),
  updateCart: endpoint({
    path: apiPaths.v2UpdateCart,
    access: 'customer',
    body: UpdateCartSchema,
    example: { mode: 'set', items: [{ product_id: offers.sleep.monthly, quantity: 1 }] },
    response: CartDataSchema,
    errors: ['NOT_FOUND', 'QUANTITY'],
  }),
  applyCoupon: endpoint({
    path: apiPaths.v2ApplyCoupon,
    access: 'customer',
    body: ApplyCouponSchema,
    example: { code: 'WELCOME10' },
    response: CartDataSchema,
    errors: ['COUPON_REFUSED', 'EMPTY_CART'],
  }),
  /** Would this code apply? For a visitor's browser cart, before log-in. */
  couponCode: endpoint({
    path: apiPaths.couponCode,
    access: 'public',
    body: CouponCheckSchema,
    response: CouponCheckResultSchema,
    errors: ['COUPON_REFUSED'],
  }),
};

export interface CouponRule {
  kind: 'percent' | 'fixed';
  /** Percent (1–100) or cents. */
  value: number;
}

// --- Rules both sides apply -----------------------------------------------------------------------

/** What the stacking rule needs to know of a product, in the catalogue's and the cart's words. */
export interface Stackable {
  frequency: Frequency;
  quantity_supported: boolean;
}

/**
 * Whether a product comes in quantities (spec §3 catalogue: "one-time, quantity allowed"): adding
 * it again adds to its line, up to MAX_QUANTITY. Anything else — a subscription, the bundle — is
 * one line of one, and adding it again changes nothing.
 */
export function stacks(product: Stackable): boolean {
  return product.quantity_supported && product.frequency === 'ONE_TIME';
}

/** The quantity a line may hold: any whole number up to MAX_QUANTITY when it stacks, else at most 1. */
export function lineQuantity(product: Stackable, wanted: number): number {
  const limit = stacks(product) ? MAX_QUANTITY : 1;
  return Math.max(0, Math.min(Math.round(wanted), limit));
}

/** A line as priced: its unit price and how many. */
export interface PricedLine {
  price_cents: number;
  quantity: number;
}

export function lineTotal(line: PricedLine): number {
  return line.price_cents * line.quantity;
}

export function cartSubtotal(lines: readonly PricedLine[]): number {
  return lines.reduce((sum, line) => sum + lineTotal(line), 0);
}

/** Shipping and tax are free (spec §9: the analytics report tax 0 and shipping 0). */
const SHIPPING_CENTS = 0;
const TAX_CENTS = 0;

export type CartTotals = Pick<
  Cart,
  | 'item_count'
  | 'subtotal_cents'
  | 'discount_cents'
  | 'shipping_cents'
  | 'tax_cents'
  | 'total_cents'
>;

/**
 * The cart's totals, the one pricing of the server cart and of a visitor's browser cart. The
 * discount is the coupon's, already worked out against this subtotal (couponDiscount).
 */
export function cartTotals(lines: readonly PricedLine[], discountCents: number): CartTotals {
  const subtotal = cartSubtotal(lines);
  return {
    item_count: lines.reduce((sum, line) => sum + line.quantity, 0),
    subtotal_cents: subtotal,
    discount_cents: discountCents,
    shipping_cents: SHIPPING_CENTS,
    tax_cents: TAX_CENTS,
    total_cents: subtotal - discountCents + SHIPPING_CENTS + TAX_CENTS,
  };
}

/**
 * The discount a placed order had: what its lines come to, less what was charged. The order
 * answers its total, not its coupon, and the pricing above is the only way the two differ.
 */
export function orderDiscount(lines: readonly PricedLine[], totalCents: number): number {
  return cartSubtotal(lines) + SHIPPING_CENTS + TAX_CENTS - totalCents;
}

/** What a coupon takes off a subtotal, in cents: never more than the subtotal. */
export function couponDiscount(rule: CouponRule, subtotalCents: number): number {
  const raw = rule.kind === 'percent' ? Math.floor((subtotalCents * rule.value) / 100) : rule.value;
  return Math.max(0, Math.min(raw, subtotalCents));
}
