import { describe, expect, it } from 'vitest';
import { isNpi } from './staff.ts';

describe('isNpi (issue 29)', () => {
  it("accepts ten digits whose last is the Luhn check digit over 80840 and the first nine (CMS's rule)", () => {
    // CMS's worked example, and two more NPIs that pass the same rule.
    for (const npi of ['1234567893', '1245319599', '1003000126'])
      expect(isNpi(npi), npi).toBe(true);
  });

  it('refuses a wrong check digit, another length, and anything but digits', () => {
    for (const bad of ['1234567890', '1234567894', '123456789', '12345678930', '123456789X', ''])
      expect(isNpi(bad), bad).toBe(false);
  });
});
