import { z } from 'zod';
import {
  AddressInputSchema,
  LeadsIdSchema,
  LeadsRequestSchema,
  PaymentConsentSchema,
  ShippingInputSchema,
} from './accounts.ts';
import { apiPaths } from './api.ts';
import { EmailSchema } from './auth.ts';
import { CheckoutPaymentSchema } from './checkout.ts';
import { endpoint } from './contract.ts';
import { idSchema } from './ids.ts';
import { AnswerValueSchema, itemTypes } from './questionnaires/format.ts';
import { messages } from './wording.ts';

/** The telehealth programs (spec §1 Reading B): each with its illustration and its treatments. */
export const programCategories = ['ed', 'sleep', 'hair'] as const;
export type ProgramCategory = (typeof programCategories)[number];
export const ProgramCategorySchema = z.enum(programCategories, { error: 'Choose a program' });

export interface Program {
  category: ProgramCategory;
  name: string;
  headline: string;
  summary: string;
  illustration: string;
  /** The supplement offered instead when the online visit is not for someone (null: none fits). */
  supplementSlug: string | null;
}

export const programs: Record<ProgramCategory, Program> = {
  ed: {
    category: 'ed',
    name: 'ED',
    headline: 'Erectile dysfunction treatment',
    summary:
      'Generic sildenafil or tadalafil, prescribed online by a licensed provider when it is safe for you.',
    illustration: '/images/program-ed.svg',
    supplementSlug: null,
  },
  sleep: {
    category: 'sleep',
    name: 'Sleep',
    headline: 'Better sleep',
    summary:
      'A provider-guided plan for insomnia, with a low-dose prescription sleep aid when it is right for you.',
    illustration: '/images/program-sleep.svg',
    supplementSlug: 'sleep-gummies',
  },
  hair: {
    category: 'hair',
    name: 'Hair',
    headline: 'Hair loss treatment',
    summary:
      'Finasteride and minoxidil, the proven treatments for pattern hair loss, prescribed online.',
    illustration: '/images/program-hair.svg',
    supplementSlug: 'biotin-gummies',
  },
};

export interface TreatmentOption {
  code: string;
  label: string;
}

/** A prescription product a provider can approve; bought only through an approved visit. */
export interface Treatment {
  category: ProgramCategory;
  drug: string;
  label: string;
  description: string;
  dosages: TreatmentOption[];
  /** How it is supplied, with the monthly price and the quantity a month's supply is. */
  frequencies: (TreatmentOption & { priceCents: number; quantity: number })[];
}

