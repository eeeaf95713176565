// Uploads: photo IDs and the scalp photos of a Hair renewal, stored by their bytes, metadata
// stripped, named by an opaque id, and shown only to the patient and to the providers who need them
// (docs/decisions/005-photo-ids.md; scalp photos, decision 023).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '#server/context.ts';
import { makePrivateDir, writePrivateFile } from '#server/lib/private-files.ts';
import { imageMimeTypes, ImageFormatError, sniffImage, stripMetadata } from '#server/lib/images.ts';
import { audit, type StaffSession } from '#server/features/staff/staff.service.ts';
import { AppError, notFound } from '#server/lib/errors.ts';
import * as q from './visits.photo-id.queries.ts';

/** What is uploaded: a photo ID, or a scalp photo of one view. */
export type UploadWhat = { kind: 'photo_id' } | { kind: 'scalp_photo'; view: q.UploadView };

const notAnImage: Record<q.UploadKind, string> = {
  photo_id: 'Please upload a photo of your ID as a JPEG, PNG or WebP image.',
  scalp_photo: 'Please upload a photo of your scalp as a JPEG, PNG or WebP image.',
};

function uploadsDir(ctx: AppContext): string {
  return path.resolve(ctx.env.DATA_DIR, 'uploads');
}

/**
 * Stores a photo for a visit, whatever its kind: its bytes must be a JPEG, PNG or WebP image; its
 * metadata is removed; it is written outside the web root under a random name and named by a
 * random public id. Nothing is stored for anything else.
 */
export async function storeUpload(
  ctx: AppContext,
  owner: { customerId: number; visitId: number },
  what: UploadWhat,
  bytes: Buffer,
): Promise<{ id: number; publicId: string }> {
  const refused = notAnImage[what.kind];
  const kind = sniffImage(bytes);
  if (kind === 'heic')
    throw new AppError(
      'UNSUPPORTED_IMAGE',
      'HEIC photos are not supported yet. Please choose a JPEG or PNG photo (most phones offer one when you upload).',
      { fileToUpload: refused },
    );
  if (!kind) throw new AppError('NOT_AN_IMAGE', refused, { fileToUpload: refused });
  let clean: Buffer;
  try {
    clean = stripMetadata(kind, bytes);
  } catch (error) {
    if (error instanceof ImageFormatError)
      throw new AppError('NOT_AN_IMAGE', refused, { fileToUpload: refused });
    throw error;
  }
  const dir = uploadsDir(ctx);
  makePrivateDir(dir);
  const storedName = crypto.randomBytes(16).toString('hex');
  writePrivateFile(path.join(dir, storedName), clean);
  const publicId = newPublicId();
  try {
    const id = await q.insertUpload(ctx.db, {
      customerId: owner.customerId,
      visitId: owner.visitId,
      kind: what.kind,
      view: what.kind === 'scalp_photo' ? what.view : null,
      publicId,
      mimeType: imageMimeTypes[kind],
      sizeBytes: clean.length,
      storedName,
      now: ctx.clock.now().toISOString(),
    });
    return { id, publicId };
  } catch (error) {
    fs.rmSync(path.join(dir, storedName), { force: true });
    throw error;
  }
}

/** 16 random bytes: an id that says nothing about any other upload and cannot be guessed. */
function newPublicId(): string {
  return crypto.randomBytes(16).toString('base64url');
}

/** The shape of a public id; anything else names no upload. */
export const PUBLIC_ID_PATTERN = /^[\w-]{22}$/;

/** Who asks for a photo: the session's customer, and the staff member, if any. */
export interface PhotoViewer {
  customerId: number | undefined;
  staff: StaffSession | undefined;
}

export interface PhotoFile {
  customerId: number;
  mimeType: string;
  bytes: Buffer;
}

/**
 * The visit statuses in which a provider may see a current photo of each kind. A photo ID is an
 * identity check, done once the visit is decided; a scalp photo is part of the clinical record, so
 * it stays on the renewal's chart after the decision, as its answers do.
 */
const shownWhile: Record<q.UploadKind, readonly string[]> = {
  photo_id: ['PENDING_REVIEW'],
  scalp_photo: ['PENDING_REVIEW', 'APPROVED', 'DECLINED'],
};

/** Whether a provider licensed in its state sees a visit's current scalp photos in this status. */
export function scalpPhotosShownIn(status: string): boolean {
  return shownWhile.scalp_photo.includes(status);
}

/**
 * Least privilege (docs/decisions/005-photo-ids.md): a photo is shown to the patient who uploaded
 * it, and to a provider licensed in the visit's state when it is the visit's current photo (its
 * photo ID now, or the newest scalp photo of its view) and the visit is in a status its kind is
 * shown in (`shownWhile`). Nobody else, operations staff included. `undefined` for everyone else,
 * exactly as for an upload that does not exist.
 */
function mayView(upload: q.UploadRow, viewer: PhotoViewer): 'owner' | 'provider' | undefined {
  if (viewer.customerId === upload.customerId) return 'owner';
  const staff = viewer.staff?.staff;
  const visit = upload.visit;
  if (
    staff?.role === 'provider' &&
    visit &&
    shownWhile[upload.kind].includes(visit.status) &&
    visit.state !== null &&
    staff.licensed_states.includes(visit.state)
  )
    return 'provider';
  return undefined;
}

/**
 * A photo's bytes for one who may see it (see `mayView`); anyone else gets the same 404 as for an
 * id that names nothing. Every staff request is written to the audit log, granted or refused.
 */
export async function viewUpload(
  ctx: AppContext,
  viewer: PhotoViewer,
  publicId: string,
  ip: string,
): Promise<PhotoFile> {
  const upload = PUBLIC_ID_PATTERN.test(publicId)
    ? await q.selectUploadByPublicId(ctx.db, publicId)
    : undefined;
  const who = upload && mayView(upload, viewer);
  if (viewer.staff && who !== 'owner') {
    await audit(ctx, viewer.staff, {
      action: who === 'provider' ? 'view' : 'view_refused',
      subjectType: 'upload',
      subjectId: PUBLIC_ID_PATTERN.test(publicId) ? publicId : 'malformed',
      ...(upload ? { customerId: upload.customerId } : {}),
      ip,
    });
  }
  if (!upload || !who) throw notFound('We could not find that file.');
  const file = path.join(uploadsDir(ctx), upload.storedName);
  if (!fs.existsSync(file)) throw notFound('We could not find that file.');
  return { customerId: upload.customerId, mimeType: upload.mimeType, bytes: fs.readFileSync(file) };
}

/** The public id of an upload, for a chart or an answer that names it. */
export function publicIdOf(ctx: AppContext, uploadId: number): Promise<string | null> {
  return q.selectPublicId(ctx.db, uploadId);
}
