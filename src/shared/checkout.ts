import { z } from 'zod';
import {
  AddressInputSchema,
  CardCvvSchema,
  cardExpiredMessage,
  CardExpirySchema,
  cardExpiryPassed,
  CardNumberSchema,
  PaymentConsentSchema,
  PaymentMethodIdSchema,
  SetupIntentIdSchema,
  ShippingInputSchema,
} from './accounts.ts';
import { apiPaths } from './api.ts';
import { FrequencySchema } from './catalog.ts';
import { endpoint } from './contract.ts';

/** A new card at checkout (spec §3 card payload fields), or the card on file. */
export const CheckoutPaymentSchema = z.discriminatedUnion('method', [
  z.strictObject({
    method: z.literal('card'),
    ccnum: CardNumberSchema,
    ccexp: CardExpirySchema,
    cccvv: CardCvvSchema,
  }),
  z.strictObject({ method: z.literal('saved') }),
  /** Stripe mode (issue 28): the card entered in Stripe's Payment Element, as its payment method. */
  z.strictObject({
    method: z.literal('payment_method'),
    payment_method: PaymentMethodIdSchema,
    setup_intent: SetupIntentIdSchema.optional(),
  }),
]);
export type CheckoutPayment = z.infer<typeof CheckoutPaymentSchema>;

