import type { FastifyRequest } from 'fastify';
import { MAX_UPLOAD_BYTES } from '#shared/visits.ts';
import { AppError } from './errors.ts';

const tooLarge = 'That photo is larger than 10 MB. Please choose a smaller one.';

/** A photo form as read: the text fields asked for and the photo's bytes. */
export interface ImageForm<F extends string> {
  /** Each field asked for, as sent (the last value when sent twice); undefined when missing. */
  fields: Record<F, string | undefined>;
  /** The photo, never empty: its type is for the upload's own check (`lib/images.ts`). */
  bytes: Buffer;
}

/**
 * Multipart form data carrying one photo in `fileToUpload` (spec §7 `/upload_image/`, and every
 * upload since) and the text fields `fields` names, which the caller checks. Other fields are
 * ignored, another file is refused, and a photo over MAX_UPLOAD_BYTES is refused as it streams,
 * before it is all read. A form without the photo is refused with `missingFile`, the form's own
 * words ("Choose a photo of your ID.").
 */
export async function readImageForm<const F extends string>(
  request: FastifyRequest,
  options: { fields: readonly F[]; missingFile: string },
): Promise<ImageForm<F>> {
  if (!request.isMultipart())
    throw new AppError('NOT_MULTIPART', 'Send the photo as form data in the field fileToUpload.');
  const wanted = new Set<string>(options.fields);
  const fields: Partial<Record<F, string>> = {};
  let bytes: Buffer | undefined;
  try {
    for await (const part of request.parts({
      // A few fields more than asked for: a form's extra fields are read and dropped.
      limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: options.fields.length + 3 },
    })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'fileToUpload') {
          await part.toBuffer();
          continue;
        }
        bytes = await part.toBuffer();
      } else if (wanted.has(part.fieldname)) {
        fields[part.fieldname as F] = String(part.value);
      }
    }
  } catch (error) {
    if (error instanceof Error && /too large|file size|limit/i.test(error.message))
      throw new AppError('TOO_LARGE', tooLarge, { fileToUpload: tooLarge });
    throw new AppError('BAD_UPLOAD', 'The upload could not be read. Please try again.');
  }
  if (!bytes || bytes.length === 0)
    throw new AppError('VALIDATION', options.missingFile, { fileToUpload: options.missingFile });
  return { fields: fields as Record<F, string | undefined>, bytes };
}
