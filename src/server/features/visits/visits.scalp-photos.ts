// Scalp photos in the Hair renewal (issue 29, decision 023): three views of the scalp the patient
// adds on the renewal's send step, so the provider sees how treatment is working. Stored exactly as
// a photo ID is (visits.photo-id.ts: checked by their bytes, metadata stripped, an opaque id); a new
// photo of a view replaces the last one as its current photo. The renewals feature calls these.
import type { AppContext } from '#server/context.ts';
import type { ActiveSession } from '#server/features/auth/auth.service.ts';
import { AppError, notFound } from '#server/lib/errors.ts';
import {
  scalpPhotosMissing,
  scalpViewWords,
  scalpViews,
  type ScalpPhoto,
  type ScalpView,
} from '#shared/renewals.ts';
import type { RenewalChart } from '#shared/reviews.ts';
import { scalpPhotosShownIn, storeUpload } from './visits.photo-id.ts';
import * as uploads from './visits.photo-id.queries.ts';
import { ownVisit } from './visits.program.ts';
import type { VisitRow } from './visits.queries.ts';

/** The caller's own Hair renewal; any other visit is not found, as another patient's is. */
async function ownHairRenewal(
  ctx: AppContext,
  session: ActiveSession,
  visitId: number,
): Promise<VisitRow> {
  const visit = await ownVisit(ctx, session, visitId);
  if (visit.kind !== 'renewal' || visit.category !== 'hair')
    throw notFound('We could not find that visit.');
  return visit;
}

/** The current photo of each view, in the order the views are asked for. */
async function currentPhotos(ctx: AppContext, visitId: number): Promise<ScalpPhoto[]> {
  const byView = new Map(
    (await uploads.selectCurrentScalpPhotos(ctx.db, visitId)).map((p) => [p.view, p.publicId]),
  );
  return scalpViews.flatMap((view) => {
    const uploadId = byView.get(view);
    return uploadId ? [{ view, upload_id: uploadId }] : [];
  });
}

/**
 * A scalp photo of one view for the patient's Hair renewal, while it is still being answered: once
 * sent, its photos are what the provider reviews and can no longer change.
 */
export async function addScalpPhoto(
  ctx: AppContext,
  session: ActiveSession,
  visitId: number,
  view: ScalpView,
  bytes: Buffer,
): Promise<ScalpPhoto> {
  const visit = await ownHairRenewal(ctx, session, visitId);
  if (visit.status !== 'IN_PROGRESS')
    throw new AppError(
      'VISIT_CLOSED',
      visit.status === 'PENDING_REVIEW' ||
        visit.status === 'APPROVED' ||
        visit.status === 'DECLINED'
        ? 'Your check-in was already sent to your provider, so its photos can no longer be changed. Write to your provider in Messages if something has changed.'
        : (visit.closedReason ??
            'This check-in is closed, so its photos can no longer be changed.'),
    );
  const stored = await storeUpload(
    ctx,
    { customerId: session.customerId, visitId: visit.id },
    { kind: 'scalp_photo', view },
    bytes,
  );
  return { view, upload_id: stored.publicId };
}

/** The current photo of each view the patient's Hair renewal has, for its send step. */
export async function scalpPhotosOf(
  ctx: AppContext,
  session: ActiveSession,
  visitId: number,
): Promise<{ photos: ScalpPhoto[] }> {
  const visit = await ownHairRenewal(ctx, session, visitId);
  return { photos: await currentPhotos(ctx, visit.id) };
}

/**
 * Before a renewal is sent: a Hair renewal ready to send needs a photo of each view. Anything else
 * (another program's renewal, one not at its last step, one already sent or closed, a visit that is
 * not a renewal) is left to `sendRenewal`, which answers it as before.
 */
export async function requireScalpPhotos(
  ctx: AppContext,
  session: ActiveSession,
  visitId: number,
): Promise<void> {
  const visit = await ownVisit(ctx, session, visitId);
  if (
    visit.kind !== 'renewal' ||
    visit.category !== 'hair' ||
    visit.status !== 'IN_PROGRESS' ||
    visit.step !== 'consent'
  )
    return;
  const photos = await currentPhotos(ctx, visit.id);
  if (photos.length < scalpViews.length) throw new AppError('VISIT_STEP', scalpPhotosMissing);
}

/**
 * A Hair renewal's current scalp photos on the provider's chart, while it waits for review and
 * after it is decided (as `/uploads/:id` serves them); none for another program.
 */
export async function chartScalpPhotos(
  ctx: AppContext,
  visit: { id: number; category: string; status: string },
): Promise<RenewalChart['scalp_photos']> {
  if (visit.category !== 'hair' || !scalpPhotosShownIn(visit.status)) return [];
  return (await currentPhotos(ctx, visit.id)).map((photo) => ({
    view: photo.view,
    label: scalpViewWords[photo.view].label,
    upload_key: photo.upload_id,
  }));
}
