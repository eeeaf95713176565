import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, totpCode, totpStep, verifyTotp } from './totp.ts';

describe('TOTP (RFC 6238)', () => {
  // The RFC's test secret "12345678901234567890", base32-encoded.
  const secret = base32Encode(Buffer.from('12345678901234567890'));

  it('matches the RFC 6238 SHA-1 test vectors (last 6 digits)', () => {
    expect(totpCode(secret, totpStep(new Date(59_000)))).toBe('287082');
    expect(totpCode(secret, totpStep(new Date(1111111109_000)))).toBe('081804');
    expect(totpCode(secret, totpStep(new Date(1234567890_000)))).toBe('005924');
    expect(totpCode(secret, totpStep(new Date(2000000000_000)))).toBe('279037');
  });

  it('accepts one step of drift either way and nothing further', () => {
    const at = new Date('2026-11-21T12:00:10Z');
    const step = totpStep(at);
    expect(verifyTotp(secret, totpCode(secret, step), at)).toBe(step);
    expect(verifyTotp(secret, totpCode(secret, step - 1), at)).toBe(step - 1);
    expect(verifyTotp(secret, totpCode(secret, step + 1), at)).toBe(step + 1);
    expect(verifyTotp(secret, totpCode(secret, step + 2), at)).toBeNull();
    expect(verifyTotp(secret, '000000', at) === null || totpCode(secret, step) === '000000').toBe(
      true,
    );
  });

  it('round-trips base32', () => {
    expect(base32Decode(base32Encode(Buffer.from('hello')))).toEqual(Buffer.from('hello'));
    expect(base32Encode(Buffer.from('12345678901234567890'))).toBe(
      'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ',
    );
  });
});
