/**
 * Photo IDs are checked by their bytes (never by name or declared type) and stored without their
 * metadata: EXIF (GPS position, camera, time), XMP, IPTC and comments are removed, the picture is
 * untouched. JPEG, PNG and WebP are accepted.
 *
 * HEIC is not: removing its metadata needs an HEVC-aware library we cannot ship here, and phones
 * and browsers offer JPEG when a page asks for an image upload (docs/decisions/005).
 */
export type ImageKind = 'jpeg' | 'png' | 'webp' | 'heic';

export const imageMimeTypes: Record<Exclude<ImageKind, 'heic'>, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

export function sniffImage(bytes: Buffer): ImageKind | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return 'jpeg';
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png';
  if (
    bytes.length >= 12 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP'
  )
    return 'webp';
  if (
    bytes.length >= 12 &&
    bytes.toString('latin1', 4, 8) === 'ftyp' &&
    /^(heic|heix|hevc|heim|heis|mif1|msf1)$/.test(bytes.toString('latin1', 8, 12))
  )
    return 'heic';
  return null;
}

export class ImageFormatError extends Error {}

/** The same image without metadata; throws ImageFormatError when the file is not well formed. */
export function stripMetadata(kind: Exclude<ImageKind, 'heic'>, bytes: Buffer): Buffer {
  switch (kind) {
    case 'jpeg':
      return stripJpeg(bytes);
    case 'png':
      return stripPng(bytes);
    case 'webp':
      return stripWebp(bytes);
  }
}

function stripJpeg(bytes: Buffer): Buffer {
  const parts: Buffer[] = [bytes.subarray(0, 2)];
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) throw new ImageFormatError('broken JPEG segment');
    const marker = bytes[offset + 1] ?? 0;
    if (marker === 0xd9) break;
    const length = bytes.readUInt16BE(offset + 2);
    if (length < 2 || offset + 2 + length > bytes.length)
      throw new ImageFormatError('broken JPEG length');
    const segment = bytes.subarray(offset, offset + 2 + length);
    // APP1 (EXIF, XMP), APP13 (IPTC) and COM (comments) carry metadata; everything else is the image.
    const metadata = marker === 0xe1 || marker === 0xed || marker === 0xfe;
    if (marker === 0xda) {
      // Start of scan: the compressed picture follows until the end; keep it all.
      parts.push(bytes.subarray(offset));
      return Buffer.concat(parts);
    }
    if (!metadata) parts.push(segment);
    offset += 2 + length;
  }
  throw new ImageFormatError('JPEG without image data');
}

function stripPng(bytes: Buffer): Buffer {
  const parts: Buffer[] = [bytes.subarray(0, 8)];
  let offset = 8;
  const dropped = new Set(['tEXt', 'zTXt', 'iTXt', 'eXIf', 'tIME']);
  let ended = false;
  while (offset + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (end > bytes.length) throw new ImageFormatError('broken PNG chunk');
    if (!dropped.has(type)) parts.push(bytes.subarray(offset, end));
    offset = end;
    if (type === 'IEND') {
      ended = true;
      break;
    }
  }
  if (!ended) throw new ImageFormatError('PNG without an end');
  return Buffer.concat(parts);
}

function stripWebp(bytes: Buffer): Buffer {
  const chunks: Buffer[] = [];
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const fourcc = bytes.toString('latin1', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    const end = offset + 8 + size + (size % 2);
    if (offset + 8 + size > bytes.length) throw new ImageFormatError('broken WebP chunk');
    if (fourcc !== 'EXIF' && fourcc !== 'XMP ') {
      const chunk = Buffer.from(bytes.subarray(offset, Math.min(end, bytes.length)));
      // VP8X announces EXIF (0x08) and XMP (0x04): they are gone now.
      if (fourcc === 'VP8X' && chunk.length > 8) chunk[8] = (chunk[8] ?? 0) & ~0x0c;
      chunks.push(chunk);
    }
    offset = end;
  }
  if (chunks.length === 0) throw new ImageFormatError('WebP without image data');
  const body = Buffer.concat(chunks);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(body.length + 4, 4);
  header.write('WEBP', 8, 'latin1');
  return Buffer.concat([header, body]);
}
