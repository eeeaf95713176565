import { z } from 'zod';
import { apiPaths } from './api.ts';
import { endpoint } from './contract.ts';
import {
  ActivePrescriptionsSchema,
  CareReplySchema,
  CareThreadRequestSchema,
  PatientMessageItemSchema,
  PatientThreadSchema,
  SentSchema,
  StaffSendMessageSchema,
  StaffThreadRequestSchema,
  ThreadSchema,
} from './messages.ts';
import { idSchema } from './ids.ts';
import { ScalpViewSchema } from './renewals.ts';
import { requestKinds, requestOutcomes, requestStatuses } from './treatment-requests.ts';
import {
  ProgramCategorySchema,
  VisitIdSchema,
  VisitPreferencesSchema,
  VisitRequestSchema,
  visitStatuses,
} from './visits.ts';

/*
 * The provider console (DESIGN §6): the queue of visits waiting in the states a provider is
 * licensed in, the chart, its risk flags and conversation, and the decision. Every view of a
 * chart is written to the staff audit log.
 */

export const ReviewQueueItemSchema = z.object({
  visit_id: z.number().int(),
  patient: z.string(),
  age: z.number().int(),
  state: z.string(),
  category: ProgramCategorySchema,
  submitted_at: z.string(),
  /** The patient asked for this review after a knock-out answer: no payment is held. */
  review_requested: z.boolean(),
  risk_flags: z.number().int(),
  treatment: z.string(),
  /** A first visit, or the renewal of a prescription (issue 29): the Renewals queue. */
  kind: z.enum(['visit', 'renewal']),
});
export type ReviewQueueItem = z.infer<typeof ReviewQueueItemSchema>;

/**
 * A fill the pharmacy rejected (issue 29): a provider's task, beside the visits, until a provider
 * writes to the patient about it in the visit's conversation.
 */
export const PharmacyRejectionTaskSchema = z.object({
  visit_id: z.number().int(),
  order_number: z.string(),
  patient: z.string(),
  state: z.string(),
  category: ProgramCategorySchema,
  /** The pharmacy's reason, as the patient was told it. */
  reason: z.string(),
  rejected_at: z.string(),
});
export type PharmacyRejectionTask = z.infer<typeof PharmacyRejectionTaskSchema>;

/**
 * A patient's request between visits (issue 29, decision 024), waiting for a provider: in the
 * queue until decided; its conversation is where the provider reads it and decides.
 */
export const RequestTaskSchema = z.object({
  request_id: z.number().int(),
  thread_id: z.number().int(),
  kind: z.enum(requestKinds),
  /** The reason the patient chose, in words. */
  reason: z.string(),
  patient: z.string(),
  state: z.string(),
  category: ProgramCategorySchema,
  medicine: z.string(),
  created_at: z.string(),
});
export type RequestTask = z.infer<typeof RequestTaskSchema>;

export const ReviewQueueSchema = z.object({
  visits: z.array(ReviewQueueItemSchema),
  pharmacy_rejections: z.array(PharmacyRejectionTaskSchema),
  requests: z.array(RequestTaskSchema),
});

/**
 * What was decided, kept on the chart after the decision (issue 29, "the chart is a clinical
 * record"): who decided and when, as the audit log wrote it with the decision; whether the photo
 * ID was opened by a provider before it; what was prescribed, or the reason the patient was given.
 */
export const ChartDecisionSchema = z.object({
  outcome: z.enum(['approved', 'declined']),
  provider: z.string(),
  decided_at: z.string(),
  /** The first time a provider opened the visit's photo ID before the decision; null: never. */
  photo_id_viewed_at: z.string().nullable(),
  prescription: z
    .object({
      drug: z.string(),
      dosage: z.string(),
      /** The medicine and strength as the patient's order names them. */
      medicine: z.string(),
      quantity: z.number().int(),
      refills: z.number().int(),
      /** Null on prescriptions written before directions were asked for. */
      directions: z.string().nullable(),
      valid_until: z.string(),
    })
    .nullable(),
  /** A decline's reason, as the patient reads it in Messages. */
  reason: z.string().nullable(),
});
export type ChartDecision = z.infer<typeof ChartDecisionSchema>;

/** A prescription as the chart lists it: what, how much, until when, written by whom and when. */
export const ChartPrescriptionSchema = z.object({
  medicine: z.string(),
  drug: z.string(),
  dosage: z.string(),
  quantity: z.number().int(),
  refills: z.number().int(),
  directions: z.string().nullable(),
  valid_until: z.string(),
  written_on: z.string(),
});
export type ChartPrescription = z.infer<typeof ChartPrescriptionSchema>;

/**
 * A renewal's chart (issue 29): the prescription it renews, each answer beside the last visit's
 * answer to the same question (`changed` when they differ; `previous` null when it was not asked
 * then), the patient's earlier prescriptions of the program, the fills of the refill plan, and a
 * Hair renewal's scalp photos.
 */
