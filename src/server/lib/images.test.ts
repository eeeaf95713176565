import { describe, expect, it } from 'vitest';
import { ImageFormatError, sniffImage, stripMetadata } from './images.ts';

function jpegSegment(marker: number, payload: string): Buffer {
  const data = Buffer.from(payload, 'latin1');
  const head = Buffer.alloc(4);
  head[0] = 0xff;
  head[1] = marker;
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, data]);
}

function pngChunk(type: string, payload: string): Buffer {
  const data = Buffer.from(payload, 'latin1');
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, data, Buffer.alloc(4)]);
}

function webpChunk(fourcc: string, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(fourcc, 0, 'latin1');
  head.writeUInt32LE(payload.length, 4);
  return Buffer.concat([head, payload, payload.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
}

describe('photo ID images', () => {
  it('recognises images by their bytes, whatever they are called', () => {
    expect(sniffImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffImage(Buffer.from('\x89PNG\r\n\x1a\n....', 'latin1'))).toBe('png');
    expect(sniffImage(Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1'))).toBe('webp');
    expect(sniffImage(Buffer.from('\0\0\0\x18ftypheic', 'latin1'))).toBe('heic');
    expect(sniffImage(Buffer.from('%PDF-1.7 not a picture', 'latin1'))).toBeNull();
    expect(sniffImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
  });

  it('removes EXIF, XMP, IPTC and comments from a JPEG and keeps the picture', () => {
    const jpeg = Buffer.concat([
      Buffer.from([0xff, 0xd8]),
      jpegSegment(0xe0, 'JFIF\0keep'),
      jpegSegment(0xe1, 'Exif\0\0GPS 45.52N 122.68W canary'),
      jpegSegment(0xed, 'Photoshop 3.0 IPTC canary'),
      jpegSegment(0xfe, 'comment canary'),
      jpegSegment(0xdb, 'quantisation tables'),
      Buffer.from([0xff, 0xda, 0x00, 0x04, 0x01, 0x02, 0x12, 0x34, 0x56, 0xff, 0xd9]),
    ]);
    const clean = stripMetadata('jpeg', jpeg).toString('latin1');
    expect(clean).not.toContain('canary');
    expect(clean).toContain('JFIF');
    expect(clean).toContain('quantisation tables');
    expect(clean.endsWith('\x12\x34\x56\xff\xd9')).toBe(true);
  });

  it('removes text and EXIF chunks from a PNG', () => {
    const png = Buffer.concat([
      Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'),
      pngChunk('IHDR', '1234567890123'),
      pngChunk('tEXt', 'Author\0canary'),
      pngChunk('eXIf', 'canary gps'),
      pngChunk('IDAT', 'pixels'),
      pngChunk('IEND', ''),
    ]);
    const clean = stripMetadata('png', png).toString('latin1');
    expect(clean).not.toContain('canary');
    expect(clean).toContain('IDAT');
    expect(clean).toContain('IEND');
  });

  it('removes EXIF and XMP from a WebP and clears their flags', () => {
    const vp8x = Buffer.alloc(10);
    vp8x[0] = 0x0c;
    const chunks = Buffer.concat([
      webpChunk('VP8X', vp8x),
      webpChunk('VP8 ', Buffer.from('pixels!')),
      webpChunk('EXIF', Buffer.from('canary gps')),
      webpChunk('XMP ', Buffer.from('canary xmp')),
    ]);
    const head = Buffer.alloc(12);
    head.write('RIFF', 0, 'latin1');
    head.writeUInt32LE(chunks.length + 4, 4);
    head.write('WEBP', 8, 'latin1');
    const clean = stripMetadata('webp', Buffer.concat([head, chunks]));
    expect(clean.toString('latin1')).not.toContain('canary');
    expect(clean.readUInt32LE(4)).toBe(clean.length - 8);
    expect(clean[20]).toBe(0);
  });

  it('refuses a truncated file', () => {
    expect(() => stripMetadata('jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0x40, 0x00]))).toThrow(
      ImageFormatError,
    );
    expect(() =>
      stripMetadata('png', Buffer.from('\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR', 'latin1')),
    ).toThrow(ImageFormatError);
  });
});
