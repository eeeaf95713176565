import { z } from 'zod';
import { apiPaths } from './api.ts';
import { MAX_QUANTITY } from './cart.ts';
import type { Frequency } from './catalog.ts';
import { endpoint } from './contract.ts';
import { usDateFromIso } from './dates.ts';
import { idSchema, LeadsIdSchema } from './ids.ts';
import { formatCents } from './money.ts';

/** COMPLETED: a prescription refill plan whose refills are used up or whose prescription ended. */
export const subscriptionStatuses = [
  'ACTIVE',
  'PAUSED',
  'PAST_DUE',
  'CANCELLED',
  'COMPLETED',
] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

export const subscriptionStatusLabels: Record<SubscriptionStatus, string> = {
  ACTIVE: 'Active',
  PAUSED: 'Paused',
  PAST_DUE: 'Payment due',
  CANCELLED: 'Cancelled',
  COMPLETED: 'Completed',
};

const transitions: Record<SubscriptionStatus, readonly SubscriptionStatus[]> = {
  ACTIVE: ['PAUSED', 'PAST_DUE', 'CANCELLED', 'COMPLETED'],
  PAUSED: ['ACTIVE', 'CANCELLED', 'COMPLETED'],
  PAST_DUE: ['ACTIVE', 'PAUSED', 'CANCELLED', 'COMPLETED'],
  CANCELLED: ['ACTIVE'],
  COMPLETED: [],
};

/** The one place that says which subscription status may follow which. */
export function canTransitionSubscription(
  from: SubscriptionStatus,
  to: SubscriptionStatus,
): boolean {
  return transitions[from].includes(to);
}

export const SubscriptionFrequencySchema = z.enum(['MONTHLY', 'QUARTERLY']);

export const SubscriptionSchema = z.object({
  id: z.number().int(),
  /** The catalogue offer; null for a prescription refill. */
  product_id: z.number().int().nullable(),
  name: z.string(),
  slug: z.string(),
  img: z.string(),
  category: z.string(),
  frequency: SubscriptionFrequencySchema,
  quantity: z.number().int(),
  unit_price_cents: z.number().int(),
  price_cents: z.number().int(),
  status: z.enum(subscriptionStatuses),
  /** YYYY-MM-DD */
  next_billing_date: z.string(),
  paused_until: z.string().nullable(),
  cancel_reason: z.string().nullable(),
  card: z.object({ brand: z.string(), last4: z.string() }).nullable(),
  /** The other supplements this one can be swapped for, at the same frequency. */
  swap_options: z.array(z.object({ product_id: z.number().int(), name: z.string() })),
  /** A prescription refill plan: fills left and the prescription's last valid day (YYYY-MM-DD). */
  refill: z.object({ refills_remaining: z.number().int(), valid_until: z.string() }).nullable(),
  /**
   * A gift or a couples' plan (decision 018, issue 26), on the lists of both people and managed on
   * the partner page, not here: `role` is the reader's (payer: who pays, a gift's giver or a plan's
   * owner; recipient: a gift's; partner: a plan's other person) and `with_first_name` the other
   * person's. `lines` is what each delivery holds (a plan has both supplements) and for whom. Only
   * the payer is shown the card (`card` is null for the other); no one is shown an address.
   */
  together: z
    .object({
      kind: z.enum(['gift', 'plan']),
      role: z.enum(['payer', 'recipient', 'partner']),
      with_first_name: z.string(),
      lines: z.array(
        z.object({ name: z.string(), quantity: z.number().int(), for: z.enum(['you', 'partner']) }),
      ),
    })
    .nullable(),
});
export type Subscription = z.infer<typeof SubscriptionSchema>;

export const SubscriptionListSchema = z.object({ subscriptions: z.array(SubscriptionSchema) });

const isoDay = z.string({ error: 'Choose a date' }).regex(/^\d{4}-\d{2}-\d{2}$/, 'Choose a date');

