import { describe, expect, it } from 'vitest';
import { catalogApi } from '#shared/catalog.ts';
import { checkoutApi } from '#shared/checkout.ts';
import { ApiError, failedWith, failedWithCode } from './api.ts';

/**
 * Error codes are one typed table (shared/errors.ts) and each endpoint names the codes it can
 * answer with. `npm run typecheck` proves the compiler refuses what these `@ts-expect-error` lines
 * write: should any of them start to compile, the directive itself fails the typecheck.
 */
describe('error codes', () => {
  const declined = new ApiError(402, 'CARD_DECLINED', 'Your card was declined.');

  it('lets the browser branch only on a code the endpoint can answer with', () => {
    expect(failedWith(declined, checkoutApi.placeOrder, 'CARD_DECLINED')).toBe(true);
    expect(failedWith(declined, checkoutApi.placeOrder, 'EMPTY_CART')).toBe(false);
    // @ts-expect-error a misspelt code does not compile
    expect(failedWith(declined, checkoutApi.placeOrder, 'CARD_DECLIND')).toBe(false);
    // @ts-expect-error the catalogue never declines a card
    expect(failedWith(declined, catalogApi.products, 'CARD_DECLINED')).toBe(true);
    // Any call can fail for reasons of its own kind (a network, a limit, an outage).
    expect(failedWith(declined, catalogApi.products, 'NETWORK', 'UNAVAILABLE')).toBe(false);
  });

  it('lets a check across endpoints use only codes of the shared table', () => {
    const ended = new ApiError(401, 'UNAUTHENTICATED', 'Please log in.');
    expect(failedWithCode(ended, 'UNAUTHENTICATED')).toBe(true);
    // @ts-expect-error a misspelt code does not compile
    expect(failedWithCode(ended, 'UNAUTHENTICATD')).toBe(false);
  });
});
