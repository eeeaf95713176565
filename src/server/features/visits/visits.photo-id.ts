// Photo IDs: stored by their bytes, metadata stripped, named by an opaque id, and shown only to the
// patient and the provider reviewing their visit (docs/decisions/005-photo-ids.md).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '#server/context.ts';
import { makePrivateDir, writePrivateFile } from '#server/lib/private-files.ts';
import { imageMimeTypes, ImageFormatError, sniffImage, stripMetadata } from '#server/lib/images.ts';
import { audit, type StaffSession } from '#server/features/staff/staff.service.ts';
import { AppError, notFound } from '#server/lib/errors.ts';
import * as q from './visits.photo-id.queries.ts';

const notAnImage = 'Please upload a photo of your ID as a JPEG, PNG or WebP image.';

function uploadsDir(ctx: AppContext): string {
  return path.resolve(ctx.env.DATA_DIR, 'uploads');
}

/**
 * Stores a photo ID: its bytes must be a JPEG, PNG or WebP image; its metadata is removed; it is
 * written outside the web root under a random name. Nothing is stored for anything else.
 */
export async function storePhotoId(
  ctx: AppContext,
  customerId: number,
  visitId: number,
  bytes: Buffer,
): Promise<{ id: number; publicId: string }> {
  const kind = sniffImage(bytes);
  if (kind === 'heic')
    throw new AppError(
      'UNSUPPORTED_IMAGE',
      'HEIC photos are not supported yet. Please choose a JPEG or PNG photo (most phones offer one when you upload).',
      { fileToUpload: notAnImage },
    );
  if (!kind) throw new AppError('NOT_AN_IMAGE', notAnImage, { fileToUpload: notAnImage });
  let clean: Buffer;
  try {
    clean = stripMetadata(kind, bytes);
  } catch (error) {
    if (error instanceof ImageFormatError)
      throw new AppError('NOT_AN_IMAGE', notAnImage, { fileToUpload: notAnImage });
    throw error;
  }
  const dir = uploadsDir(ctx);
  makePrivateDir(dir);
  const storedName = crypto.randomBytes(16).toString('hex');
  writePrivateFile(path.join(dir, storedName), clean);
  const publicId = newPublicId();
  try {
    const id = await q.insertUpload(ctx.db, {
      customerId,
      visitId,
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

/** Who asks for a photo ID: the session's customer, and the staff member, if any. */
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
 * Least privilege (docs/decisions/005-photo-ids.md): a photo ID is shown to the patient who
 * uploaded it, and to a provider licensed in the visit's state while that visit waits for a
 * decision (PENDING_REVIEW) with this photo as its current one. Nobody else, operations staff
 * included. `undefined` for everyone else, exactly as for an upload that does not exist.
 */
function mayView(upload: q.UploadRow, viewer: PhotoViewer): 'owner' | 'provider' | undefined {
  if (viewer.customerId === upload.customerId) return 'owner';
  const staff = viewer.staff?.staff;
  const visit = upload.visit;
  if (
    staff?.role === 'provider' &&
    visit?.status === 'PENDING_REVIEW' &&
    visit.state !== null &&
    staff.licensed_states.includes(visit.state)
  )
    return 'provider';
  return undefined;
}

/**
 * A photo ID's bytes for one who may see it (see `mayView`); anyone else gets the same 404 as for
 * an id that names nothing. Every staff request is written to the audit log, granted or refused.
 */
export async function viewPhotoId(
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