/** What a customer can do to a subscription (spec §7 `/subscription/update/`). */
export const SubscriptionChangeSchema = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('change_frequency'), frequency: SubscriptionFrequencySchema }),
  z.strictObject({ action: z.literal('skip') }),
  z.strictObject({ action: z.literal('move_date'), date: isoDay }),
  z.strictObject({ action: z.literal('pause'), until: isoDay }),
  z.strictObject({ action: z.literal('resume') }),
  z.strictObject({
    action: z.literal('change_quantity'),
    quantity: z
      .number()
      .int()
      .min(1, 'Choose a quantity')
      .max(MAX_QUANTITY, `You can order up to ${MAX_QUANTITY} at a time`),
  }),
  z.strictObject({ action: z.literal('swap'), product_id: idSchema('Choose a product') }),
  z.strictObject({
    action: z.literal('cancel'),
    reason: z
      .string({ error: 'Tell us why you are cancelling' })
      .trim()
      .min(1, 'Tell us why you are cancelling')
      .max(500),
  }),
  z.strictObject({ action: z.literal('reactivate') }),
]);
export type SubscriptionChange = z.infer<typeof SubscriptionChangeSchema>;

/** `preview: true` answers what the change would do (new price and date) without doing it. */
export const SubscriptionUpdateSchema = z.strictObject({
  leads_id: LeadsIdSchema,
  subscription_id: idSchema('Choose a subscription'),
  change: SubscriptionChangeSchema,
  preview: z.boolean().default(false),
});

/** The subscription as it is after the change (or would be, for a preview). */
export const SubscriptionUpdateResultSchema = z.object({
  subscription: SubscriptionSchema,
  preview: z.boolean(),
});

/** Spec §7 `/account/shipfrequency/`: the delivery frequency alone. */
export const ShipFrequencySchema = z.strictObject({
  leads_id: LeadsIdSchema,
  subscription_id: idSchema('Choose a subscription'),
  frequency: SubscriptionFrequencySchema,
});

const changeErrors = ['NOT_FOUND', 'SUBSCRIPTION_REFUSED', 'SUBSCRIPTION_CHANGED'] as const;

export const subscriptionsApi = {
  /** Spec §7 `/account/subscriptions/`: every subscription of the logged-in customer. */
  subscriptions: endpoint({
    path: apiPaths.subscriptions,
    access: 'patient',
    body: z.strictObject({ leads_id: LeadsIdSchema }),
    response: SubscriptionListSchema,
    errors: [],
  }),
  /**
   * Spec §7 `/subscription/update/`: makes a change, or with `preview` says what it would do. The
   * message says what changed (`changeMessage`); a refusal says why.
   */
  subscriptionUpdate: endpoint({
    path: apiPaths.subscriptionUpdate,
    access: 'patient',
    body: SubscriptionUpdateSchema,
    response: SubscriptionUpdateResultSchema,
    errors: changeErrors,
  }),
  /** Spec §7 `/account/shipfrequency/`: the delivery frequency alone. */
  shipFrequency: endpoint({
    path: apiPaths.shipFrequency,
    access: 'patient',
    body: ShipFrequencySchema,
    response: SubscriptionUpdateResultSchema,
    errors: changeErrors,
  }),
};

// --- Pure rules: billing dates and changes -------------------------------------------------------

export const monthsPerPeriod = { MONTHLY: 1, QUARTERLY: 3 } as const;
export type SubscriptionFrequency = keyof typeof monthsPerPeriod;

function parseDay(iso: string): [number, number, number] {
  const [year, month, day] = iso.split('-').map(Number);
  return [year ?? 1970, month ?? 1, day ?? 1];
}