export const RenewalChartSchema = z.object({
  renews: ChartPrescriptionSchema,
  /** The visit whose answers are compared (the renewed prescription's), and when it was sent. */
  previous_visit: z.object({ visit_id: z.number().int(), submitted_at: z.string().nullable() }),
  comparison: z.array(
    z.object({
      linkId: z.string(),
      question: z.string(),
      answer: z.string(),
      previous: z.string().nullable(),
      changed: z.boolean(),
    }),
  ),
  prescriptions: z.array(ChartPrescriptionSchema),
  fills: z.array(z.object({ order_number: z.string(), placed_at: z.string(), status: z.string() })),
  /**
   * A Hair renewal's scalp photos, the current one of each view the patient added (decision 023):
   * shown while it waits for review and after the decision. Empty for another program.
   */
  scalp_photos: z.array(
    z.object({
      view: ScalpViewSchema,
      /** "Top of the head", "Hairline, from the front", "Crown, from behind". */
      label: z.string(),
      /** The photo's opaque id for `/uploads/:id`. */
      upload_key: z.string(),
    }),
  ),
});
export type RenewalChart = z.infer<typeof RenewalChartSchema>;

export const ChartSchema = z.object({
  visit_id: z.number().int(),
  /** A first visit, or the renewal of a prescription (issue 29). */
  kind: z.enum(['visit', 'renewal']),
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
  /** The patient asked for this review after a knock-out answer: no payment is held. */
  review_requested: z.boolean(),
  /**
   * The photo's opaque id for `/uploads/:id`, only while the visit waits for review (decision 005);
   * null once it is decided, or when there is no photo.
   */
  photo_upload_key: z.string().nullable(),
  order: z
    .object({ order_number: z.string(), total_cents: z.number().int(), payment_status: z.string() })
    .nullable(),
  /** Null until the visit is approved or declined. */
  decision: ChartDecisionSchema.nullable(),
  /** A renewal's comparison with the last visit; null for a first visit. */
  renewal: RenewalChartSchema.nullable(),
  /** Fills of this visit's prescription the pharmacy rejected, until a provider writes about them. */
  pharmacy_rejections: z.array(
    z.object({ order_number: z.string(), reason: z.string(), rejected_at: z.string() }),
  ),
});
export type Chart = z.infer<typeof ChartSchema>;

/** The directions (sig) the patient reads on their order: a sentence or two. */
export const MAX_DIRECTIONS = 300;

