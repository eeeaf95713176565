// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { offers } from '#shared/catalog.ts';
import { storageKeys } from '#shared/constants.ts';
import { sleepLine, bundleLine } from './cart.fixtures.ts';
import {
  addBrowserEntry,
  parseBrowserCart,
  readBrowserCart,
  readBrowserCoupon,
  setBrowserCoupon,
  setBrowserQuantity,
} from './cart-storage.ts';

const sleep = {
  name: 'Sleep Gummies',
  product_id: offers.sleep.oneTime,
  price: 24.99,
  frequency: 'ONE_TIME',
  description: 'Wind down together and wake up rested.',
  dose: 'One bottle',
  quantity: 2,
  img: '/images/supp-sleep.webp',
};
const immunity = {
  ...sleep,
  name: 'Immunity Gummies',
  product_id: offers.immunity.quarterly,
  price: 45,
  frequency: 'QUARTERLY',
  dose: 'Three bottles every quarter subscription',
  quantity: 1,
  img: '/images/supp-immunity.webp',
};

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('the browser cart at load (spec §5 Cart)', () => {
  it('drops entries that fail the schema and keeps the rest, in storage too', () => {
    const { img: _img, ...missingImage } = { ...sleep, product_id: offers.biotin.oneTime };
    localStorage.setItem(
      storageKeys.cart,
      JSON.stringify([
        sleep,
        { ...sleep, product_id: offers.sleep.monthly, frequency: 'WEEKLY' },
        missingImage,
        { ...sleep, product_id: offers.biotin.monthly, price: '24.99' },
        { ...sleep, product_id: offers.biotin.quarterly, quantity: 0 },
        immunity,
      ]),
    );
    expect(readBrowserCart()).toEqual([sleep, immunity]);
    expect(JSON.parse(localStorage.getItem(storageKeys.cart) ?? '')).toEqual([sleep, immunity]);
  });

  it('keeps exactly the fields of a cart entry, dropping anything else stored with one', () => {
    localStorage.setItem(storageKeys.cart, JSON.stringify([{ ...sleep, card: '4242' }]));
    expect(readBrowserCart()).toEqual([sleep]);
    expect(localStorage.getItem(storageKeys.cart)).not.toContain('4242');
  });

  it('starts empty from something that is not JSON, and clears it', () => {
    localStorage.setItem(storageKeys.cart, '{not json');
    expect(readBrowserCart()).toEqual([]);
    expect(localStorage.getItem(storageKeys.cart)).toBeNull();
  });

  it('reads a single stored entry, joins duplicates and caps a line at 10', () => {
    expect(parseBrowserCart(JSON.stringify(sleep))).toEqual([sleep]);
    expect(parseBrowserCart(JSON.stringify([sleep, { ...sleep, quantity: 9 }]))).toEqual([
      { ...sleep, quantity: 10 },
    ]);
  });
});

describe('changing the browser cart', () => {
  it('adds a one-time product up to 10, and the bundle as one line of one', () => {
    const oneTime = sleepLine.offers[0]!;
    expect(addBrowserEntry(oneTime, 3)).toBe(3);
    expect(addBrowserEntry(oneTime, 9)).toBe(10);
    expect(addBrowserEntry(bundleLine.offers[0]!, 4)).toBe(1);
    expect(addBrowserEntry(bundleLine.offers[0]!, 1)).toBe(1);
    const stored = JSON.parse(localStorage.getItem(storageKeys.cart) ?? '[]') as object[];
    expect(stored).toHaveLength(2);
    expect(Object.keys(stored[0] ?? {}).sort()).toEqual(
      ['description', 'dose', 'frequency', 'img', 'name', 'price', 'product_id', 'quantity'].sort(),
    );
  });

  it('removes a line set to 0, and forgets the coupon once the cart is empty', () => {
    addBrowserEntry(sleepLine.offers[0]!, 2);
    setBrowserCoupon('WELCOME10');
    setBrowserQuantity(offers.sleep.oneTime, 0);
    expect(readBrowserCart()).toEqual([]);
    expect(readBrowserCoupon()).toBeNull();
  });
});