function formatDay(year: number, month: number, day: number): string {
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * The billing date `periods` periods after `fromIso`, on the subscription's anchor day: a
 * subscription started on the 31st bills on the last day of shorter months and goes back to the 31st
 * after them (Jan 31 → Feb 28 → Mar 31), so month ends never drift.
 */
export function nextBillingDate(
  fromIso: string,
  frequency: SubscriptionFrequency,
  anchorDay: number,
  periods = 1,
): string {
  const [year, month] = parseDay(fromIso);
  const index = year * 12 + (month - 1) + monthsPerPeriod[frequency] * periods;
  const targetYear = Math.floor(index / 12);
  const targetMonth = (index % 12) + 1;
  const lastDay = new Date(Date.UTC(targetYear, targetMonth, 0)).getUTCDate();
  return formatDay(targetYear, targetMonth, Math.min(anchorDay, lastDay));
}

/**
 * What each subscription an order starts will charge at renewal, and from when, in words for the
 * recurring consent: "$17.50 for Sleep Gummies every month, starting 12/24/2026". Renewals are
 * charged at the product's price (a first-order discount is not repeated), on the order day's
 * anchor, as the server starts them.
 */
export function renewalTerms(
  lines: { name: string; frequency: Frequency; unitCents: number; quantity: number }[],
  todayIso: string,
): string[] {
  return lines.flatMap((line) => {
    if (line.frequency === 'ONE_TIME') return [];
    const first = nextBillingDate(todayIso, line.frequency, parseDay(todayIso)[2]);
    const every = line.frequency === 'MONTHLY' ? 'every month' : 'every 3 months';
    return [
      `${formatCents(line.unitCents * line.quantity)} for ${line.name} ${every}, starting ${usDateFromIso(first)}`,
    ];
  });
}

export function addDays(iso: string, days: number): string {
  const [year, month, day] = parseDay(iso);
  const date = new Date(Date.UTC(year, month - 1, day + days));
  return formatDay(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
}

export const MAX_MOVE_DAYS = 90;
export const MAX_PAUSE_DAYS = 180;

export interface SubscriptionState {
  status: SubscriptionStatus;
  frequency: SubscriptionFrequency;
  quantity: number;
  /** null for a prescription refill plan. */
  productId: number | null;
  nextBillingDate: string;
  anchorDay: number;
  pausedUntil: string | null;
  cancelReason: string | null;
  /** Set for a prescription refill plan: the fills left and the last day one may be billed. */
  refill: { remaining: number; until: string } | null;
}

export type ChangeOutcome = { ok: true; state: SubscriptionState } | { ok: false; message: string };

export type ChangeAction = SubscriptionChange['action'];

/** The changes each status allows, in the order the subscription's card offers them. */
const changesByStatus: Record<SubscriptionStatus, readonly ChangeAction[]> = {
  ACTIVE: ['change_frequency', 'skip', 'move_date', 'change_quantity', 'swap', 'pause', 'cancel'],
  PAUSED: ['resume', 'change_frequency', 'change_quantity', 'swap', 'cancel'],
  PAST_DUE: ['change_frequency', 'change_quantity', 'swap', 'cancel'],
  CANCELLED: ['reactivate'],
  COMPLETED: [],
};

/** What a prescription decides for a refill plan, not the patient. */
const prescribed: readonly ChangeAction[] = ['change_frequency', 'change_quantity', 'swap'];

/** Why a status refuses a change it does not allow. */
const notAllowed: Record<ChangeAction, string> = {
  change_frequency: 'Reactivate this subscription to change it.',
  change_quantity: 'Reactivate this subscription to change it.',
  swap: 'Reactivate this subscription to change it.',
  skip: 'Only an active subscription can skip a delivery.',
  move_date: 'Only an active subscription can move its next delivery.',
  pause: 'Only an active subscription can be paused.',
  resume: 'Only a paused subscription can be resumed.',
  cancel: 'This subscription is already cancelled.',
  reactivate: 'This subscription is not cancelled.',
};

/**
 * The changes a subscription allows as it stands: the server refuses any other
 * (`applySubscriptionChange`), and the card offers only these. A refill plan leaves what a refill
 * is and how often it comes to the prescription, and cannot come back once its refills are used.
 * Whether a change's values are acceptable (a date, another product) is checked when it is made.
 */
export function allowedChanges(
  state: Pick<SubscriptionState, 'status' | 'refill'>,
): ChangeAction[] {
  const { refill } = state;
  return changesByStatus[state.status].filter(
    (action) =>
      !refill ||
      (!prescribed.includes(action) && (action !== 'reactivate' || refill.remaining > 0)),
  );
}

/**
 * What a change does to a subscription on `today` (YYYY-MM-DD), or why it is refused. Product
 * lookups (the offer at another frequency, a swap) are resolved by the caller and passed in.
 */
export function applySubscriptionChange(
  state: SubscriptionState,
  change: SubscriptionChange,
  today: string,
  resolved: { productId?: number } = {},
): ChangeOutcome {
  const refuse = (message: string): ChangeOutcome => ({ ok: false, message });
  const tomorrow = addDays(today, 1);
  const later = (a: string, b: string) => (a > b ? a : b);

  if (state.status === 'COMPLETED')
    return refuse('This refill plan is complete. Start a new visit to renew your prescription.');
  if (state.refill) {
    const refused = refillRefusal(state, state.refill, change, today);
    if (refused) return refuse(refused);
  }
  if (!allowedChanges(state).includes(change.action)) return refuse(notAllowed[change.action]);

  switch (change.action) {
    case 'change_frequency':
      if (change.frequency === state.frequency)
        return refuse(
          `This subscription is already delivered ${change.frequency === 'MONTHLY' ? 'monthly' : 'quarterly'}.`,
        );
      if (resolved.productId === undefined)
        return refuse('This product is not available at that frequency.');
      return {
        ok: true,
        state: { ...state, frequency: change.frequency, productId: resolved.productId },
      };
    case 'skip':
      return {
        ok: true,
        state: {
          ...state,
          nextBillingDate: nextBillingDate(state.nextBillingDate, state.frequency, state.anchorDay),
        },
      };
    case 'move_date': {
      if (change.date <= today) return refuse('Choose a date after today.');
      if (change.date > addDays(today, MAX_MOVE_DAYS))
        return refuse(`Choose a date within the next ${MAX_MOVE_DAYS} days.`);
      return { ok: true, state: { ...state, nextBillingDate: change.date } };
    }
    case 'pause':
      if (change.until <= today) return refuse('Choose a date after today.');
      if (change.until > addDays(today, MAX_PAUSE_DAYS))
        return refuse(`You can pause for up to ${MAX_PAUSE_DAYS} days.`);
      // Nothing bills before the next date anyway: such a pause would only read as one (issue 26).
      if (change.until <= state.nextBillingDate)
        return refuse(
          `Your next delivery is on ${usDateFromIso(state.nextBillingDate)}, so a pause until ${usDateFromIso(change.until)} would change nothing. Choose a later date, or skip a delivery.`,
        );
      return {
        ok: true,
        state: {
          ...state,
          status: 'PAUSED',
          pausedUntil: change.until,
          nextBillingDate: later(state.nextBillingDate, change.until),
        },
      };
    case 'resume':
      return {
        ok: true,
        state: {
          ...state,
          status: 'ACTIVE',
          pausedUntil: null,
          nextBillingDate: later(state.nextBillingDate, tomorrow),
        },
      };
    case 'change_quantity':
      if (change.quantity === state.quantity)
        return refuse(`This subscription is already for ${change.quantity}.`);
      return { ok: true, state: { ...state, quantity: change.quantity } };
    case 'swap':
      if (resolved.productId === undefined || resolved.productId === state.productId)
        return refuse('Choose another supplement.');
      return { ok: true, state: { ...state, productId: resolved.productId } };
    case 'cancel':
      return {
        ok: true,
        state: { ...state, status: 'CANCELLED', pausedUntil: null, cancelReason: change.reason },
      };
    case 'reactivate':
      return {
        ok: true,
        state: {
          ...state,
          status: 'ACTIVE',
          cancelReason: null,
          nextBillingDate: later(state.nextBillingDate, tomorrow),
        },
      };
  }
}

/**
 * A prescription decides what a refill is and how often it comes, so only the delivery date and
 * whether it continues are the patient's to change, within the prescription's life.
 */
function refillRefusal(
  state: SubscriptionState,
  refill: { remaining: number; until: string },
  change: SubscriptionChange,
  today: string,
): string | null {
  const ends = `Your prescription ends on ${refill.until}. Choose an earlier date.`;
  switch (change.action) {
    case 'change_frequency':
    case 'change_quantity':
    case 'swap':
      return 'Your prescription sets this. Message your provider to change it.';
    case 'skip':
      return nextBillingDate(state.nextBillingDate, state.frequency, state.anchorDay) > refill.until
        ? `Skipping would move your refill past the end of your prescription on ${refill.until}.`
        : null;
    case 'move_date':
      return change.date > refill.until ? ends : null;
    case 'pause':
      return change.until > refill.until ? ends : null;
    case 'reactivate':
      if (refill.remaining <= 0) return 'This prescription has no refills left.';
      return addDays(today, 1) > refill.until
        ? 'This prescription has ended. Start a new visit to renew it.'
        : null;
    default:
      return null;
  }
}

/** What the customer is told after a change. */
export function changeMessage(change: SubscriptionChange): string {
  switch (change.action) {
    case 'change_frequency':
      return `Your subscription now ships ${change.frequency === 'MONTHLY' ? 'every month' : 'every quarter'}.`;
    case 'skip':
      return 'Your next delivery was skipped.';
    case 'move_date':
      return 'Your next delivery date was changed.';
    case 'pause':
      return 'Your subscription is paused.';
    case 'resume':
      return 'Your subscription is active again.';
    case 'change_quantity':
      return 'Your quantity was updated.';
    case 'swap':
      return 'Your subscription was switched.';
    case 'cancel':
      return 'Your subscription was cancelled.';
    case 'reactivate':
      return 'Your subscription is active again.';
  }
}