const AddressTextSchema = z.object({
  address: z.string(),
  address2: z.string(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
});

/**
 * The payment form of both checkouts (the store's step 3 and a visit's): the saved card or a new
 * one, the billing address or "same as shipping", and the consent. Each part is checked with the
 * shared schema of spec §5, and only the parts in use: the card fields for a new card, the
 * billing address when it is not the shipping address.
 */
export const PaymentFormSchema = z
  .object({
    method: z.enum(['saved', 'card']),
    /**
     * Where a new card is typed: the spec's own fields (the simulator), or Stripe's Payment
     * Element, which checks its card itself and gives a payment method when the form is sent.
     */
    cardEntry: z.enum(['fields', 'element']),
    ccnum: z.string(),
    ccexp: z.string(),
    cccvv: z.string(),
    billingSame: z.boolean(),
    billing: AddressTextSchema,
    consent: z.boolean(),
  })
  .superRefine((form, ctx) => {
    const check = (schema: z.ZodType, value: unknown, path: (string | number)[]) => {
      const result = schema.safeParse(value);
      if (result.success) return;
      for (const issue of result.error.issues)
        ctx.addIssue({
          code: 'custom',
          message: issue.message,
          path: [
            ...path,
            ...issue.path.map((part) => (typeof part === 'number' ? part : String(part))),
          ],
        });
    };
    if (form.method === 'card' && form.cardEntry === 'fields') {
      check(CardNumberSchema, form.ccnum, ['ccnum']);
      check(CardExpirySchema, form.ccexp, ['ccexp']);
      // Caught in the form (by this browser's today), not only by the gateway after a round trip.
      if (cardExpiryPassed(form.ccexp, new Date()))
        ctx.addIssue({ code: 'custom', message: cardExpiredMessage, path: ['ccexp'] });
      check(CardCvvSchema, form.cccvv, ['cccvv']);
    }
    if (!form.billingSame) check(AddressInputSchema, form.billing, ['billing']);
    check(PaymentConsentSchema, form.consent, ['consent']);
  });
export type PaymentForm = z.infer<typeof PaymentFormSchema>;

/** The blank form: the saved card chosen when there is a usable one. */
export function blankPaymentForm(
  savedUsable: boolean,
  cardEntry: PaymentForm['cardEntry'] = 'fields',
): PaymentForm {
  return {
    method: savedUsable ? 'saved' : 'card',
    cardEntry,
    ccnum: '',
    ccexp: '',
    cccvv: '',
    billingSame: true,
    billing: { address: '', address2: '', city: '', state: '', zip: '' },
    consent: false,
  };
}

/**
 * What a checked payment form sends: the billing address (null: the shipping one) and the card.
 * With Stripe's Payment Element the new card is `element`, the payment method it made.
 */
export function paymentOfForm(
  form: PaymentForm,
  element?: { payment_method: string; setup_intent?: string },
): Pick<PlaceOrder, 'billing' | 'payment'> & { consent: true } {
  return {
    billing: form.billingSame ? null : AddressInputSchema.parse(form.billing),
    payment:
      form.method === 'card' && form.cardEntry === 'element'
        ? { method: 'payment_method', ...requireElement(element) }
        : form.method === 'card'
          ? {
              method: 'card',
              ccnum: CardNumberSchema.parse(form.ccnum),
              ccexp: form.ccexp.trim(),
              cccvv: form.cccvv.trim(),
            }
          : { method: 'saved' },
    consent: true,
  };
}

function requireElement(element: { payment_method: string; setup_intent?: string } | undefined) {
  if (!element) throw new Error('A card from the Payment Element is sent with its payment method.');
  return element.setup_intent
    ? { payment_method: element.payment_method, setup_intent: element.setup_intent }
    : { payment_method: element.payment_method };
}

/**
 * v2 `ecom/place-order`. The server prices the cart itself: nothing here carries a price. The
 * idempotency key is made once per checkout in the browser, so a double click, a retry or a
 * second tab place one order and one charge.
 */
/** Checkout step 1's answer: the shipping address and the phone for delivery updates. */
export const CheckoutShippingSchema = ShippingInputSchema;
export type CheckoutShipping = z.infer<typeof CheckoutShippingSchema>;

export const PlaceOrderSchema = z.strictObject({
  idempotency_key: z.string().uuid('Please reload the page and try again.'),
  shipping: CheckoutShippingSchema,
  /** null: bill to the shipping address. */
  billing: AddressInputSchema.nullable(),
  payment: CheckoutPaymentSchema,
  consent: PaymentConsentSchema,
  click_id: z.string().max(64).nullish(),
  /**
   * Issue 16: ship to the linked partner's shared address. The server reads that address from the
   * partner's account when the order is placed (whatever `shipping` says); `shipping` still carries
   * the customer's phone for delivery updates. The partner's address is never kept as the
   * customer's own: a null `billing` leaves the account's billing address as it was.
   */
  ship_to_partner: z.boolean().optional(),
});
export type PlaceOrder = z.infer<typeof PlaceOrderSchema>;

export const PlacedOrderSchema = z.object({
  orders_id: z.number().int(),
  order_number: z.string(),
  /** When it was placed (ISO-8601 UTC). */
  placed_at: z.string(),
  subtotal_cents: z.number().int(),
  discount_cents: z.number().int(),
  coupon_code: z.string().nullable(),
  total_cents: z.number().int(),
  subscriptions: z.number().int(),
  /** Issue 16: the order ships to the customer's partner (by first name); null or absent: to them. */
  ship_to_partner: z.object({ first_name: z.string() }).nullish(),
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

/** The store checkout's steps after the account (spec §4: 1 Shipping, 2 Upsell, 3 Payment). */
export const checkoutSteps = ['shipping', 'upsell', 'payment'] as const;
export type CheckoutStepName = (typeof checkoutSteps)[number];

/**
 * Where a logged-in customer's checkout has got to, kept by the server so a reload or a new tab
 * goes on from there: the furthest step reached and the shipping address given at step 1.
 */
export const CheckoutProgressSchema = z.object({
  step: z.enum(checkoutSteps),
  shipping: CheckoutShippingSchema,
  /** Issue 16: "Ship to {partner}" was chosen at step 1. */
  ship_to_partner: z.boolean().optional(),
});
export type CheckoutProgress = z.infer<typeof CheckoutProgressSchema>;

export const SaveCheckoutProgressSchema = z.strictObject({
  step: z.enum(checkoutSteps, { error: 'Choose a checkout step' }),
  shipping: CheckoutShippingSchema,
  ship_to_partner: z.boolean({ error: 'Choose where to ship' }).optional(),
});

const placeOrder = {
  access: 'customer',
  body: PlaceOrderSchema,
  response: PlacedOrderSchema,
  errors: [
    'EMPTY_CART',
    'NO_CARD',
    'CARD_DECLINED',
    'CARD_AUTHENTICATION',
    'CARD_ENTRY_CHANGED',
    'SHIPPING_STATE',
    'COUPON_REFUSED',
    'CHECKOUT_IN_PROGRESS',
    'CHECKOUT_INTERRUPTED',
    'PARTNER_ADDRESS_UNAVAILABLE',
  ],
} as const;

export const checkoutApi = {
  /** v2 `ecom/place-order`: idempotent by its key; the server prices the cart. */
  placeOrder: endpoint({ path: apiPaths.v2PlaceOrder, ...placeOrder }),
  /** Its v1 twin (spec §7 `/order/create/`), answering the same way. */
  orderCreate: endpoint({
    path: apiPaths.orderCreate,
    envelope: 'v2',
    ...placeOrder,
    apiOnly:
      "spec §7's v1 twin of v2 place-order, for clients of the v1 API; checkout places orders through v2",
  }),
  /** Where this customer's checkout has got to; null when none is under way. */
  progress: endpoint({
    path: apiPaths.checkoutProgress,
    access: 'customer',
    body: z.strictObject({}).optional(),
    response: z.object({ progress: CheckoutProgressSchema.nullable() }),
    errors: [],
  }),
  /** Keeps the step reached and the shipping address, for a reload or another tab. */
  saveProgress: endpoint({
    path: apiPaths.checkoutProgressSave,
    access: 'customer',
    body: SaveCheckoutProgressSchema,
    response: z.object({ progress: CheckoutProgressSchema }),
    errors: [],
  }),
  /** Checkout step 2's offers for the cart as it is now. */
  upsells: endpoint({
    path: apiPaths.upsells,
    access: 'customer',
    body: z.strictObject({}).optional(),
    response: z.object({ offers: z.array(UpsellSchema) }),
    errors: [],
  }),
};
