// After the questions: treatment preferences, the photo ID, consent to telehealth.
import type { AppContext } from '#server/context.ts';
import type { ActiveSession } from '#server/features/auth/auth.service.ts';
import { storeUpload } from './visits.photo-id.ts';
import { AppError } from '#server/lib/errors.ts';
import { treatmentsFor, type ProgramCategory, type VisitPreferences } from '#shared/visits.ts';
import { paths } from '#shared/paths.ts';
import { ownVisit, requireIntake, requireOpen } from './visits.program.ts';
import * as q from './visits.queries.ts';

const afterQuestions: readonly string[] = ['preferences', 'photo', 'consent', 'checkout'];

function requireQuestionsDone(visit: q.VisitRow): void {
  requireOpen(visit);
  requireIntake(visit);
  if (!afterQuestions.includes(visit.step))
    throw new AppError('VISIT_STEP', 'Please answer the health questions first.');
}

export function toPreferences(stored: Record<string, unknown>): VisitPreferences {
  return {
    drug: typeof stored.drug === 'string' ? stored.drug : null,
    dosage: typeof stored.dosage === 'string' ? stored.dosage : null,
    frequency: typeof stored.frequency === 'string' ? stored.frequency : null,
    hair: (stored.hair as VisitPreferences['hair']) ?? null,
    sleep: (stored.sleep as VisitPreferences['sleep']) ?? null,
  };
}

function preferencesComplete(category: ProgramCategory, p: VisitPreferences): boolean {
  const base = p.drug !== null && p.dosage !== null && p.frequency !== null;
  if (category === 'hair') return base && p.hair !== null;
  if (category === 'sleep') return base && p.sleep !== null;
  return base;
}

export type PreferenceChange =
  | { kind: 'drug'; drug: string }
  | { kind: 'dosage'; dosage: string }
  | { kind: 'frequency'; frequency: string }
  | { kind: 'hair'; form: string; notes?: string | undefined }
  | { kind: 'sleep'; goal: string; notes?: string | undefined };

/**
 * Spec §7 `/product/drug/`, `/product/dosage/`, `/product/frequency/`, `/product/hair-preferences/`,
 * `/product/sleep-preferences/`: the patient's treatment preferences, each checked against the
 * program's treatments. Once all are chosen the visit moves on to the photo ID.
 */
export async function savePreference(
  ctx: AppContext,
  session: ActiveSession,
  visitId: number,
  change: PreferenceChange,
): Promise<{ preferences: VisitPreferences; destination: string }> {
  const visit = await ownVisit(ctx, session, visitId);
  requireQuestionsDone(visit);
  const stored = await q.selectPreferences(ctx.db, visit.id);
  const current = toPreferences(stored);
  const options = treatmentsFor(visit.category);
  const refuse = (field: string, message: string) =>
    new AppError('VALIDATION', message, { [field]: message });
  const next: Record<string, unknown> = { ...stored };
  switch (change.kind) {
    case 'drug': {
      if (!options.some((t) => t.drug === change.drug))
        throw refuse('drug', 'Choose one of the treatments offered.');
      // A new treatment: its dose and frequency are chosen again.
      if (change.drug !== current.drug)
        Object.assign(next, { drug: change.drug, dosage: null, frequency: null });
      break;
    }
    case 'dosage': {
      const treatment = options.find((t) => t.drug === current.drug);
      if (!treatment) throw refuse('dosage', 'Choose a treatment first.');
      if (!treatment.dosages.some((d) => d.code === change.dosage))
        throw refuse('dosage', 'Choose one of the doses offered.');
      next.dosage = change.dosage;
      break;
    }
    case 'frequency': {
      const treatment = options.find((t) => t.drug === current.drug);
      if (!treatment) throw refuse('frequency', 'Choose a treatment first.');
      if (!treatment.frequencies.some((f) => f.code === change.frequency))
        throw refuse('frequency', 'Choose one of the options offered.');
      next.frequency = change.frequency;
      break;
    }
    case 'hair':
      if (visit.category !== 'hair')
        throw refuse('form', 'These preferences are for the hair program.');
      next.hair = { form: change.form, ...(change.notes ? { notes: change.notes } : {}) };
      break;
    case 'sleep':
      if (visit.category !== 'sleep')
        throw refuse('goal', 'These preferences are for the sleep program.');
      next.sleep = { goal: change.goal, ...(change.notes ? { notes: change.notes } : {}) };
      break;
  }
  const preferences = toPreferences(next);
  const complete = preferencesComplete(visit.category, preferences);
  const step = complete ? (visit.step === 'preferences' ? 'photo' : visit.step) : 'preferences';
  await q.savePreferences(ctx.db, visit.id, next, step, ctx.clock.now().toISOString());
  return { preferences, destination: paths.visitScreen(visit.category, step) };
}

/** The photo ID, stored by the uploads feature; the visit moves on to consent. */
export async function attachPhotoId(
  ctx: AppContext,
  session: ActiveSession,
  visitId: number,
  bytes: Buffer,
): Promise<{ uploadId: string; destination: string }> {
  const visit = await ownVisit(ctx, session, visitId);
  requireQuestionsDone(visit);
  if (visit.step === 'preferences')
    throw new AppError('VISIT_STEP', 'Please choose your treatment first.');
  const upload = await storeUpload(
    ctx,
    { customerId: session.customerId, visitId: visit.id },
    { kind: 'photo_id' },
    bytes,
  );
  await q.attachPhoto(ctx.db, visit.id, upload.id, ctx.clock.now().toISOString());
  // The answer names the upload by its opaque id only (decision 005).
  return { uploadId: upload.publicId, destination: paths.visitScreen(visit.category, 'consent') };
}

/** Consent to telehealth (linking /consent-to-telehealth); the visit moves on to checkout. */
export async function giveConsent(
  ctx: AppContext,
  session: ActiveSession,
  visitId: number,
): Promise<{ destination: string }> {
  const visit = await ownVisit(ctx, session, visitId);
  requireQuestionsDone(visit);
  if ((await q.selectVisitPhoto(ctx.db, visit.id)) === null)
    throw new AppError('VISIT_STEP', 'Please upload a photo of your ID first.');
  await q.recordConsent(ctx.db, visit.id, ctx.clock.now().toISOString());
  return { destination: paths.visitScreen(visit.category, 'checkout') };
}
