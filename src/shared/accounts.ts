import { z } from 'zod';
import { limits } from './constants.ts';
import { dobProblem } from './dates.ts';
import { messages } from './wording.ts';
import { isUsState } from './us-states.ts';
import { zipMatchesState, zipNotInState } from './zip-prefixes.ts';
import { LeadsIdSchema } from './ids.ts';
import { FlagSchema, LanderSchema, OrderNumberSchema } from './orders.ts';
import { apiPaths } from './api.ts';
import { emailSchema, LoginResultSchema, NewPasswordSchema, oneTimeLink } from './auth.ts';
import { endpoint } from './contract.ts';

/** One thing that needs the customer's attention (see orders.ts). */
export type Flag = z.infer<typeof FlagSchema>;

/*
 * Requests and responses of the account calls (spec §3, §5, §7): sign-up, the customer's details,
 * addresses, card and phone, and what the member area shows. Logging in and passwords are auth.ts.
 * Field messages are the spec's words; the server re-checks everything that depends on "today"
 * with its own clock.
 */

const requiredText = (max: number) =>
  z
    .string({ error: messages.fieldRequired })
    .trim()
    .min(1, messages.fieldRequired)
    .max(max, `Must be at most ${max} characters`);

/** Sign-up and profile email (spec §5 signup: 'Field required'). */
export const AccountEmailSchema = emailSchema(messages.fieldRequired);

/** US phone: 10 digits, punctuation allowed, an optional leading +1. */
export const PhoneSchema = z
  .string({ error: messages.fieldRequired })
  .trim()
  .min(1, messages.fieldRequired)
  .max(20, 'Enter a 10-digit US phone number')
  .refine((value) => normalizePhone(value) !== null, 'Enter a 10-digit US phone number');

export function normalizePhone(value: string): string | null {
  const digits = value.replace(/[\s().-]/g, '').replace(/^\+?1(?=\d{10}$)/, '');
  return /^\d{10}$/.test(digits) ? digits : null;
}

export function formatPhone(digits: string): string {
  return digits.length === 10
    ? `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`
    : digits;
}