export const treatments: Treatment[] = [
  {
    category: 'ed',
    drug: 'sildenafil',
    label: 'Sildenafil (generic Viagra®)',
    description: 'Taken about an hour before sex; works for about 4 to 6 hours.',
    dosages: [
      { code: '25mg', label: '25 mg' },
      { code: '50mg', label: '50 mg' },
      { code: '100mg', label: '100 mg' },
    ],
    frequencies: [
      { code: 'as-needed-6', label: '6 doses a month, as needed', priceCents: 3000, quantity: 6 },
      {
        code: 'as-needed-10',
        label: '10 doses a month, as needed',
        priceCents: 4500,
        quantity: 10,
      },
    ],
  },
  {
    category: 'ed',
    drug: 'tadalafil',
    label: 'Tadalafil (generic Cialis®)',
    description: 'Lasts up to 36 hours as needed, or a low dose every day.',
    dosages: [
      { code: '2.5mg', label: '2.5 mg daily' },
      { code: '5mg', label: '5 mg daily' },
      { code: '10mg', label: '10 mg as needed' },
      { code: '20mg', label: '20 mg as needed' },
    ],
    frequencies: [
      { code: 'daily-30', label: 'Daily, 30 tablets a month', priceCents: 4000, quantity: 30 },
      { code: 'as-needed-6', label: '6 doses a month, as needed', priceCents: 4500, quantity: 6 },
    ],
  },
  {
    category: 'sleep',
    drug: 'doxepin',
    label: 'Low-dose doxepin',
    description: 'A non-habit-forming prescription sleep aid taken 30 minutes before bed.',
    dosages: [
      { code: '3mg', label: '3 mg' },
      { code: '6mg', label: '6 mg' },
    ],
    frequencies: [
      { code: 'nightly-30', label: 'Nightly, 30 tablets a month', priceCents: 3000, quantity: 30 },
    ],
  },
  {
    category: 'hair',
    drug: 'finasteride',
    label: 'Finasteride',
    description: 'A daily tablet that slows hair loss and can regrow hair at the crown.',
    dosages: [{ code: '1mg', label: '1 mg daily' }],
    frequencies: [
      { code: 'daily-30', label: 'Daily, 30 tablets a month', priceCents: 2500, quantity: 30 },
    ],
  },
  {
    category: 'hair',
    drug: 'minoxidil-oral',
    label: 'Oral minoxidil',
    description: 'A low-dose daily tablet that helps regrow hair.',
    dosages: [
      { code: '1.25mg', label: '1.25 mg daily' },
      { code: '2.5mg', label: '2.5 mg daily' },
    ],
    frequencies: [
      { code: 'daily-30', label: 'Daily, 30 tablets a month', priceCents: 3000, quantity: 30 },
    ],
  },
  {
    category: 'hair',
    drug: 'minoxidil-topical',
    label: 'Topical minoxidil 5%',
    description: 'A foam applied to the scalp twice a day.',
    dosages: [{ code: '5pct', label: '5% foam' }],
    frequencies: [{ code: 'monthly-1', label: 'One can a month', priceCents: 2500, quantity: 1 }],
  },
];

export function treatmentsFor(category: ProgramCategory): Treatment[] {
  return treatments.filter((t) => t.category === category);
}

/**
 * A treatment choice in the words a patient and provider read ('Sildenafil (generic Viagra®)',
 * '50 mg', '6 doses a month, as needed'), from the codes stored; an unknown code is shown as is.
 */
export function treatmentWords(
  category: ProgramCategory,
  choice: {
    drug?: string | null | undefined;
    dosage?: string | null | undefined;
    frequency?: string | null | undefined;
  },
): { drug?: string; dosage?: string; frequency?: string } {
  const treatment = treatmentsFor(category).find((t) => t.drug === choice.drug);
  const words: { drug?: string; dosage?: string; frequency?: string } = {};
  if (choice.drug) words.drug = treatment?.label ?? choice.drug;
  if (choice.dosage)
    words.dosage = treatment?.dosages.find((d) => d.code === choice.dosage)?.label ?? choice.dosage;
  if (choice.frequency)
    words.frequency =
      treatment?.frequencies.find((f) => f.code === choice.frequency)?.label ?? choice.frequency;
  return words;
}

/** A prescribed medicine and strength as orders and charts name it ('Sildenafil (generic Viagra®) 50 mg'). */
export function medicineName(category: ProgramCategory, drug: string, dosage: string): string {
  const words = treatmentWords(category, { drug, dosage });
  return `${words.drug ?? drug} ${words.dosage ?? dosage}`;
}

/**
 * The quantity a provider prescribes by default: a month's supply of the patient's chosen
 * frequency ('6 doses a month' is 6); null when they chose none the program offers.
 */
export function preferredQuantity(
  category: ProgramCategory,
  choice: { drug?: string | null | undefined; frequency?: string | null | undefined },
): number | null {
  const treatment = treatmentsFor(category).find((t) => t.drug === choice.drug);
  return treatment?.frequencies.find((f) => f.code === choice.frequency)?.quantity ?? null;
}

/** A program preference (hair form, sleep goal) in the words the patient chose it by. */
export const preferenceWords: Record<string, string> = {
  oral: 'Tablets',
  topical: 'Foam on the scalp',
  'no-preference': 'No preference: the provider can choose',
  'fall-asleep': 'Falling asleep',
  'stay-asleep': 'Staying asleep',
  both: 'Both falling and staying asleep',
};