export const PrescriptionSchema = z.strictObject({
  drug: z.string().min(1).max(60),
  dosage: z.string().min(1).max(60),
  quantity: z.number({ error: 'Enter the quantity' }).int().min(1, 'Enter the quantity').max(360),
  refills: z.number({ error: 'Enter the refills' }).int().min(0).max(11, 'At most 11 refills'),
  valid_until: z.string({ error: 'Choose a date' }).regex(/^\d{4}-\d{2}-\d{2}$/, 'Choose a date'),
  directions: z
    .string({ error: 'Enter the directions for the patient' })
    .trim()
    .min(1, 'Enter the directions for the patient')
    .max(
      MAX_DIRECTIONS,
      `Keep the directions to ${MAX_DIRECTIONS} characters or fewer (a sentence or two)`,
    ),
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

export const RiskAssessmentSchema = z.object({
  flags: z.array(
    z.object({ code: z.string(), severity: z.string(), text: z.string(), linkId: z.string() }),
  ),
});

const ChartResultSchema = z.object({ chart: ChartSchema });

/**
 * A request between visits as its provider decides it, beside its conversation: what it is about
 * (the prescription and its refill plan), what the provider may decide, and once decided, how.
 */
export const ProviderRequestSchema = z.object({
  id: z.number().int(),
  kind: z.enum(requestKinds),
  reason: z.string(),
  status: z.enum(requestStatuses),
  created_at: z.string(),
  category: ProgramCategorySchema,
  /** The prescription the request is about, and the chart of the visit it belongs to. */
  prescription: ChartPrescriptionSchema,
  visit_id: z.number().int(),
  plan: z
    .object({
      status: z.string(),
      /** YYYY-MM-DD: when the next refill is billed and sent. */
      next_billing_date: z.string(),
      refills_remaining: z.number().int(),
    })
    .nullable(),
  /** What this provider may decide now (none once decided). */
  outcomes: z.array(z.enum(requestOutcomes)),
  decision: z
    .object({
      outcome: z.enum(requestOutcomes),
      provider: z.string(),
      decided_at: z.string(),
      refill_date: z.string().nullable(),
      prescription: ChartPrescriptionSchema.nullable(),
    })
    .nullable(),
});
export type ProviderRequest = z.infer<typeof ProviderRequestSchema>;

/** A provider's message to the patient with a decision: the patient reads it in Messages. */
export const DecisionMessageSchema = z
  .string({ error: 'Write to the patient' })
  .trim()
  .min(10, 'Write to the patient, in a sentence or two')
  .max(2000, 'Keep it to 2000 characters or fewer');

const RequestIdSchema = idSchema('Choose a request');

export const DecideRequestSchema = z.discriminatedUnion(
  'outcome',
  [
    z.strictObject({
      request_id: RequestIdSchema,
      outcome: z.literal('refill_date'),
      date: z.string({ error: 'Choose a date' }).regex(/^\d{4}-\d{2}-\d{2}$/, 'Choose a date'),
      message: DecisionMessageSchema,
    }),
    z.strictObject({
      request_id: RequestIdSchema,
      outcome: z.literal('new_prescription'),
      prescription: PrescriptionSchema,
      message: DecisionMessageSchema,
    }),
    z.strictObject({
      request_id: RequestIdSchema,
      outcome: z.literal('decline'),
      message: DecisionMessageSchema,
    }),
    z.strictObject({
      request_id: RequestIdSchema,
      outcome: z.literal('answer'),
      message: DecisionMessageSchema,
    }),
  ],
  { error: 'Choose a decision' },
);
export type DecideRequest = z.infer<typeof DecideRequestSchema>;

/** Errors of a call about one visit: one the provider may not open is not found. */
const visitErrors = ['NOT_FOUND'] as const;

export const reviewsApi = {
  queue: endpoint({
    path: apiPaths.staffVisits,
    access: 'provider',
    view: true,
    body: z.strictObject({}).optional(),
    response: ReviewQueueSchema,
    errors: [],
  }),
  chart: endpoint({
    path: apiPaths.staffVisit,
    access: 'provider',
    view: true,
    body: z.strictObject({ visit_id: VisitIdSchema }),
    response: ChartResultSchema,
    errors: visitErrors,
  }),
  approve: endpoint({
    path: apiPaths.staffApprove,
    access: 'provider',
    body: ApproveVisitSchema,
    response: ChartResultSchema,
    message: 'Approved; the order was charged and moves to fulfilment.',
    errors: [
      ...visitErrors,
      'VISIT_DECIDED',
      'NO_AUTHORIZATION',
      'SHIP_STATE_MISMATCH',
      'LICENCE_EXPIRED',
      'CAPTURE_FAILED',
    ],
  }),
  decline: endpoint({
    path: apiPaths.staffDecline,
    access: 'provider',
    body: DeclineVisitSchema,
    response: ChartResultSchema,
    message: 'Declined; the hold on the card was released.',
    errors: [...visitErrors, 'VISIT_DECIDED'],
  }),
  /** Spec §7 `/risk/assessment/`: for the provider (a staff session), never for patients. */
  riskAssessment: endpoint({
    path: apiPaths.riskAssessment,
    access: 'provider',
    view: true,
    body: VisitRequestSchema,
    response: RiskAssessmentSchema,
    errors: visitErrors,
    apiOnly:
      "spec §7's call, kept for clients of the API; the console's chart carries the same risk flags",
  }),
  messages: endpoint({
    path: apiPaths.staffMessages,
    access: 'provider',
    view: true,
    body: StaffThreadRequestSchema,
    /** The visit's conversation, and beside it what the patient takes now (issue 29). */
    response: z.object({
      thread: ThreadSchema.nullable(),
      prescriptions: ActivePrescriptionsSchema,
    }),
    errors: visitErrors,
  }),
  sendMessage: endpoint({
    path: apiPaths.staffMessageSend,
    access: 'provider',
    body: StaffSendMessageSchema,
    response: SentSchema,
    message: 'Sent.',
    errors: visitErrors,
  }),
  /**
   * Patients' clinical threads not about a visit: those assigned to this provider, and those open
   * to every provider licensed in the patient's state. Waiting ones first.
   */
  patientMessages: endpoint({
    path: apiPaths.staffPatientMessages,
    access: 'provider',
    view: true,
    body: z.strictObject({}).optional(),
    response: z.object({ threads: z.array(PatientMessageItemSchema) }),
    errors: [],
  }),
  /** One of them; the patient's messages are now read. Another provider's is not found. */
  patientThread: endpoint({
    path: apiPaths.staffPatientThread,
    access: 'provider',
    view: true,
    body: CareThreadRequestSchema,
    /** With the request between visits the thread was opened for, if it was (issue 29). */
    response: PatientThreadSchema.extend({ request: ProviderRequestSchema.nullable() }),
    errors: ['NOT_FOUND'],
  }),
  /**
   * Decides a request between visits, with a message to the patient in its conversation: an early
   * refill's date, a new prescription, a decline or an answer (issue 29, decision 024).
   */
  decideRequest: endpoint({
    path: apiPaths.staffRequestDecide,
    access: 'provider',
    body: DecideRequestSchema,
    response: z.object({ request: ProviderRequestSchema }),
    message: 'Decided; the patient was told in Messages.',
    errors: [
      'NOT_FOUND',
      'REQUEST_DECIDED',
      'SUBSCRIPTION_REFUSED',
      'SUBSCRIPTION_CHANGED',
      'LICENCE_EXPIRED',
    ],
    example: {
      request_id: 1,
      outcome: 'refill_date',
      date: '2026-12-03',
      message: 'Safe travels: your next refill is sent on Thursday.',
    },
  }),
  /** The provider answers; an open thread becomes theirs. */
  patientReply: endpoint({
    path: apiPaths.staffPatientReply,
    access: 'provider',
    body: CareReplySchema,
    response: SentSchema,
    message: 'Sent.',
    errors: ['NOT_FOUND'],
  }),
};