/** 'MM/DD/YYYY', with the spec's date-of-birth rules checked against the caller's today. */
export const DobSchema = z
  .string({ error: messages.dobRequired })
  .trim()
  .superRefine((value, ctx) => {
    const problem = dobProblem(value, new Date());
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({ description: 'Date of birth, MM/DD/YYYY.', examples: ['04/12/1988'] });

export { LeadsIdSchema };

// --- Sign-up and undoing an email change ------------------------------------------------------

export const SignupSchema = z.strictObject({
  email: AccountEmailSchema,
  first_name: requiredText(60),
  last_name: requiredText(60),
  password: NewPasswordSchema,
  dob: DobSchema,
  phoneNo: PhoneSchema,
  consent: z.literal(true, { error: messages.visitConsent }),
  /** An inbound lead or click this browser carried: recorded for attribution, grants nothing. */
  leads_id: z.string().max(64).optional(),
  clicks_id: z.union([z.string().max(64), z.number().int()]).optional(),
});
export type Signup = z.infer<typeof SignupSchema>;

/** The link sent to the old address after an email change puts the old address back. */
export const EmailRestoreSchema = z.strictObject({
  token: oneTimeLink('This link is not valid.'),
});
export const EmailRestoreResultSchema = z.object({ email: z.string() });

/** The link that proves an address (issue 26): the account's own, or the new one it moves to. */
export const EmailVerifySchema = z.strictObject({
  token: oneTimeLink('This link is not valid.'),
});
export const EmailVerifyResultSchema = z.object({
  email: z.string(),
  /** True when the link moved the account to a new address (an email change). */
  changed: z.boolean(),
});
export const EmailVerifySendResultSchema = z.object({
  sent_to: z.string(),
  email_verified: z.boolean(),
});

/** What waits for a proved address, said where it waits (decision 016). */
export const emailVerifyText = {
  partner: 'Confirm your email address to see or accept partner invitations.',
  sendAgain: 'Send the link again',
  sent: (email: string) => `We sent a new link to ${email}. It works once, within 48 hours.`,
  changePending: (email: string) =>
    `We sent a link to ${email} — your address changes when you open it.`,
  confirmed: 'Your email address is confirmed.',
  changed: (email: string) =>
    `Your email address is now ${email}. We told your old address, and logged out your other devices.`,
} as const;

// --- Account data --------------------------------------------------------------------------------

export const AddressSchema = z.object({
  address: z.string(),
  address2: z.string(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
  country: z.string(),
});
export type Address = z.infer<typeof AddressSchema>;

export const CardSummarySchema = z.object({
  brand: z.string(),
  last4: z.string(),
  exp_month: z.number().int(),
  exp_year: z.number().int(),
  expired: z.boolean(),
});
export type CardSummary = z.infer<typeof CardSummarySchema>;

export const AccountDataSchema = z.object({
  customer_id: z.number().int(),
  leads_id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  dob: z.string(),
  phoneNo: z.string(),
  phone_verified: z.boolean(),
  /** Whether `email` was proved by a link mailed to it (issue 26). */
  email_verified: z.boolean(),
  /** The new address an email change waits on: it takes effect when its link is opened. */
  pending_email: z.string().nullable(),
  smsallow: z.union([z.literal(0), z.literal(1)]),
  shipping: AddressSchema.nullable(),
  billing: AddressSchema.nullable(),
  card: CardSummarySchema.nullable(),
});
export type AccountData = z.infer<typeof AccountDataSchema>;

export const LeadsRequestSchema = z.strictObject({ leads_id: LeadsIdSchema });

/** Spec §7 "Update account": leads_id and the prospect's editable fields. */
export const AccountUpdateSchema = z.strictObject({
  leads_id: LeadsIdSchema,
  prospect: z.strictObject({
    first_name: requiredText(60),
    last_name: requiredText(60),
    email: AccountEmailSchema,
    phoneNo: PhoneSchema,
    dob: DobSchema,
  }),
  /** Needed only when the email changes: a session alone must not be able to move the account. */
  current_password: z.string().max(1024).optional(),
});
export type AccountUpdate = z.infer<typeof AccountUpdateSchema>;

const zip = z
  .string({ error: messages.fieldRequired })
  .trim()
  .min(1, messages.fieldRequired)
  .length(limits.zipLength, messages.zipInvalid)
  .regex(/^\d{5}$/, messages.zipInvalid);
const state = z
  .string({ error: messages.fieldRequired })
  .trim()
  .toUpperCase()
  .min(1, messages.fieldRequired)
  .refine(isUsState, 'Choose a US state');
const line2 = z.string().trim().max(100, 'Must be at most 100 characters').default('');

/**
 * Adds the check that each ZIP can be in its state (zip-prefixes.ts) to a finished object schema,
 * with the message on the ZIP field. Applied last, once per schema: zod refuses to `.extend()` or
 * `.omit()` a refined object, so the plain shapes below stay unrefined and each schema the product
 * parses with is built from them and then passed through here. A state or ZIP that fails its own
 * rule is left to that rule's message.
 */
export function withZipMatchingState<T extends z.ZodObject>(
  schema: T,
  pairs: readonly (readonly [state: string, zip: string])[] = [['state', 'zip']],
): T {
  return schema.superRefine((value: Record<string, unknown>, ctx) => {
    for (const [stateKey, zipKey] of pairs) {
      const state = value[stateKey];
      const zip = value[zipKey];
      if (typeof state !== 'string' || typeof zip !== 'string' || !isUsState(state)) continue;
      if (!zipMatchesState(zip, state))
        ctx.addIssue({ code: 'custom', message: zipNotInState(state), path: [zipKey] });
    }
  });
}

/** The fields of one postal address (spec §5: address2 optional, ZIP exactly 5), unrefined. */
export const AddressFieldsSchema = z.strictObject({
  address: requiredText(100),
  address2: line2,
  city: requiredText(60),
  state,
  zip,
});

/** One postal address with the rules of spec §5, its ZIP in its state. */
export const AddressInputSchema = withZipMatchingState(AddressFieldsSchema);
export type AddressInput = z.infer<typeof AddressInputSchema>;

/** A shipping address with the phone for delivery updates (both checkouts' step 1). */
export const ShippingInputSchema = withZipMatchingState(
  AddressFieldsSchema.extend({ phoneNo: PhoneSchema }),
);

const addressPayloadFields = z.strictObject({
  leads_id: LeadsIdSchema,
  address: requiredText(100),
  address2: line2,
  city: requiredText(60),
  state,
  zip,
  billing_address: requiredText(100),
  billing_address2: line2,
  billing_city: requiredText(60),
  billing_state: state,
  billing_zip: zip,
  phoneNo: PhoneSchema,
  smsallow: z.union([z.literal(0), z.literal(1)], { error: 'Choose whether we may text you' }),
});
const addressPayloadZips = [
  ['state', 'zip'],
  ['billing_state', 'billing_zip'],
] as const;

/** Spec §3 "Address payload", with the rules of §5; `smsallow` is sent as 0 or 1. */
export const AddressPayloadSchema = withZipMatchingState(addressPayloadFields, addressPayloadZips);
/** The Accounts page's address form: the payload less `leads_id`, which the page adds. */
export const AddressPayloadFormSchema = withZipMatchingState(
  addressPayloadFields.omit({ leads_id: true }),
  addressPayloadZips,
);
export type AddressPayload = z.infer<typeof AddressPayloadSchema>;

/** 'MM/YY' with a real month. Whether it is in the past is the gateway's call (it knows today). */
export const CardExpirySchema = z
  .string({ error: messages.cardExpiryInvalid })
  .trim()
  .min(1, messages.cardExpiryInvalid)
  .max(limits.cardExpiryMax, messages.cardExpiryInvalid)
  .regex(/^(0[1-9]|1[0-2])\/\d{2}$/, messages.cardExpiryInvalid);

/** The gateway's word for a card past its month, said before it is asked. */
export const cardExpiredMessage = 'Your card has expired.';

/**
 * Whether an 'MM/YY' expiry has passed on `today`: a card is good through the last day of its
 * month (as the gateway counts). False for text that is not an expiry (the format rule says so).
 */
export function cardExpiryPassed(value: string, today: Date): boolean {
  const match = /^(0[1-9]|1[0-2])\/(\d{2})$/.exec(value.trim());
  if (!match) return false;
  const month = Number(match[1]);
  const year = 2000 + Number(match[2]);
  return today.getTime() >= Date.UTC(year, month, 1);
}

/** The card number: spaces and dashes ignored, at most 16 digits (spec §5). */
export const CardNumberSchema = z
  .string({ error: messages.cardNumberRequired })
  .transform((value) => value.replace(/[\s-]/g, ''))
  .pipe(
    z
      .string()
      .min(1, messages.cardNumberRequired)
      .max(limits.cardNumberMax, messages.cardNumberMax)
      .regex(/^\d+$/, 'Card number must contain digits only'),
  );

export const CardCvvSchema = z
  .string({ error: messages.cardCvvRequired })
  .trim()
  .min(1, messages.cardCvvRequired)
  .regex(/^\d{3,4}$/, 'Card security code must be 3 or 4 digits');

export const PaymentConsentSchema = z.literal(true, { error: messages.paymentConsent });

/**
 * A card entered in Stripe's Payment Element (issue 28) reaches us as its payment method's id; a
 * card whose bank asked for 3-D Secure comes back with the SetupIntent the customer confirmed.
 * Either id in another shape means the page is not ours or not current.
 */
export const PaymentMethodIdSchema = z
  .string({ error: messages.cardEntryAgain })
  .regex(/^pm_[A-Za-z0-9_]{1,200}$/, messages.cardEntryAgain);
export const SetupIntentIdSchema = z
  .string({ error: messages.cardEntryAgain })
  .regex(/^seti_[A-Za-z0-9_]{1,200}$/, messages.cardEntryAgain);

/** Spec §3 "Card payload" with the rules of §5. */
export const CardPayloadSchema = z.strictObject({
  ccnum: CardNumberSchema,
  ccexp: CardExpirySchema,
  cccvv: CardCvvSchema,
  consent: PaymentConsentSchema,
  /** 1: the card's billing address is the shipping address on file. */
  shipping: z.union([z.literal(0), z.literal(1)]).optional(),
});
export type CardPayload = z.infer<typeof CardPayloadSchema>;

/** The card payload in Stripe mode: the payment method in place of the card's three fields. */
export const PaymentMethodPayloadSchema = z.strictObject({
  payment_method: PaymentMethodIdSchema,
  setup_intent: SetupIntentIdSchema.optional(),
  consent: PaymentConsentSchema,
  shipping: z.union([z.literal(0), z.literal(1)]).optional(),
});
export type PaymentMethodPayload = z.infer<typeof PaymentMethodPayloadSchema>;

/**
 * What became of an order whose payment had failed, charged again to the new card at once:
 * `paid`, `failed` (with the card's reason) or `pending` (another attempt was under way; Orders
 * shows how it ends).
 */
export const PaymentRetrySchema = z.object({
  order_number: z.string(),
  amount_cents: z.number().int(),
  outcome: z.enum(['paid', 'failed', 'pending']),
  /** Why the charge failed, in the card issuer's words; null unless `failed`. */
  reason: z.string().nullable(),
});
export type PaymentRetry = z.infer<typeof PaymentRetrySchema>;

export const CardUpdateResultSchema = z.object({
  card: CardSummarySchema,
  /** The unpaid orders charged to the new card as it was saved; empty when none was waiting. */
  retries: z.array(PaymentRetrySchema),
});

export const SmsAuthSchema = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('send') }),
  z.strictObject({
    action: z.literal('verify'),
    code: z
      .string({ error: 'Enter the 6-digit code' })
      .trim()
      .regex(/^\d{6}$/, 'Enter the 6-digit code'),
  }),
]);
export const SmsAuthResultSchema = z.object({
  phone_verified: z.boolean(),
  sent_to: z.string().optional(),
});