// --- Visits --------------------------------------------------------------------------------------

export const visitSteps = [
  'eligibility',
  'questions',
  'preferences',
  'photo',
  'consent',
  'checkout',
] as const;
export type VisitStep = (typeof visitSteps)[number];

export const visitStatuses = [
  'IN_PROGRESS',
  'INELIGIBLE',
  'DISQUALIFIED',
  'PENDING_REVIEW',
  'APPROVED',
  'DECLINED',
  'CANCELLED',
] as const;
export type VisitStatus = (typeof visitStatuses)[number];

/** Spec §7 "Finish pending order": leads_id and new_category; answers leads_id and destination. */
export const StartProgramSchema = z.strictObject({
  leads_id: LeadsIdSchema,
  new_category: ProgramCategorySchema,
});
export const StartedProgramSchema = z.object({
  leads_id: z.string(),
  destination: z.string(),
  visit_id: z.number().int(),
});

/** Spec §3 "Pending order": product and product_category (an online visit not yet finished). */
export const PendingOrderSchema = z.object({
  product: z.string(),
  product_category: ProgramCategorySchema,
  visit_id: z.number().int(),
  started_at: z.string(),
  step: z.enum(visitSteps),
});
export type PendingOrder = z.infer<typeof PendingOrderSchema>;

export const VisitIdSchema = idSchema('Choose a visit');

/** Where the patient lives and their date of birth ('MM/DD/YYYY'): what eligibility is decided on. */
const eligibilityFields = {
  state: z
    .string({ error: 'Choose the state you live in' })
    .trim()
    .toUpperCase()
    .length(2, 'Choose the state you live in'),
  dob: z.string({ error: messages.dobRequired }).max(40, messages.dobFormat),
};

export const EligibilitySchema = z.strictObject({ visit_id: VisitIdSchema, ...eligibilityFields });

/** A visitor's check, before any account or visit: the program, the state, the date of birth. */
export const EligibilityCheckSchema = z.strictObject({
  category: ProgramCategorySchema,
  ...eligibilityFields,
});

/** The verdict alone: nothing is stored, so there is nowhere to go yet. */
export const EligibilityCheckResultSchema = z.object({
  eligible: z.boolean(),
  reason: z.string().nullable(),
  supplement_slug: z.string().nullable(),
  /** Not eligible because online visits do not reach the state yet: its waitlist is offered. */
  state_closed: z.boolean(),
});

/** "Tell me when {State} opens" from a visitor, before any account: the state and an address. */
export const VisitorWaitlistSchema = z.strictObject({
  state: eligibilityFields.state,
  email: EmailSchema,
});

export const EligibilityResultSchema = z.object({
  eligible: z.boolean(),
  /** Why not, in words for the patient. */
  reason: z.string().nullable(),
  /** A supplement that may help instead, by slug. */
  supplement_slug: z.string().nullable(),
  destination: z.string(),
});

// --- Questionnaire calls (spec §7: both families) -----------------------------------------------

const LinkIdSchema = z.string({ error: 'Choose a question' }).min(1, 'Choose a question').max(100);

export const QuestionRequestSchema = z.strictObject({
  visit_id: VisitIdSchema,
  linkId: LinkIdSchema.optional(),
});
/** Going back needs the question the patient is on. */
export const PreviousQuestionSchema = z.strictObject({
  visit_id: VisitIdSchema,
  linkId: LinkIdSchema,
});
export const SaveQuestionSchema = z.strictObject({
  visit_id: VisitIdSchema,
  linkId: LinkIdSchema,
  value: AnswerValueSchema,
});

/** An item as the patient sees it: no disqualification rules or provider flags. */
export const PatientItemSchema = z.object({
  linkId: z.string(),
  type: z.enum(itemTypes),
  text: z.string(),
  helpText: z.string().optional(),
  required: z.boolean(),
  options: z
    .array(z.object({ code: z.string(), display: z.string(), exclusive: z.boolean().optional() }))
    .optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  unit: z.string().optional(),
  maxLength: z.number().optional(),
});
export type PatientItem = z.infer<typeof PatientItemSchema>;

