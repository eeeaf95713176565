import { z } from 'zod';
import { apiPaths } from './api.ts';
import { endpoint } from './contract.ts';
import { addDays } from './subscriptions.ts';
import { idSchema } from './ids.ts';
import type { ProgramCategory } from './visits.ts';

/**
 * Issue 29, renewals (decision 023): a prescription running out is renewed by a short visit of its
 * own questionnaire, raised on Home and by one e-mail when it is due; an approved renewal continues
 * the same refill plan, a declined one ends it after the supply already paid for.
 */

// Not imported from visits.ts, whose imports lead back here through orders.ts (the lander).
const ProgramCategorySchema = z.enum(['ed', 'sleep', 'hair'], { error: 'Choose a program' });
const VisitIdSchema = idSchema('Choose a visit');
// The programs are visits.ts' (a check, at compile time only, that the two lists agree).
const sameProgramsBothWays: [ProgramCategory, z.infer<typeof ProgramCategorySchema>] extends [
  z.infer<typeof ProgramCategorySchema>,
  ProgramCategory,
]
  ? true
  : never = true;
void sameProgramsBothWays;

/** A prescription is due for renewal this many days before its last valid day (or at one refill left). */
export const RENEWAL_DUE_DAYS = 30;
/** After its last valid day a prescription can be renewed for this long; then a first visit again. */
export const RENEWAL_GRACE_DAYS = 90;

/** Where a prescription's renewal stands, as Home shows it. */
export const renewalStatuses = ['due', 'started', 'in_review'] as const;
export type RenewalStatus = (typeof renewalStatuses)[number];

/** A prescription running out, on Home: "Renew your prescription". */
export const RenewalSchema = z.object({
  category: ProgramCategorySchema,
  /** The program's name ("Erectile dysfunction"). */
  program: z.string(),
  /** What was prescribed, as the patient's order names it. */
  medicine: z.string(),
  status: z.enum(renewalStatuses),
  /** Fills the refill plan has left (0 when it has ended). */
  refills_remaining: z.number().int(),
  /** YYYY-MM-DD: the prescription's last valid day. */
  valid_until: z.string(),
  /** Where "Renew your prescription" (or "Continue your renewal") goes. */
  href: z.string(),
});
export type Renewal = z.infer<typeof RenewalSchema>;

/**
 * The renewal rule: a prescription is due when its refill plan has at most one fill left (none,
 * when it was written without refills or the plan has ended) or its last valid day is within
 * RENEWAL_DUE_DAYS; it can be renewed until RENEWAL_GRACE_DAYS after that day, and not once the
 * patient cancelled its refills. Only the newest prescription of a program is renewed.
 */
export function renewalDue(
  prescription: { validUntil: string; plan: { status: string; refillsRemaining: number } | null },
  today: string,
): boolean {
  if (prescription.plan?.status === 'CANCELLED') return false;
  if (addDays(prescription.validUntil, RENEWAL_GRACE_DAYS) < today) return false;
  const fillsLeft =
    prescription.plan?.status === 'COMPLETED' ? 0 : (prescription.plan?.refillsRemaining ?? 0);
  return fillsLeft <= 1 || prescription.validUntil <= addDays(today, RENEWAL_DUE_DAYS);
}

export const StartRenewalSchema = z.strictObject({ category: ProgramCategorySchema });

export const SendRenewalSchema = z.strictObject({
  visit_id: VisitIdSchema,
  confirm: z.literal(true, {
    error: 'Confirm that your answers are true and complete to send them',
  }),
});

// --- Scalp photos in the Hair renewal ------------------------------------------------------------

/**
 * The three photos a Hair renewal asks for, so the provider sees how treatment is working: each a
 * view of the scalp (an `uploads.view`), named for the provider's chart and explained to the patient.
 */
export const scalpViews = ['top', 'front', 'crown'] as const;
export type ScalpView = (typeof scalpViews)[number];
export const ScalpViewSchema = z.enum(scalpViews, { error: 'Choose which photo this is' });

export const scalpViewWords: Record<ScalpView, { label: string; howTo: string; alt: string }> = {
  top: {
    label: 'Top of the head',
    howTo: 'Part your hair and hold the phone above your head, camera facing down.',
    alt: 'Scalp photo: top of the head',
  },
  front: {
    label: 'Hairline, from the front',
    howTo: 'Push your hair back off your forehead and hold the phone at eye level.',
    alt: 'Scalp photo: hairline, from the front',
  },
  crown: {
    label: 'Crown, from behind',
    howTo: 'Ask someone to take it, or hold the phone behind your head and aim with a mirror.',
    alt: 'Scalp photo: crown, from behind',
  },
};

/** Why a Hair renewal cannot be sent yet (the send step's check, `VISIT_STEP`). */
export const scalpPhotosMissing = 'Add the three photos of your scalp to send your check-in.';

/** Multipart form data: the renewal, the view, and the photo in `fileToUpload`. */
export const ScalpPhotoFormSchema = z.strictObject({
  visit_id: z.string(),
  view: ScalpViewSchema,
  fileToUpload: z.file(),
});

export const ScalpPhotoSchema = z.object({
  view: ScalpViewSchema,
  /** The photo's opaque id (the one `/uploads/:id` takes). */
  upload_id: z.string(),
});
export type ScalpPhoto = z.infer<typeof ScalpPhotoSchema>;

export const ScalpPhotosRequestSchema = z.strictObject({ visit_id: VisitIdSchema });

export const renewalsApi = {
  /**
   * Opens the renewal of the program's prescription that is due (or resumes the one in
   * progress): its short questionnaire, with the last visit's lasting answers offered again.
   */
  startRenewal: endpoint({
    path: apiPaths.visitRenew,
    access: 'customer',
    body: StartRenewalSchema,
    response: z.object({ visit_id: z.number().int(), destination: z.string() }),
    errors: ['NOT_FOUND', 'VISIT_BUSY'],
  }),
  /** A renewal's answers go to a provider; nothing is charged (the refill plan pays its fills). */
  sendRenewal: endpoint({
    path: apiPaths.visitRenewSend,
    access: 'customer',
    body: SendRenewalSchema,
    response: z.object({ destination: z.string() }),
    message: 'Your renewal was sent to your provider.',
    errors: ['NOT_FOUND', 'VISIT_CLOSED', 'VISIT_STEP', 'STATE_NOT_COVERED'],
  }),
  /**
   * A scalp photo for the patient's Hair renewal still in progress: checked, stripped and stored as
   * a photo ID is (decision 005); a new photo of a view replaces the last one as its current photo.
   */
  uploadScalpPhoto: endpoint({
    path: apiPaths.visitRenewScalpPhoto,
    access: 'customer',
    upload: true,
    body: ScalpPhotoFormSchema,
    response: ScalpPhotoSchema,
    message: 'Your photo was added.',
    errors: [
      'NOT_FOUND',
      'VISIT_CLOSED',
      'NOT_MULTIPART',
      'TOO_LARGE',
      'BAD_UPLOAD',
      'NOT_AN_IMAGE',
      'UNSUPPORTED_IMAGE',
    ],
  }),
  /** The current scalp photo of each view the patient's Hair renewal has, for its send step. */
  scalpPhotos: endpoint({
    path: apiPaths.visitRenewScalpPhotos,
    access: 'customer',
    body: ScalpPhotosRequestSchema,
    response: z.object({ photos: z.array(ScalpPhotoSchema) }),
    errors: ['NOT_FOUND'],
  }),
};