// --- What the member area shows ------------------------------------------------------------------

/** Spec §7 `/account/basics`: what the account frame needs on every page. */
export const BasicsSchema = z.object({
  customer_id: z.number().int(),
  leads_id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  cart_count: z.number().int(),
  flags: z.array(FlagSchema),
});
export type Basics = z.infer<typeof BasicsSchema>;

/**
 * Spec §3 "User data" as `/leads/patientdata` answers it (the message holds the data, spec §7):
 * `billingFlag` names the order whose payment failed, `expiredFlag` says the saved card has expired.
 */
export const PatientDataSchema = z.object({
  leadsId: z.string(),
  clicksId: z.string().nullable(),
  billingFlag: z.object({ orders_id: z.number().int(), order_number: z.string() }).nullable(),
  expiredFlag: z.boolean(),
  lander: LanderSchema,
});
export type PatientData = z.infer<typeof PatientDataSchema>;

const NoBody = z.strictObject({}).optional();

/** The account calls (spec §7 and decision 004's email change undo). */
export const accountsApi = {
  /** Sign-up: the account, its first session and this device (spec §4 Signup). */
  accountCreate: endpoint({
    path: apiPaths.accountCreate,
    access: 'public',
    body: SignupSchema,
    example: {
      email: 'avery@example.com',
      first_name: 'Avery',
      last_name: 'Jones',
      password: 'correct horse battery staple',
      dob: '04/12/1988',
      phoneNo: '(503) 555-0142',
      consent: true,
    },
    response: LoginResultSchema,
    message: 'Welcome to Pairwell',
    errors: ['WEAK_PASSWORD', 'EMAIL_TAKEN'],
  }),
  basics: endpoint({
    path: apiPaths.basics,
    access: 'customer',
    body: NoBody,
    response: BasicsSchema,
    errors: [],
  }),
  accountData: endpoint({
    path: apiPaths.accountData,
    access: 'patient',
    body: LeadsRequestSchema,
    response: AccountDataSchema,
    errors: [],
  }),
  /** Spec §7 "Fetch patient data": the data is the answer's `message`. */
  patientData: endpoint({
    path: apiPaths.patientData,
    access: 'patient',
    body: LeadsRequestSchema,
    response: PatientDataSchema,
    envelope: 'message',
    errors: [],
  }),
  accountUpdate: endpoint({
    path: apiPaths.accountUpdate,
    access: 'patient',
    body: AccountUpdateSchema,
    message: messages.accountUpdateContent,
    errors: ['EMAIL_TAKEN', 'CURRENT_PASSWORD_REQUIRED', 'WRONG_PASSWORD'],
  }),
  /** The link sent to the old address after an email change: anyone holding it may use it. */
  emailRestore: endpoint({
    path: apiPaths.emailRestore,
    access: 'public',
    body: EmailRestoreSchema,
    response: EmailRestoreResultSchema,
    message:
      'Your email address is back, and every device was logged out. Please choose a new password now.',
    errors: ['EMAIL_UNDO_INVALID', 'EMAIL_TAKEN'],
  }),
  /** The emailed link that proves an address: anyone holding it may use it, once. */
  emailVerify: endpoint({
    path: apiPaths.emailVerify,
    access: 'public',
    body: EmailVerifySchema,
    response: EmailVerifyResultSchema,
    message: emailVerifyText.confirmed,
    errors: ['EMAIL_VERIFY_INVALID', 'EMAIL_TAKEN'],
  }),
  /** "Send the link again" to the account's address; rate-limited like the other mail. */
  emailVerifySend: endpoint({
    path: apiPaths.emailVerifySend,
    access: 'customer',
    body: NoBody,
    response: EmailVerifySendResultSchema,
    errors: [],
  }),
  address: endpoint({
    path: apiPaths.address,
    access: 'patient',
    body: AddressPayloadSchema,
    example: {
      leads_id: 'Ldemo0000000000000001',
      address: '1200 NW Everett St',
      address2: 'Apt 4',
      city: 'Portland',
      state: 'OR',
      zip: '97209',
      billing_address: '1200 NW Everett St',
      billing_address2: 'Apt 4',
      billing_city: 'Portland',
      billing_state: 'OR',
      billing_zip: '97209',
      phoneNo: '(503) 555-0142',
      smsallow: 1,
    },
    message: 'Your addresses were saved.',
    errors: ['SHIPPING_STATE'],
  }),
  /** Card data goes from the form to this one call only (never a cache, log or report). */
  ccUpdate: endpoint({
    path: apiPaths.ccUpdate,
    access: 'customer',
    body: CardPayloadSchema,
    response: CardUpdateResultSchema,
    message: 'Your payment method was updated.',
    errors: ['CARD_DECLINED', 'CARD_ENTRY_CHANGED'],
  }),
  /** Stripe mode's card update: only a payment method's id, made by Stripe's own card fields. */
  paymentMethodUpdate: endpoint({
    path: apiPaths.paymentMethodUpdate,
    access: 'customer',
    body: PaymentMethodPayloadSchema,
    response: CardUpdateResultSchema,
    example: { payment_method: 'pm_1PmExample', consent: true, shipping: 1 },
    message: 'Your payment method was updated.',
    errors: ['CARD_DECLINED', 'CARD_AUTHENTICATION', 'CARD_ENTRY_CHANGED'],
  }),
  /**
   * "Confirm your payment" (issue 28): a renewal the bank refused while the customer was away, for
   * want of authentication, asked again with them at the page. CARD_AUTHENTICATION carries what
   * the browser confirms with the bank; the page then sends this again.
   */
  paymentConfirm: endpoint({
    path: apiPaths.paymentConfirm,
    access: 'customer',
    body: z.strictObject({ order_number: OrderNumberSchema }),
    response: PaymentRetrySchema,
    message: 'Your payment was confirmed.',
    errors: ['NOT_FOUND', 'CARD_DECLINED', 'CARD_AUTHENTICATION'],
  }),
  smsAuth: endpoint({
    path: apiPaths.smsAuth,
    access: 'customer',
    body: SmsAuthSchema,
    response: SmsAuthResultSchema,
    errors: ['WRONG_CODE'],
  }),
};
