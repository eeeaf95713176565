import { z } from 'zod';
import { apiPaths } from './api.ts';
import { MAX_QUANTITY } from './cart.ts';
import { endpoint } from './contract.ts';
import { idSchema } from './ids.ts';
import { SubscriptionFrequencySchema } from './subscriptions.ts';

export { COUPLES_DISCOUNT_PERCENT, couplesPriceCents } from './couples-price.ts';

/**
 * Buying together (issue 16, decision 018): a gift subscription one partner pays for and the other
 * receives, and a couples' plan, two supplement subscriptions delivered together with one charge.
 * Each starts as a gift or plan the other partner accepts or declines; nothing is charged before
 * they accept. One id, `together_id`, names it from the proposal to its end, for both partners.
 */

export const togetherKinds = ['gift', 'plan'] as const;
export type TogetherKind = (typeof togetherKinds)[number];

/** Where a gift ships: one of the recipient's own addresses on file. */
export const shipToChoices = ['shipping', 'billing'] as const;
export type ShipTo = (typeof shipToChoices)[number];

/** Waiting for an answer, or running (a declined or ended one is in each person's history). */
export const togetherStatuses = ['pending', 'active', 'paused', 'payment_due'] as const;
export type TogetherStatus = (typeof togetherStatuses)[number];

/** What each side may do to a gift or plan; the server refuses anything else. */
export const togetherActions = [
  'accept',
  'decline',
  'withdraw',
  'cancel',
  'skip',
  'move_date',
  'pause',
  'resume',
  'address',
] as const;
export type TogetherAction = (typeof togetherActions)[number];