export const ProgressSchema = z.object({ index: z.number().int(), total: z.number().int() });

/** An answer that would end the visit, awaiting the patient's confirmation. */
export const KnockoutSchema = z.object({
  linkId: z.string(),
  question: z.string(),
  answer: z.string(),
  reason: z.string(),
});
export type Knockout = z.infer<typeof KnockoutSchema>;

/** Where the patient is in the questionnaire after a call. */
export const QuestionStateSchema = z.object({
  item: PatientItemSchema.nullable(),
  answer: AnswerValueSchema.nullable(),
  progress: ProgressSchema,
  /**
   * True when every question is answered: the visit moves on to preferences, by the review of the
   * answers (`destination`).
   */
  done: z.boolean(),
  /** Set when an answer ends the visit: the reason, in words for the patient. */
  disqualified: z.string().nullable(),
  /**
   * Set when an answer given would end the visit but the patient has not confirmed it yet: the
   * question, the answer in their words, and the reason. The visit stays open until they do.
   */
  knockout: KnockoutSchema.nullable(),
  destination: z.string(),
});
export type QuestionState = z.infer<typeof QuestionStateSchema>;

/** One question the patient was shown, with their answer in their words, on the review screen. */
export const ReviewedAnswerSchema = z.object({
  linkId: z.string(),
  question: z.string(),
  /** 'Yes', the option chosen, '3 hours'; 'Not answered' for an optional question skipped. */
  answer: z.string(),
});
export type ReviewedAnswer = z.infer<typeof ReviewedAnswerSchema>;

/** "Review your answers": every question shown, in order, and where "Continue" goes. */
export const AnswersReviewSchema = z.object({
  answers: z.array(ReviewedAnswerSchema),
  destination: z.string(),
});
export type AnswersReview = z.infer<typeof AnswersReviewSchema>;

/** The questionnaire as answered so far, and where the patient is. */
export const QuestionsSchema = z.object({
  questionnaire: z.object({ id: z.string(), version: z.string(), title: z.string() }),
  items: z.array(PatientItemSchema),
  answers: z.record(z.string(), AnswerValueSchema),
  current: z.string().nullable(),
  progress: ProgressSchema,
});

// --- Closed visits: why, and what the patient can do instead (issue 13) ----------------------------

/**
 * How a visit that cannot go on stands: `ineligible` (state or age), `not-a-fit` (a knock-out
 * answer the patient confirmed), `review-requested` (they asked a provider to read their answers).
 */
export const closedVisitKinds = ['ineligible', 'not-a-fit', 'review-requested'] as const;
export type ClosedVisitKind = (typeof closedVisitKinds)[number];

export const ClosedVisitSchema = z.object({
  visit_id: z.number().int(),
  category: ProgramCategorySchema,
  kind: z.enum(closedVisitKinds),
  /** The stored reason, in words for the patient. */
  reason: z.string(),
  closed_at: z.string(),
  /** The state the patient gave, and its name. */
  state: z.string().nullable(),
  state_name: z.string().nullable(),
  /** Ineligible for the state, and the state still not covered: the waitlist is offered. */
  state_closed: z.boolean(),
  /** Ineligible for the state, which has been covered since: the patient may start again. */
  state_open: z.boolean(),
  /** On the waitlist for the state (and not told yet). */
  waitlisted: z.boolean(),
  /** Not a fit, and no provider asked yet: "Ask a provider to review" is offered. */
  review_available: z.boolean(),
  /** A supplement that may help instead, by slug. */
  supplement_slug: z.string().nullable(),
});
export type ClosedVisit = z.infer<typeof ClosedVisitSchema>;

export const WaitlistResultSchema = z.object({ state: z.string(), state_name: z.string() });

// --- Treatment preferences, photo ID, consent ----------------------------------------------------

