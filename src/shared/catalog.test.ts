import { describe, expect, it } from 'vitest';
import {
  bottlesPerDelivery,
  bottlesPerUnit,
  bottlesText,
  bundleOffer,
  doseTexts,
  frequencies,
  offers,
} from './catalog.ts';

const numberWords: Record<string, number> = { One: 1, Two: 2, Three: 3 };

describe('bottles per delivery', () => {
  it.each(frequencies)('agrees with the dose text of spec §3 for %s offers', (frequency) => {
    const [word, unit] = doseTexts[frequency].split(' ');
    expect(unit).toMatch(/^bottles?$/);
    expect(bottlesPerUnit[frequency]).toBe(numberWords[word ?? '']);
  });

  it("multiplies a plan's quantity by the bottles one unit brings", () => {
    expect(bottlesPerDelivery({ frequency: 'QUARTERLY' }, 1)).toBe(3);
    expect(bottlesPerDelivery({ frequency: 'QUARTERLY' }, 2)).toBe(6);
    expect(bottlesPerDelivery({ frequency: 'MONTHLY' }, 4)).toBe(4);
    expect(bottlesPerDelivery({ product_id: offers.sleep.oneTime, frequency: 'ONE_TIME' }, 2)).toBe(
      2,
    );
  });

  it('counts the bundle as one bottle of each of its three gummies', () => {
    expect(bundleOffer.dose).toBe('One bottle each');
    expect(
      bottlesPerDelivery({ product_id: offers.bundle.oneTime, frequency: 'ONE_TIME' }, 1),
    ).toBe(3);
  });
});

describe('bottlesText', () => {
  it('says what arrives and how often', () => {
    expect(bottlesText({ frequency: 'QUARTERLY' }, 1)).toBe('3 bottles every 3 months');
    expect(bottlesText({ frequency: 'QUARTERLY' }, 2)).toBe('6 bottles every 3 months');
    expect(bottlesText({ frequency: 'MONTHLY' }, 1)).toBe('1 bottle a month');
    expect(bottlesText({ frequency: 'MONTHLY' }, 3)).toBe('3 bottles a month');
    expect(bottlesText({ product_id: offers.biotin.oneTime, frequency: 'ONE_TIME' }, 1)).toBe(
      '1 bottle',
    );
    expect(bottlesText({ product_id: offers.biotin.oneTime, frequency: 'ONE_TIME' }, 2)).toBe(
      '2 bottles',
    );
  });

  it('says the bundle is one of each', () => {
    expect(bottlesText({ product_id: offers.bundle.oneTime, frequency: 'ONE_TIME' }, 1)).toBe(
      '3 bottles, one of each',
    );
  });
});
