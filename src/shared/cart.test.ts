import { describe, expect, it } from 'vitest';
import { cartTotals, lineQuantity, MAX_QUANTITY, orderDiscount, stacks } from './cart.ts';

const oneTime = { frequency: 'ONE_TIME', quantity_supported: true } as const;
const bundle = { frequency: 'ONE_TIME', quantity_supported: false } as const;
const monthly = { frequency: 'MONTHLY', quantity_supported: true } as const;

describe('the stacking rule', () => {
  it('lets only a one-time product with quantity come in quantities', () => {
    expect(stacks(oneTime)).toBe(true);
    expect(stacks(bundle)).toBe(false);
    expect(stacks(monthly)).toBe(false);
  });

  it('keeps a line within 0 and the limit, and anything that does not stack at one', () => {
    expect(lineQuantity(oneTime, 4)).toBe(4);
    expect(lineQuantity(oneTime, MAX_QUANTITY + 5)).toBe(MAX_QUANTITY);
    expect(lineQuantity(monthly, 3)).toBe(1);
    expect(lineQuantity(bundle, 0)).toBe(0);
  });
});

describe('the cart pricing', () => {
  const lines = [
    { price_cents: 2499, quantity: 2 },
    { price_cents: 1750, quantity: 1 },
  ];

  it('adds the lines, takes the discount off, and charges no shipping or tax', () => {
    expect(cartTotals(lines, 500)).toEqual({
      item_count: 3,
      subtotal_cents: 6748,
      discount_cents: 500,
      shipping_cents: 0,
      tax_cents: 0,
      total_cents: 6248,
    });
  });

  it("finds a placed order's discount from its lines and what was charged", () => {
    expect(orderDiscount(lines, 6248)).toBe(500);
    expect(orderDiscount(lines, 6748)).toBe(0);
  });
});