export const DrugPreferenceSchema = z.strictObject({
  visit_id: VisitIdSchema,
  drug: z.string({ error: 'Choose a treatment' }).min(1, 'Choose a treatment').max(60),
});
export const DosagePreferenceSchema = z.strictObject({
  visit_id: VisitIdSchema,
  dosage: z.string({ error: 'Choose a dose' }).min(1, 'Choose a dose').max(60),
});
export const FrequencyPreferenceSchema = z.strictObject({
  visit_id: VisitIdSchema,
  frequency: z.string({ error: 'Choose how often' }).min(1, 'Choose how often').max(60),
});
export const HairPreferencesSchema = z.strictObject({
  visit_id: VisitIdSchema,
  form: z.enum(['oral', 'topical', 'no-preference'], {
    error: 'Choose tablets, foam, or no preference',
  }),
  notes: z.string().trim().max(1000).optional(),
});
export const SleepPreferencesSchema = z.strictObject({
  visit_id: VisitIdSchema,
  goal: z.enum(['fall-asleep', 'stay-asleep', 'both'], { error: 'Choose what you want help with' }),
  notes: z.string().trim().max(1000).optional(),
});

export const VisitPreferencesSchema = z.object({
  drug: z.string().nullable(),
  dosage: z.string().nullable(),
  frequency: z.string().nullable(),
  hair: z.object({ form: z.string(), notes: z.string().optional() }).nullable(),
  sleep: z.object({ goal: z.string(), notes: z.string().optional() }).nullable(),
});
export type VisitPreferences = z.infer<typeof VisitPreferencesSchema>;

export const PreferencesResultSchema = z.object({
  preferences: VisitPreferencesSchema,
  destination: z.string(),
});

/**
 * Spec §7 `/upload_image/`: form data, the visit in `visit_id` and the photo in `fileToUpload`.
 * The server reads the parts itself (a photo is checked by its bytes, not its declared type).
 */
export const PhotoIdFormSchema = z.strictObject({
  visit_id: z.string(),
  fileToUpload: z.file(),
});

export const UploadResultSchema = z.object({
  /** The photo's opaque id (the one `/uploads/:id` takes), not a number. */
  upload_id: z.string(),
  destination: z.string(),
});

/** `/uploads/:id`: any text; an id of the wrong shape is answered like one that names nothing. */
export const PhotoIdParamsSchema = z.object({ id: z.string().max(100) });

/** The media types a photo ID is accepted, stored and served as. */
export const photoIdMediaTypes = ['image/jpeg', 'image/png', 'image/webp'] as const;

export const ConsentSchema = z.strictObject({
  visit_id: VisitIdSchema,
  consent: z.literal(true, { error: 'Continue your online visit by checking the box above' }),
});
export const DestinationSchema = z.object({ destination: z.string() });

/** Photo IDs: checked by their bytes, at most 10 MB, metadata stripped (DESIGN §7). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

// --- Visit checkout and provider review ----------------------------------------------------------

/** The visit's checkout: the card is authorised now and charged only if a provider approves. */
export const VisitCheckoutSchema = z.strictObject({
  visit_id: VisitIdSchema,
  shipping: ShippingInputSchema,
  billing: AddressInputSchema.nullable(),
  payment: CheckoutPaymentSchema,
  consent: PaymentConsentSchema,
});

export const VisitCheckoutResultSchema = z.object({
  order_number: z.string(),
  amount_cents: z.number().int(),
  destination: z.string(),
});

/**
 * What the visit's checkout asks the patient to pay, shown beside the card and in the consent: the
 * treatment chosen, in words, and the amounts the server holds now and charges for each monthly
 * refill (the same price: decision 008). Computed by the server from the price it authorises.
 */
export const VisitCheckoutSummarySchema = z.object({
  /** 'Sildenafil (generic Viagra®)'. */
  treatment: z.string(),
  /** '50 mg'. */
  dose: z.string(),
  /** What each monthly fill holds: '6 doses a month, as needed'. */
  supply: z.string(),
  /** Held on the card at checkout; charged only if a provider approves. */
  authorized_cents: z.number().int(),
  /** Charged for each monthly refill the provider prescribes, until they run out or are cancelled. */
  refill_cents: z.number().int(),
});
export type VisitCheckoutSummary = z.infer<typeof VisitCheckoutSummarySchema>;

