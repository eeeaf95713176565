import { z } from 'zod';
import {
  AddressInputSchema,
  LeadsIdSchema,
  PaymentConsentSchema,
  PhoneSchema,
} from './accounts.ts';
import { CheckoutPaymentSchema } from './checkout.ts';
import { idSchema } from './ids.ts';
import { AnswerValueSchema, itemTypes } from './questionnaires/format.ts';

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
  /** How it is supplied, with the monthly price. */
  frequencies: (TreatmentOption & { priceCents: number })[];
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
      { code: 'as-needed-6', label: '6 doses a month, as needed', priceCents: 3000 },
      { code: 'as-needed-10', label: '10 doses a month, as needed', priceCents: 4500 },
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
      { code: 'daily-30', label: 'Daily, 30 tablets a month', priceCents: 4000 },
      { code: 'as-needed-6', label: '6 doses a month, as needed', priceCents: 4500 },
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
    frequencies: [{ code: 'nightly-30', label: 'Nightly, 30 tablets a month', priceCents: 3000 }],
  },
  {
    category: 'hair',
    drug: 'finasteride',
    label: 'Finasteride',
    description: 'A daily tablet that slows hair loss and can regrow hair at the crown.',
    dosages: [{ code: '1mg', label: '1 mg daily' }],
    frequencies: [{ code: 'daily-30', label: 'Daily, 30 tablets a month', priceCents: 2500 }],
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
    frequencies: [{ code: 'daily-30', label: 'Daily, 30 tablets a month', priceCents: 3000 }],
  },
  {
    category: 'hair',
    drug: 'minoxidil-topical',
    label: 'Topical minoxidil 5%',
    description: 'A foam applied to the scalp twice a day.',
    dosages: [{ code: '5pct', label: '5% foam' }],
    frequencies: [{ code: 'monthly-1', label: 'One can a month', priceCents: 2500 }],
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
export const StartProgramResultSchema = z.object({
  status: z.literal('SUCCESS'),
  message: z.string(),
  data: z.object({ leads_id: z.string(), destination: z.string(), visit_id: z.number().int() }),
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
export const PendingOrdersResponseSchema = z.object({
  status: z.literal('SUCCESS'),
  message: z.string(),
  data: z.array(PendingOrderSchema),
});

export const StatesAllowedResponseSchema = z.object({
  status: z.literal('SUCCESS'),
  message: z.string(),
  data: z.object({ states: z.array(z.string()) }),
});

export const VisitIdSchema = idSchema('Choose a visit');

export const EligibilitySchema = z.strictObject({
  visit_id: VisitIdSchema,
  state: z
    .string({ error: 'Choose the state you live in' })
    .trim()
    .toUpperCase()
    .length(2, 'Choose the state you live in'),
  dob: z.string({ error: 'You must enter a date of birth.' }),
});

export const EligibilityResultSchema = z.object({
  status: z.literal('SUCCESS'),
  message: z.string(),
  data: z.object({
    eligible: z.boolean(),
    /** Why not, in words for the patient. */
    reason: z.string().nullable(),
    /** A supplement that may help instead, by slug. */
    supplement_slug: z.string().nullable(),
    destination: z.string(),
  }),
});

// --- Questionnaire calls (spec §7: both families) -----------------------------------------------

const LinkIdSchema = z.string({ error: 'Choose a question' }).min(1, 'Choose a question').max(100);

export const QuestionRequestSchema = z.strictObject({
  visit_id: VisitIdSchema,
  linkId: LinkIdSchema.optional(),
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

/** Where the patient is in the questionnaire after a call. */
export const QuestionStateSchema = z.object({
  item: PatientItemSchema.nullable(),
  answer: AnswerValueSchema.nullable(),
  progress: ProgressSchema,
  /** True when every question is answered: the visit moves on to preferences. */
  done: z.boolean(),
  /** Set when an answer ends the visit: the reason, in words for the patient. */
  disqualified: z.string().nullable(),
  destination: z.string(),
});
export type QuestionState = z.infer<typeof QuestionStateSchema>;
export const QuestionStateResponseSchema = z.object({
  status: z.literal('SUCCESS'),
  message: z.string(),
  data: QuestionStateSchema,
});
export const V2QuestionStateResponseSchema = z.object({ data: QuestionStateSchema });

export const QuestionsResponseSchema = z.object({
  status: z.literal('SUCCESS'),
  message: z.string(),
  data: z.object({
    questionnaire: z.object({ id: z.string(), version: z.string(), title: z.string() }),
    items: z.array(PatientItemSchema),
    answers: z.record(z.string(), AnswerValueSchema),
    current: z.string().nullable(),
    progress: ProgressSchema,
  }),
});

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
  status: z.literal('SUCCESS'),
  message: z.string(),
  data: z.object({ preferences: VisitPreferencesSchema, destination: z.string() }),
});

export const UploadResultSchema = z.object({
  status: z.literal('SUCCESS'),
  message: z.string(),
  /** `upload_id` is the photo's opaque id (the one `/uploads/:id` takes), not a number. */
  data: z.object({ upload_id: z.string(), destination: z.string() }),
});

export const ConsentSchema = z.strictObject({
  visit_id: VisitIdSchema,
  consent: z.literal(true, { error: 'Continue your online visit by checking the box above' }),
});
export const ConsentResultSchema = z.object({
  status: z.literal('SUCCESS'),
  message: z.string(),
  data: z.object({ destination: z.string() }),
});

/** Photo IDs: checked by their bytes, at most 10 MB, metadata stripped (DESIGN §7). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

// --- Visit checkout and provider review ----------------------------------------------------------

/** The visit's checkout: the card is authorised now and charged only if a provider approves. */
export const VisitCheckoutSchema = z.strictObject({
  visit_id: VisitIdSchema,
  shipping: AddressInputSchema.extend({ phoneNo: PhoneSchema }),
  billing: AddressInputSchema.nullable(),
  payment: CheckoutPaymentSchema,
  consent: PaymentConsentSchema,
});

export const VisitCheckoutResultSchema = z.object({
  status: z.literal('SUCCESS'),
  message: z.string(),
  data: z.object({
    order_number: z.string(),
    amount_cents: z.number().int(),
    destination: z.string(),
  }),
});

export const ReviewQueueItemSchema = z.object({
  visit_id: z.number().int(),
  patient: z.string(),
  age: z.number().int(),
  state: z.string(),
  category: ProgramCategorySchema,
  submitted_at: z.string(),
  risk_flags: z.number().int(),
  treatment: z.string(),
});
export const ReviewQueueSchema = z.object({ visits: z.array(ReviewQueueItemSchema) });

export const ChartSchema = z.object({
  visit_id: z.number().int(),
  status: z.enum(visitStatuses),
  category: ProgramCategorySchema,
  patient: z.object({
    name: z.string(),
    dob: z.string(),
    age: z.number().int(),
    state: z.string(),
    customer_id: z.number().int(),
  }),
  questionnaire: z.object({ id: z.string(), version: z.string() }),
  answers: z.array(z.object({ linkId: z.string(), question: z.string(), answer: z.string() })),
  risk_flags: z.array(
    z.object({ code: z.string(), severity: z.string(), text: z.string(), linkId: z.string() }),
  ),
  preferences: VisitPreferencesSchema,
  /** Whether the patient uploaded a photo ID for this visit. */
  photo_uploaded: z.boolean(),
  /**
   * The photo's opaque id for `/uploads/:id`, only while the visit waits for review (decision 005);
   * null once it is decided, or when there is no photo.
   */
  photo_upload_key: z.string().nullable(),
  order: z
    .object({ order_number: z.string(), total_cents: z.number().int(), payment_status: z.string() })
    .nullable(),
});
export type Chart = z.infer<typeof ChartSchema>;

export const PrescriptionSchema = z.strictObject({
  drug: z.string().min(1).max(60),
  dosage: z.string().min(1).max(60),
  quantity: z.number({ error: 'Enter the quantity' }).int().min(1, 'Enter the quantity').max(360),
  refills: z.number({ error: 'Enter the refills' }).int().min(0).max(11, 'At most 11 refills'),
  valid_until: z.string({ error: 'Choose a date' }).regex(/^\d{4}-\d{2}-\d{2}$/, 'Choose a date'),
});

export const ApproveVisitSchema = z.strictObject({
  visit_id: VisitIdSchema,
  prescription: PrescriptionSchema,
});

export const DeclineVisitSchema = z.strictObject({
  visit_id: VisitIdSchema,
  reason: z
    .string({ error: 'Tell the patient why' })
    .trim()
    .min(10, 'Tell the patient why, in a sentence or two')
    .max(2000),
});

export const ReviewResultSchema = z.object({
  status: z.literal('SUCCESS'),
  message: z.string(),
  data: z.object({ chart: ChartSchema }),
});

// --- /doctor, /risk/assessment/, /survey/, /feedback/ (spec §7) ----------------------------------

export const VisitRequestSchema = z.strictObject({ visit_id: VisitIdSchema });

export const DoctorResultSchema = z.object({
  status: z.literal('SUCCESS'),
  message: z.string(),
  data: z.object({ provider: z.object({ name: z.string() }).nullable() }),
});

export const RiskAssessmentResultSchema = z.object({
  status: z.literal('SUCCESS'),
  message: z.string(),
  data: z.object({
    flags: z.array(
      z.object({ code: z.string(), severity: z.string(), text: z.string(), linkId: z.string() }),
    ),
  }),
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

export const OkSchema = z.object({ status: z.literal('SUCCESS'), message: z.string() });
