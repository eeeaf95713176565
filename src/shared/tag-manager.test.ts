import { describe, expect, it } from 'vitest';
import { GTM_ID_PATTERN, tagManagerPage } from './tag-manager.ts';

describe('where the tag manager may load', () => {
  it('on the storefront: home, shop, products, cart, checkout, help pages, log-in and sign-up', () => {
    for (const path of [
      '/',
      '/shop',
      '/shop/',
      '/shop/sleep-gummies',
      '/cart',
      '/checkout',
      '/checkout/shipping',
      '/checkout/upsell',
      '/checkout/payment',
      '/checkout/complete',
      '/privacy',
      '/terms',
      '/consent-to-telehealth',
      '/faq',
      '/login',
      '/signup',
    ])
      expect(tagManagerPage(path), path).toBe(true);
    expect(tagManagerPage('/shop', '?utm_source=mail')).toBe(true);
  });

  it('never on member, visit or staff pages, token pages, or anything not on the list', () => {
    for (const path of [
      '/dashboard',
      '/accounts',
      '/accounts/partner',
      '/accounts/editPaymentMethod',
      '/orders',
      '/orders/receipt/PW-1',
      '/messages',
      '/subscriptions',
      '/visit/hair',
      '/visit/ed/questions',
      '/visit/sleep/submitted',
      '/staff',
      '/staff/login',
      '/staff/inbox/3',
      '/reset-password',
      '/login/unlock',
      '/undo-email-change',
      '/logout',
      '/shop/a/b',
      '/something-new',
    ])
      expect(tagManagerPage(path), path).toBe(false);
  });

  it('not on log-in or sign-up carrying a query: an invitation token rides there', () => {
    expect(tagManagerPage('/signup', '?partnerInvite=abc')).toBe(false);
    expect(tagManagerPage('/login', '?next=x')).toBe(false);
  });

  it('takes GTM container ids only', () => {
    expect(GTM_ID_PATTERN.test('GTM-ABC1234')).toBe(true);
    for (const bad of ['G-ABC1234', 'GTM-abc1234', 'GTM-AB', 'GTM-ABC1234 ', 'AW-123456'])
      expect(GTM_ID_PATTERN.test(bad), bad).toBe(false);
  });
});