// --- /doctor, /risk/assessment/, /survey/, /feedback/ (spec §7) ----------------------------------

export const VisitRequestSchema = z.strictObject({ visit_id: VisitIdSchema });

export const DoctorResultSchema = z.object({
  provider: z.object({ name: z.string() }).nullable(),
});

/** After a visit: how it went (1 to 5) and what could be better. */
export const SurveySchema = z.strictObject({
  visit_id: VisitIdSchema,
  rating: z
    .number({ error: 'Choose a rating' })
    .int()
    .min(1, 'Choose a rating')
    .max(5, 'Choose a rating'),
  would_recommend: z.boolean({ error: 'Choose yes or no' }),
  comments: z.string().trim().max(2000).optional(),
});

export const FeedbackSchema = z.strictObject({
  message: z
    .string({ error: 'Tell us what you think' })
    .trim()
    .min(1, 'Tell us what you think')
    .max(2000, 'Please keep it under 2,000 characters'),
  rating: z.number().int().min(1).max(5).optional(),
});

// --- The patient's calls (spec §7 telehealth and questionnaire calls) ----------------------------

/** What a call about one of the patient's visits can meet: another's visit, a closed one, a step not reached. */
const visitErrors = ['NOT_FOUND', 'VISIT_CLOSED', 'VISIT_STEP'] as const;

/** The questionnaire calls come in two families (spec §7): v1 in the envelope, v2 as `{ data }`. */
const nextQuestion = {
  access: 'customer',
  body: QuestionRequestSchema,
  response: QuestionStateSchema,
  errors: visitErrors,
} as const;
const previousQuestion = { ...nextQuestion, body: PreviousQuestionSchema } as const;
const saveQuestion = { ...nextQuestion, body: SaveQuestionSchema } as const;

const preference = {
  access: 'customer',
  response: PreferencesResultSchema,
  errors: visitErrors,
} as const;

