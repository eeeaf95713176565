import { describe, expect, it } from 'vitest';
import { legacyHashTarget } from './legacy-url.ts';

describe('legacy /#/ addresses', () => {
  it('become the plain path, keeping query and fragment', () => {
    expect(legacyHashTarget('#/faq')).toBe('/faq');
    expect(legacyHashTarget('#/orders#A1001')).toBe('/orders#A1001');
    expect(legacyHashTarget('#/reset-password?id=abc')).toBe('/reset-password?id=abc');
  });

  it('leave ordinary fragments alone', () => {
    expect(legacyHashTarget('')).toBeNull();
    expect(legacyHashTarget('#supplements')).toBeNull();
  });

  it('never turn into a link to another site', () => {
    expect(legacyHashTarget('#//evil.example/path')).toBeNull();
  });
});
