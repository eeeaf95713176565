import { z } from 'zod';
import {
  AddressInputSchema,
  CardCvvSchema,
  CardExpirySchema,
  CardNumberSchema,
  PaymentConsentSchema,
  PhoneSchema,
} from './accounts.ts';
import { FrequencySchema } from './catalog.ts';

/** A new card at checkout (spec §3 card payload fields), or the card on file. */
export const CheckoutPaymentSchema = z.discriminatedUnion('method', [
  z.strictObject({
    method: z.literal('card'),
    ccnum: CardNumberSchema,
    ccexp: CardExpirySchema,
    cccvv: CardCvvSchema,
  }),
  z.strictObject({ method: z.literal('saved') }),
]);

/**
 * v2 `ecom/place-order`. The server prices the cart itself: nothing here carries a price. The
 * idempotency key is made once per checkout in the browser, so a double click, a retry or a
 * second tab place one order and one charge.
 */
export const PlaceOrderSchema = z.strictObject({
  idempotency_key: z.string().uuid('Please reload the page and try again.'),
  shipping: AddressInputSchema.extend({ phoneNo: PhoneSchema }),
  /** null: bill to the shipping address. */
  billing: AddressInputSchema.nullable(),
  payment: CheckoutPaymentSchema,
  consent: PaymentConsentSchema,
  click_id: z.string().max(64).nullish(),
});
export type PlaceOrder = z.infer<typeof PlaceOrderSchema>;

export const PlacedOrderSchema = z.object({
  orders_id: z.number().int(),
  order_number: z.string(),
  total_cents: z.number().int(),
  subscriptions: z.number().int(),
  items: z.array(
    z.object({
      product_id: z.number().int(),
      name: z.string(),
      category: z.string(),
      price_cents: z.number().int(),
      quantity: z.number().int(),
      frequency: FrequencySchema,
    }),
  ),
});
export type PlacedOrder = z.infer<typeof PlacedOrderSchema>;
export const PlaceOrderResponseSchema = z.object({ data: PlacedOrderSchema });

/** An offer at checkout step 2 (`/leads/upsells`): add the bundle, or subscribe instead of buying once. */
export const UpsellSchema = z.object({
  kind: z.enum(['add_product', 'switch_to_subscription']),
  product_id: z.number().int(),
  /** For a switch: the one-time product it replaces. */
  replaces_product_id: z.number().int().nullable(),
  title: z.string(),
  description: z.string(),
  img: z.string(),
  price_cents: z.number().int(),
  frequency: FrequencySchema,
  savings_cents: z.number().int(),
});
export type Upsell = z.infer<typeof UpsellSchema>;
export const UpsellsResponseSchema = z.object({
  status: z.literal('SUCCESS'),
  message: z.string(),
  data: z.object({ offers: z.array(UpsellSchema) }),
});
