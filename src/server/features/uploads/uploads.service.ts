import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '#server/context.ts';
import { imageMimeTypes, ImageFormatError, sniffImage, stripMetadata } from '#server/lib/images.ts';
import { AppError, notFound } from '#server/plugins/errors.ts';
import * as q from './uploads.queries.ts';

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
): Promise<number> {
  const kind = sniffImage(bytes);
  if (kind === 'heic')
    throw new AppError(
      415,
      'UNSUPPORTED_IMAGE',
      'HEIC photos are not supported yet. Please choose a JPEG or PNG photo (most phones offer one when you upload).',
      { fileToUpload: notAnImage },
    );
  if (!kind) throw new AppError(415, 'NOT_AN_IMAGE', notAnImage, { fileToUpload: notAnImage });
  let clean: Buffer;
  try {
    clean = stripMetadata(kind, bytes);
  } catch (error) {
    if (error instanceof ImageFormatError)
      throw new AppError(415, 'NOT_AN_IMAGE', notAnImage, { fileToUpload: notAnImage });
    throw error;
  }
  const dir = uploadsDir(ctx);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const storedName = crypto.randomBytes(16).toString('hex');
  fs.writeFileSync(path.join(dir, storedName), clean, { mode: 0o600 });
  try {
    return await q.insertUpload(ctx.db, {
      customerId,
      visitId,
      mimeType: imageMimeTypes[kind],
      sizeBytes: clean.length,
      storedName,
      now: ctx.clock.now().toISOString(),
    });
  } catch (error) {
    fs.rmSync(path.join(dir, storedName), { force: true });
    throw error;
  }
}

export interface UploadFile {
  customerId: number;
  mimeType: string;
  bytes: Buffer;
}

/** An upload's bytes; the caller decides who may see them (its owner, or staff with an audit entry). */
export async function readUpload(ctx: AppContext, id: number): Promise<UploadFile> {
  const upload = await q.selectUpload(ctx.db, id);
  if (!upload) throw notFound('We could not find that file.');
  const file = path.join(uploadsDir(ctx), upload.storedName);
  if (!fs.existsSync(file)) throw notFound('We could not find that file.');
  return { customerId: upload.customerId, mimeType: upload.mimeType, bytes: fs.readFileSync(file) };
}
