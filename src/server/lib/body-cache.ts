import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';

/**
 * Answers that are the same for every visitor (the catalogue, a product line, a drawn page), kept
 * as bytes with their brotli and gzip forms, so a warm request costs neither a query, nor a
 * render, nor a serialisation, nor a compression (issue 14). Only what no session can change goes
 * in: a cache is made for a public endpoint or page, never for one that reads the session.
 *
 * Each is kept under the version of the catalogue it was made from (migration 0029's triggers raise
 * it on any write to the catalogue; `features/catalog/catalog.version.ts` reads it at most once a
 * second), so a change to the catalogue, from any instance or by hand, shows on every instance
 * within about a second; entries also expire after `ttlMs`. A bounded number of entries is kept (the
 * least recently used goes first), so paths made up by a visitor cannot grow it.
 */
export interface CachedBody {
  readonly identity: Buffer;
  readonly type: string;
  /** Brotli's quality for this answer: the highest for what everyone reads. */
  readonly brotliQuality: number;
  /** Compressed on first demand, then kept (null: too small to be worth it). */
  br?: Buffer | null;
  gzip?: Buffer | null;
}

export interface BodyCache {
  get(key: string): CachedBody | undefined;
  set(key: string, body: string, type: string): CachedBody;
  clear(): void;
}

/** Below this many bytes an answer goes out as it is (as @fastify/compress's threshold). */
const COMPRESS_THRESHOLD = 1024;

export function createBodyCache(options: {
  max: number;
  ttlMs: number;
  /**
   * Brotli's quality (the highest by default): a customer's own answer, sent a few times before it
   * changes, is not worth the highest's milliseconds.
   */
  brotliQuality?: number;
  /** At most this many bytes of answers (before compression), besides `max` of them. */
  maxBytes?: number;
}): BodyCache {
  const entries = new LRUCache<string, CachedBody>({
    max: options.max,
    ttl: options.ttlMs,
    ...(options.maxBytes
      ? { maxSize: options.maxBytes, sizeCalculation: (entry) => entry.identity.length }
      : {}),
  });
  const brotliQuality = options.brotliQuality ?? constants.BROTLI_MAX_QUALITY;
  return {
    get: (key) => entries.get(key),
    set(key, body, type) {
      const entry: CachedBody = { identity: Buffer.from(body, 'utf8'), type, brotliQuality };
      entries.set(key, entry);
      return entry;
    },
    clear: () => entries.clear(),
  };
}

type Encoding = 'br' | 'gzip';

/** The best encoding the request accepts among brotli and gzip (q=0 refuses one); null for none. */
export function acceptedEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  let best: Encoding | null = null;
  let bestQ = 0;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const encoding: Encoding | null =
      name === 'br' ? 'br' : name === 'gzip' || name === 'x-gzip' ? 'gzip' : null;
    if (!encoding) continue;
    const qParam = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!(q > 0)) continue;
    // Brotli wins a tie: it is the smaller of the two.
    if (q > bestQ || (q === bestQ && encoding === 'br')) {
      best = encoding;
      bestQ = q;
    }
  }
  return best;
}

function compressed(entry: CachedBody, encoding: Encoding): Buffer | null {
  if (entry.identity.length < COMPRESS_THRESHOLD) return null;
  if (encoding === 'br')
    return (entry.br ??= brotliCompressSync(entry.identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: entry.brotliQuality,
        [constants.BROTLI_PARAM_SIZE_HINT]: entry.identity.length,
      },
    }));
  return (entry.gzip ??= gzipSync(entry.identity, { level: constants.Z_BEST_COMPRESSION }));
}

/** Sends a kept answer in the encoding the request accepts (@fastify/compress leaves it alone). */
export function sendCachedBody(
  request: FastifyRequest,
  reply: FastifyReply,
  entry: CachedBody,
): FastifyReply {
  reply.header('Vary', 'Accept-Encoding').type(entry.type);
  const encoding = acceptedEncoding(request.headers['accept-encoding']);
  const bytes = encoding && compressed(entry, encoding);
  if (encoding && bytes) return reply.header('Content-Encoding', encoding).send(bytes);
  return reply.send(entry.identity);
}
