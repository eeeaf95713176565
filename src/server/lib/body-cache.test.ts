import { constants } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createBodyCache } from './body-cache.ts';

describe('kept answers', () => {
  it('keeps at most maxBytes of answers, the least recently used going first', () => {
    const cache = createBodyCache({ max: 10, ttlMs: 60_000, maxBytes: 10 });
    cache.set('a', 'aaaaaa', 'text/plain');
    cache.set('b', 'bbbbbb', 'text/plain');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')?.identity.toString()).toBe('bbbbbb');
    // An answer larger than the whole allowance is sent but not kept.
    cache.set('c', 'c'.repeat(11), 'text/plain');
    expect(cache.get('c')).toBeUndefined();
  });

  it("carries the cache's brotli quality, the highest unless told", () => {
    expect(createBodyCache({ max: 1, ttlMs: 1 }).set('k', '{}', 'x').brotliQuality).toBe(
      constants.BROTLI_MAX_QUALITY,
    );
    const own = createBodyCache({ max: 1, ttlMs: 1, brotliQuality: 5 }).set('k', '{}', 'x');
    expect(own.brotliQuality).toBe(5);
  });
});
