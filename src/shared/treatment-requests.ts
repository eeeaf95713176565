import { z } from 'zod';
import { apiPaths } from './api.ts';
import { endpoint } from './contract.ts';
import { idSchema } from './ids.ts';

/**
 * Issue 29, requests between visits (decision 024): on a prescription's refill plan the patient
 * asks for an early refill, asks to change the dose, or reports a side effect. Each is a structured
 * request (what, why, in the patient's words) with its own conversation, which a provider licensed
 * in the patient's state answers with a decision: an early refill approved with a date the plan's
 * next refill moves to, a new prescription (a dose change), a decline with a reason, or a message.
 */

export const requestKinds = ['early_refill', 'dose_change', 'side_effect'] as const;
export type RequestKind = (typeof requestKinds)[number];

/** The treatment card's buttons. */
export const requestKindActions: Record<RequestKind, string> = {
  early_refill: 'Ask for an early refill',
  dose_change: 'Ask to change my dose',
  side_effect: 'Report a side effect',
};

/** What a request is called in a list, and its conversation's subject. */
export const requestKindNames: Record<RequestKind, string> = {
  early_refill: 'Early refill request',
  dose_change: 'Dose change request',
  side_effect: 'Side effect report',
};

/** The reasons a patient chooses from, per kind; the details are in their own words. */
export const requestReasons: Record<RequestKind, readonly { value: string; label: string }[]> = {
  early_refill: [
    { value: 'travel', label: "I'm travelling when my next refill would arrive" },
    { value: 'lost', label: 'My medicine was lost or damaged' },
    { value: 'running_out', label: "I'm running out sooner than expected" },
    { value: 'other', label: 'Something else' },
  ],
  dose_change: [
    { value: 'not_working', label: "It isn't working well enough" },
    { value: 'side_effects', label: 'The side effects at this dose bother me' },
    { value: 'lower', label: "I'd like to try a lower dose" },
    { value: 'other', label: 'Something else' },
  ],
  side_effect: [
    { value: 'mild', label: 'Mild: I notice it, but it does not get in my way' },
    { value: 'moderate', label: 'Moderate: it gets in the way of my day' },
    { value: 'severe', label: 'Severe: it worries me' },
  ],
};

export function reasonLabel(kind: RequestKind, reason: string): string {
  return requestReasons[kind].find((r) => r.value === reason)?.label ?? reason;
}

/** Said beside a side effect report: the request is read in hours, an emergency cannot wait. */
export const EMERGENCY_NOTE =
  'If you have chest pain, fainting, trouble breathing, swelling of the face or throat, or an erection that lasts more than 4 hours, call 911 now. Do not wait for a reply.';

export const requestStatuses = ['OPEN', 'APPROVED', 'DECLINED', 'ANSWERED'] as const;
export type RequestStatus = (typeof requestStatuses)[number];

export const requestStatusLabels: Record<RequestStatus, string> = {
  OPEN: 'Waiting for your provider',
  APPROVED: 'Approved',
  DECLINED: 'Declined',
  ANSWERED: 'Answered',
};

/** How a provider decides: each kind allows some of these (`outcomesFor`). */
export const requestOutcomes = ['refill_date', 'new_prescription', 'decline', 'answer'] as const;
export type RequestOutcome = (typeof requestOutcomes)[number];

/**
 * What a provider may decide, per kind: an early refill is a date or a decline, a dose change a
 * new prescription or a decline, a side effect a new prescription (a change of dose or medicine)
 * or advice; any of them may be answered with a message alone.
 */
export const outcomesFor: Record<RequestKind, readonly RequestOutcome[]> = {
  early_refill: ['refill_date', 'decline', 'answer'],
  dose_change: ['new_prescription', 'decline', 'answer'],
  side_effect: ['new_prescription', 'answer'],
};

/** The longest details a patient writes (a few paragraphs). */
export const MAX_REQUEST_DETAILS = 2000;

export const CreateRequestSchema = z
  .strictObject({
    subscription_id: idSchema('Choose a refill plan'),
    kind: z.enum(requestKinds, { error: 'Choose what you are asking for' }),
    reason: z.string({ error: 'Choose a reason' }).min(1, 'Choose a reason').max(40),
    details: z
      .string({ error: 'Tell your provider a little more' })
      .trim()
      .min(1, 'Tell your provider a little more')
      .max(
        MAX_REQUEST_DETAILS,
        `Keep it to ${MAX_REQUEST_DETAILS} characters or fewer; you can add more in Messages`,
      ),
  })
  .superRefine((input, context) => {
    if (!requestReasons[input.kind].some((r) => r.value === input.reason))
      context.addIssue({ code: 'custom', path: ['reason'], message: 'Choose a reason' });
  });

/** A request as the patient sees it on the treatment card. */
export const TreatmentRequestSchema = z.object({
  id: z.number().int(),
  subscription_id: z.number().int(),
  kind: z.enum(requestKinds),
  /** The reason chosen, in words. */
  reason: z.string(),
  status: z.enum(requestStatuses),
  created_at: z.string(),
  decided_at: z.string().nullable(),
  /** What the decision did, in a sentence ("Your next refill moves to …"); null while open. */
  outcome: z.string().nullable(),
  /** The request's conversation in Messages. */
  thread_id: z.number().int(),
});
export type TreatmentRequest = z.infer<typeof TreatmentRequestSchema>;

export const treatmentRequestsApi = {
  /** The patient's requests, newest first (the treatment cards show each plan's). */
  list: endpoint({
    path: apiPaths.treatmentRequests,
    access: 'customer',
    body: z.strictObject({}).optional(),
    response: z.object({ requests: z.array(TreatmentRequestSchema) }),
    errors: [],
  }),
  /** Asks the provider, about one of the patient's refill plans; its conversation starts with it. */
  create: endpoint({
    path: apiPaths.treatmentRequestCreate,
    access: 'customer',
    body: CreateRequestSchema,
    response: z.object({ request: TreatmentRequestSchema }),
    message: 'Sent to your provider. We will e-mail you when they reply.',
    errors: ['NOT_FOUND', 'SUBSCRIPTION_REFUSED', 'REQUEST_OPEN'],
    example: {
      subscription_id: 1,
      kind: 'early_refill',
      reason: 'travel',
      details: 'I leave for three weeks on the 10th.',
    },
  }),
};