/** The patient's side of an online visit, from starting a program to the survey afterwards. */
export const visitsApi = {
  /** Spec §7 "Finish pending order": opens the program's visit, or resumes the one in progress. */
  startProgram: endpoint({
    path: apiPaths.startProgram,
    access: 'patient',
    body: StartProgramSchema,
    response: StartedProgramSchema,
    errors: ['VISIT_BUSY'],
  }),
  pendingOrders: endpoint({
    path: apiPaths.pendingOrders,
    access: 'patient',
    body: LeadsRequestSchema,
    response: z.array(PendingOrderSchema),
    errors: [],
  }),
  /**
   * Which states the service covers: offered (configurable, STATES_ALLOWED) and with at least one
   * active provider licensed there, so a patient is never offered a state their visit is refused in.
   */
  statesAllowed: endpoint({
    path: apiPaths.statesAllowed,
    access: 'public',
    body: z.strictObject({}).optional(),
    response: z.object({ states: z.array(z.string()) }),
    errors: [],
    apiOnly:
      "spec §7's call, kept for clients of the API; the visit's eligibility step checks the state itself (STATE_NOT_COVERED)",
  }),
  /**
   * A visitor's first screen of a visit: whether the program is open to someone in that state and
   * of that age, by the same rules as `eligibility`, before an account exists. Stores nothing.
   */
  checkEligibility: endpoint({
    path: apiPaths.visitEligibilityCheck,
    access: 'public',
    body: EligibilityCheckSchema,
    response: EligibilityCheckResultSchema,
    errors: [],
  }),
  eligibility: endpoint({
    path: apiPaths.visitEligibility,
    access: 'customer',
    body: EligibilitySchema,
    response: EligibilityResultSchema,
    errors: ['NOT_FOUND', 'VISIT_CLOSED', 'VISIT_STEP'],
  }),

  /** A closed visit: why it closed, and the alternative (supplement, waitlist, a provider's review). */
  closedVisit: endpoint({
    path: apiPaths.visitClosed,
    access: 'customer',
    body: VisitRequestSchema,
    response: ClosedVisitSchema,
    errors: ['NOT_FOUND', 'VISIT_STEP'],
  }),
  /** The closed visits Home tells the patient about: the latest of each program, if it closed. */
  closedVisits: endpoint({
    path: apiPaths.visitsClosed,
    access: 'customer',
    body: z.strictObject({}).optional(),
    response: z.array(ClosedVisitSchema),
    errors: [],
  }),
  /** "Tell me when {State} opens": the visit's state, for the session's patient, once. */
  joinWaitlist: endpoint({
    path: apiPaths.visitWaitlist,
    access: 'customer',
    body: VisitRequestSchema,
    response: WaitlistResultSchema,
    message: "We'll email you when online visits open in your state.",
    errors: ['NOT_FOUND', 'VISIT_STEP'],
  }),
  /**
   * "Tell me when {State} opens" for a visitor, before any account (issue 29): one e-mail to the
   * address when online visits open in the state. The same answer whether or not the address has
   * an account.
   */
  joinVisitorWaitlist: endpoint({
    path: apiPaths.visitVisitorWaitlist,
    access: 'public',
    body: VisitorWaitlistSchema,
    response: WaitlistResultSchema,
    message: "We'll email you once when online visits open in your state.",
    errors: ['VISIT_STEP'],
  }),
  /** After a confirmed knock-out: the answers as given go to a provider; nothing is charged. */
  requestReview: endpoint({
    path: apiPaths.visitRequestReview,
    access: 'customer',
    body: VisitRequestSchema,
    response: DestinationSchema,
    message: 'Your answers were sent to a provider.',
    errors: ['NOT_FOUND', 'VISIT_STEP', 'STATE_NOT_COVERED'],
  }),

  questions: endpoint({
    path: apiPaths.questionsGet,
    access: 'customer',
    body: QuestionRequestSchema,
    response: QuestionsSchema,
    errors: visitErrors,
    apiOnly:
      "spec §7's v1 question calls, for clients of the v1 API; the visit pages use the v2 question calls",
  }),
  saveQuestion: endpoint({
    path: apiPaths.questionSave,
    ...saveQuestion,
    apiOnly:
      "spec §7's v1 question calls, for clients of the v1 API; the visit pages use the v2 question calls",
  }),
  nextQuestion: endpoint({
    path: apiPaths.questionNext,
    ...nextQuestion,
    apiOnly:
      "spec §7's v1 question calls, for clients of the v1 API; the visit pages use the v2 question calls",
  }),
  previousQuestion: endpoint({
    path: apiPaths.questionPrevious,
    ...previousQuestion,
    apiOnly:
      "spec §7's v1 question calls, for clients of the v1 API; the visit pages use the v2 question calls",
  }),
  v2SubmitQuestion: endpoint({ path: apiPaths.v2QuestionSubmit, ...saveQuestion }),
  v2NextQuestion: endpoint({ path: apiPaths.v2QuestionNext, ...nextQuestion }),
  v2PreviousQuestion: endpoint({ path: apiPaths.v2QuestionPrevious, ...previousQuestion }),
  /** "Yes, that's right": the answer that ends the visit stands, and the visit closes. */
  confirmKnockout: endpoint({
    path: apiPaths.questionConfirmKnockout,
    ...nextQuestion,
    body: VisitRequestSchema,
  }),

  /**
   * "Review your answers": the questions the patient was shown (visible ones, in order) with their
   * answers in words, once every question is answered and no knock-out awaits confirmation.
   */
  reviewAnswers: endpoint({
    path: apiPaths.questionAnswers,
    access: 'customer',
    body: VisitRequestSchema,
    response: AnswersReviewSchema,
    errors: visitErrors,
  }),
  /**
   * "Change" on the review: the question is shown again with its answer; once it is answered, the
   * questions it newly shows are asked and the patient is back at the review.
   */
  changeAnswer: endpoint({ path: apiPaths.questionChange, ...previousQuestion }),

  drug: endpoint({ path: apiPaths.productDrug, body: DrugPreferenceSchema, ...preference }),
  dosage: endpoint({ path: apiPaths.productDosage, body: DosagePreferenceSchema, ...preference }),
  frequency: endpoint({
    path: apiPaths.productFrequency,
    body: FrequencyPreferenceSchema,
    ...preference,
  }),
  hairPreferences: endpoint({
    path: apiPaths.hairPreferences,
    body: HairPreferencesSchema,
    ...preference,
  }),
  sleepPreferences: endpoint({
    path: apiPaths.sleepPreferences,
    body: SleepPreferencesSchema,
    ...preference,
  }),

  uploadImage: endpoint({
    path: apiPaths.uploadImage,
    access: 'customer',
    upload: true,
    body: PhotoIdFormSchema,
    response: UploadResultSchema,
    message: 'Your photo ID was uploaded.',
    errors: [
      ...visitErrors,
      'NOT_MULTIPART',
      'TOO_LARGE',
      'BAD_UPLOAD',
      'NOT_AN_IMAGE',
      'UNSUPPORTED_IMAGE',
    ],
  }),
  /**
   * A photo ID by its opaque id: to the patient who uploaded it, or to a provider reviewing that
   * patient's visit (decision 005); the same 404 to anyone else as for an id that names nothing.
   * A Hair renewal's scalp photo too, to its patient and, the current one of its view, to a
   * licensed provider while the renewal waits for review and after it is decided (decision 023).
   */
  photoId: endpoint({
    method: 'GET',
    path: apiPaths.visitUpload,
    access: 'public',
    params: PhotoIdParamsSchema,
    file: photoIdMediaTypes,
    errors: ['NOT_FOUND'],
    apiOnly:
      "spec §7's photo ID by its opaque id, kept for clients of the API; the provider's chart shows the image through the upload's own URL",
  }),
  consent: endpoint({
    path: apiPaths.visitConsent,
    access: 'customer',
    body: ConsentSchema,
    response: DestinationSchema,
    errors: visitErrors,
  }),
  checkout: endpoint({
    path: apiPaths.visitCheckout,
    access: 'customer',
    body: VisitCheckoutSchema,
    response: VisitCheckoutResultSchema,
    message: 'Your visit was sent to a provider.',
    errors: [
      ...visitErrors,
      'SHIPPING_STATE',
      'STATE_NOT_COVERED',
      'NO_CARD',
      'CARD_DECLINED',
      'CARD_AUTHENTICATION',
      'CARD_ENTRY_CHANGED',
      'VISIT_BUSY',
    ],
  }),
  /** The amount and renewal terms the checkout shows beside the card and in its consent. */
  checkoutSummary: endpoint({
    path: apiPaths.visitCheckoutSummary,
    access: 'customer',
    body: VisitRequestSchema,
    response: z.object({ summary: VisitCheckoutSummarySchema }),
    errors: visitErrors,
  }),

  doctor: endpoint({
    path: apiPaths.doctor,
    access: 'customer',
    body: VisitRequestSchema,
    response: DoctorResultSchema,
    errors: ['NOT_FOUND'],
    apiOnly:
      "spec §7's call, kept for clients of the API; no screen of ours asks which provider a visit has",
  }),
  survey: endpoint({
    path: apiPaths.survey,
    access: 'customer',
    body: SurveySchema,
    message: 'Thank you for telling us.',
    errors: ['NOT_FOUND', 'VISIT_STEP'],
    apiOnly: "spec §7's call, kept for clients of the API; no screen of ours asks for the survey",
  }),
  feedback: endpoint({
    path: apiPaths.feedback,
    access: 'customer',
    body: FeedbackSchema,
    message: 'Thank you for your feedback.',
    errors: [],
    apiOnly: "spec §7's call, kept for clients of the API; no screen of ours asks for feedback",
  }),
};