const AddressTextSchema = z.object({
  address: z.string(),
  address2: z.string(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
});
export type AddressText = z.infer<typeof AddressTextSchema>;

export const TogetherLineSchema = z.object({
  /** Whose line: the caller's, or their partner's. */
  for: z.enum(['you', 'partner']),
  product_id: z.number().int(),
  product_name: z.string(),
  frequency: SubscriptionFrequencySchema,
  quantity: z.number().int(),
  /** What arrives each delivery, in bottles. */
  bottles: z.number().int(),
  /** The price of one unit each delivery (the couples' price on a plan). */
  unit_price_cents: z.number().int(),
});
export type TogetherLine = z.infer<typeof TogetherLineSchema>;

export const TogetherItemSchema = z.object({
  together_id: z.number().int(),
  kind: z.enum(togetherKinds),
  /** payer: gave the gift or started the plan and is billed; partner: received or joined it. */
  role: z.enum(['payer', 'partner']),
  status: z.enum(togetherStatuses),
  partner_first_name: z.string(),
  lines: z.array(TogetherLineSchema),
  /** One delivery's charge, all lines together. */
  total_cents: z.number().int(),
  /** YYYY-MM-DD; null while it waits for an answer. */
  next_date: z.string().nullable(),
  paused_until: z.string().nullable(),
  /**
   * Where it ships, as the caller may know it: the address itself when it is the caller's own or
   * the partner shares theirs, otherwise null (and `ships_to_name` says whose it is).
   */
  ships_to: AddressTextSchema.nullable(),
  ships_to_name: z.string(),
  /** A gift's recipient: which of their addresses it ships to. */
  ship_to: z.enum(shipToChoices).nullable(),
  /** The payer's card, to the payer only: "Visa ending 4242". */
  billed_to: z.string().nullable(),
  actions: z.array(z.enum(togetherActions)),
});
export type TogetherItem = z.infer<typeof TogetherItemSchema>;

export const TogetherOverviewSchema = z.object({
  /** The caller's card on file (to show what a gift or plan is billed to), or null. */
  card: z.object({ brand: z.string(), last4: z.string() }).nullable(),
  /** The caller's own addresses, to choose where a gift ships. */
  addresses: z.object({
    shipping: AddressTextSchema.nullable(),
    billing: AddressTextSchema.nullable(),
  }),
  /** Gifts and plans between the caller and their partner: waiting, running, or just declined. */
  items: z.array(TogetherItemSchema),
});
export type TogetherOverview = z.infer<typeof TogetherOverviewSchema>;

const togetherId = idSchema('Choose a gift or plan');
const productId = idSchema('Choose a supplement');
const quantity = z
  .number({ error: 'Choose a quantity' })
  .int('Choose a quantity')
  .min(1, 'Choose a quantity')
  .max(MAX_QUANTITY, `You can order up to ${MAX_QUANTITY} at a time`);
const shipTo = z.enum(shipToChoices, { error: 'Choose where it ships' });
const isoDay = z.string({ error: 'Choose a date' }).regex(/^\d{4}-\d{2}-\d{2}$/, 'Choose a date');

export const GiveSchema = z.strictObject({ product_id: productId, quantity });

export const StartPlanSchema = z.strictObject({
  product_id: productId,
  quantity,
  partner_product_id: productId,
  partner_quantity: quantity,
});

export const TogetherAnswerSchema = z.strictObject({
  together_id: togetherId,
  /** A gift: which of the recipient's addresses it ships to. */
  ship_to: shipTo.optional(),
});

export const TogetherIdSchema = z.strictObject({ together_id: togetherId });

export const TogetherChangeSchema = z.strictObject({
  together_id: togetherId,
  change: z.discriminatedUnion(
    'action',
    [
      z.strictObject({ action: z.literal('skip') }),
      z.strictObject({ action: z.literal('move_date'), date: isoDay }),
      z.strictObject({ action: z.literal('pause'), until: isoDay }),
      z.strictObject({ action: z.literal('resume') }),
    ],
    { error: 'Choose a change' },
  ),
});
export type TogetherChange = z.infer<typeof TogetherChangeSchema>['change'];

export const ShipToSchema = z.strictObject({ together_id: togetherId, ship_to: shipTo });

const itemAnswer = z.object({ item: TogetherItemSchema });

export const togetherApi = {
  /** Gifts and plans with the partner, the caller's card and addresses; read fresh every call. */
  overview: endpoint({
    path: apiPaths.partnerTogether,
    access: 'customer',
    body: z.strictObject({}),
    response: TogetherOverviewSchema,
    errors: [],
  }),
  give: endpoint({
    path: apiPaths.partnerGift,
    access: 'customer',
    body: GiveSchema,
    response: itemAnswer,
    message: 'Gift proposed. Nothing is charged until your partner accepts.',
    errors: ['NOT_FOUND', 'NO_CARD', 'SUBSCRIPTION_REFUSED'],
  }),
  startPlan: endpoint({
    path: apiPaths.partnerPlan,
    access: 'customer',
    body: StartPlanSchema,
    response: itemAnswer,
    message: "Couples' plan proposed. Nothing is charged until your partner accepts.",
    errors: ['NOT_FOUND', 'NO_CARD', 'SUBSCRIPTION_REFUSED'],
  }),
  accept: endpoint({
    path: apiPaths.partnerTogetherAccept,
    access: 'customer',
    body: TogetherAnswerSchema,
    response: itemAnswer,
    errors: ['NOT_FOUND', 'INVITATION_CLOSED', 'SUBSCRIPTION_REFUSED'],
  }),
  decline: endpoint({
    path: apiPaths.partnerTogetherDecline,
    access: 'customer',
    body: TogetherIdSchema,
    message: 'Declined. Nothing was charged.',
    errors: ['NOT_FOUND', 'INVITATION_CLOSED'],
  }),
  cancel: endpoint({
    path: apiPaths.partnerTogetherCancel,
    access: 'customer',
    body: TogetherIdSchema,
    errors: ['NOT_FOUND', 'SUBSCRIPTION_REFUSED', 'SUBSCRIPTION_CHANGED'],
  }),
  change: endpoint({
    path: apiPaths.partnerTogetherChange,
    access: 'customer',
    body: TogetherChangeSchema,
    response: itemAnswer,
    errors: ['NOT_FOUND', 'SUBSCRIPTION_REFUSED', 'SUBSCRIPTION_CHANGED'],
  }),
  address: endpoint({
    path: apiPaths.partnerTogetherAddress,
    access: 'customer',
    body: ShipToSchema,
    response: itemAnswer,
    message: 'Your gift will ship to that address from now on.',
    errors: ['NOT_FOUND', 'SUBSCRIPTION_REFUSED'],
  }),
};

/** Who ships where, in words: "Ships to Sam", "Ships to you". */
export const shipsToText = (item: Pick<TogetherItem, 'ships_to_name'>) =>
  `Ships to ${item.ships_to_name}`;

/** What the recipient or partner reads when a gift or plan is no longer there to answer. */
export const togetherClosedText = 'This gift or plan is no longer open.';
