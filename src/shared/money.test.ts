import { describe, expect, it } from 'vitest';
import { centsToAmount, formatCents, priceLabel } from './money.ts';

describe('money', () => {
  it('formats cents as dollars', () => {
    expect(formatCents(2499)).toBe('$24.99');
    expect(formatCents(1750)).toBe('$17.50');
    expect(formatCents(4500)).toBe('$45.00');
    expect(formatCents(5)).toBe('$0.05');
    expect(formatCents(123456789)).toBe('$1,234,567.89');
    expect(formatCents(-500)).toBe('-$5.00');
  });

  it("makes the spec's price labels", () => {
    expect(priceLabel(2499, 'ONE_TIME')).toBe('$24.99');
    expect(priceLabel(1750, 'MONTHLY')).toBe('$17.50/month');
    expect(priceLabel(4500, 'QUARTERLY')).toBe('$45.00/quarterly');
  });

  it('turns cents into the decimal amount payloads carry', () => {
    expect(centsToAmount(2499)).toBe(24.99);
    expect(centsToAmount(4500)).toBe(45);
  });
});
