// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import {
  analyticsItem,
  productLineSource,
  itemLists,
  trackAddPaymentInfo,
  trackAddShippingInfo,
  trackAddToCart,
  trackBeginCheckout,
  trackLogin,
  trackPurchase,
  trackQuantityChange,
  trackRemoveFromCart,
  trackSelectItem,
  trackSignUp,
  trackViewCart,
  trackViewItem,
  trackViewItemList,
  trackVisitStarted,
  trackVisitSubmitted,
  type ItemSource,
} from './analytics.ts';
import { offers } from '#shared/catalog.ts';

const sleep: ItemSource = {
  product_id: offers.sleep.monthly,
  name: 'Sleep Gummies',
  category: 'supplements',
  frequency: 'MONTHLY',
  price_cents: 1750,
  quantity: 1,
};
const biotin: ItemSource = {
  product_id: offers.biotin.oneTime,
  name: 'Biotin Gummies',
  category: 'supplements',
  frequency: 'ONE_TIME',
  price_cents: 2499,
  quantity: 2,
};
/** A telehealth program's line: its category, name and id each say what is being treated. */
const treatment: ItemSource = {
  product_id: 501,
  name: 'Finasteride 1 mg',
  category: 'hair',
  frequency: 'QUARTERLY',
  price_cents: 6000,
  quantity: 1,
};

const sleepItem = {
  item_id: '41',
  item_name: 'Sleep Gummies',
  item_category: 'supplements',
  item_variant: 'MONTHLY',
  price: 17.5,
  quantity: 1,
  name: 'Sleep Gummies',
  id: '41',
  category: 'supplements',
};
const biotinItem = {
  item_id: '30',
  item_name: 'Biotin Gummies',
  item_category: 'supplements',
  item_variant: 'ONE_TIME',
  price: 24.99,
  quantity: 2,
  name: 'Biotin Gummies',
  id: '30',
  category: 'supplements',
};

const offer = {
  product_name: 'Sleep Gummies',
  price: 0,
  quantity_supported: true,
  img: '',
  description: '',
  dose: 'One bottle',
  category: 'supplements',
};

/** The events pushed, each checked to follow its `{ ecommerce: null }` clearing where it has one. */
function pushed() {
  const layer = window.dataLayer ?? [];
  return layer.filter((entry, index) => {
    if (!('event' in entry)) return false;
    if ('ecommerce' in entry) expect(layer[index - 1]).toEqual({ ecommerce: null });
    return true;
  });
}

beforeEach(() => {
  window.dataLayer = [];
  window.history.replaceState(null, '', '/');
});

describe('an analytics item', () => {
  it("carries GA4's item parameters beside spec §3's five cart-item fields", () => {
    expect(analyticsItem(sleep)).toEqual(sleepItem);
    expect(analyticsItem(biotin, 3)).toEqual({ ...biotinItem, index: 3 });
  });

  it('says nothing of a telehealth program: its category, name, id and variant read as other', () => {
    const item = analyticsItem(treatment);
    expect(item).toEqual({
      item_id: 'other',
      item_name: 'other',
      item_category: 'other',
      item_variant: 'other',
      price: 60,
      quantity: 1,
      name: 'other',
      id: 'other',
      category: 'other',
    });
    expect(JSON.stringify(item)).not.toMatch(/hair|Finasteride|501/);
  });

  it("is a product line's headline offer, one of it", () => {
    const line = {
      slug: 'sleep-gummies',
      name: 'Sleep Gummies',
      summary: '',
      description: '',
      img: '',
      category: 'supplements',
      offers: [
        {
          ...offer,
          product_id: offers.sleep.monthly,
          frequency: 'MONTHLY' as const,
          price_cents: 1750,
        },
        {
          ...offer,
          product_id: offers.sleep.oneTime,
          frequency: 'ONE_TIME' as const,
          price_cents: 2499,
        },
      ],
    };
    expect(productLineSource(line)).toEqual({
      product_id: offers.sleep.oneTime,
      name: 'Sleep Gummies',
      category: 'supplements',
      frequency: 'ONE_TIME',
      price_cents: 2499,
      quantity: 1,
    });
    expect(productLineSource({ ...line, offers: [] })).toBeNull();
  });
});

describe('the GA4 ecommerce events', () => {
  it('view_item_list and select_item name the list and each item its place in it', () => {
    trackViewItemList(itemLists.shop, [sleep, biotin]);
    trackSelectItem(itemLists.shop, biotin, 1);
    trackViewItemList(itemLists.home, []);
    expect(pushed()).toEqual([
      {
        event: 'view_item_list',
        ecommerce: {
          item_list_id: 'shop',
          item_list_name: 'Shop',
          items: [
            { ...sleepItem, index: 0 },
            { ...biotinItem, index: 1 },
          ],
        },
      },
      {
        event: 'select_item',
        ecommerce: {
          item_list_id: 'shop',
          item_list_name: 'Shop',
          items: [{ ...biotinItem, index: 1 }],
        },
      },
    ]);
  });

  it('view_item, add_to_cart, remove_from_cart and view_cart carry currency, value and items', () => {
    trackViewItem(sleep);
    trackAddToCart(biotin);
    trackRemoveFromCart(sleep);
    trackViewCart([sleep, biotin], 'WELCOME10');
    trackViewCart([sleep], null);
    expect(pushed()).toEqual([
      { event: 'view_item', ecommerce: { currency: 'USD', value: 17.5, items: [sleepItem] } },
      { event: 'add_to_cart', ecommerce: { currency: 'USD', value: 49.98, items: [biotinItem] } },
      {
        event: 'remove_from_cart',
        ecommerce: { currency: 'USD', value: 17.5, items: [sleepItem] },
      },
      {
        event: 'view_cart',
        ecommerce: {
          currency: 'USD',
          value: 67.48,
          coupon: 'WELCOME10',
          items: [sleepItem, biotinItem],
        },
      },
      { event: 'view_cart', ecommerce: { currency: 'USD', value: 17.5, items: [sleepItem] } },
    ]);
  });

  it('a changed quantity adds or removes the difference, and an unchanged one sends nothing', () => {
    trackQuantityChange(biotin, 5);
    trackQuantityChange(biotin, 1);
    trackQuantityChange(biotin, 2);
    expect(
      pushed().map((e) => [
        e.event,
        (e.ecommerce as { items: [{ quantity: number }] }).items[0].quantity,
      ]),
    ).toEqual([
      ['add_to_cart', 3],
      ['remove_from_cart', 1],
    ]);
  });

  it("the checkout's events carry spec §4's steps: 1 Shipping, 2 Upsell, 3 Payment", () => {
    trackBeginCheckout([sleep, biotin], 'WELCOME10');
    trackAddShippingInfo([sleep, biotin], 'WELCOME10');
    trackAddPaymentInfo([sleep, biotin], 'New card', 'WELCOME10');
    const cart = {
      currency: 'USD',
      value: 67.48,
      coupon: 'WELCOME10',
      items: [sleepItem, biotinItem],
    };
    expect(pushed()).toEqual([
      {
        event: 'begin_checkout',
        ecommerce: { checkout_step: 1, checkout_option: 'Shipping', ...cart },
      },
      {
        event: 'add_shipping_info',
        ecommerce: {
          checkout_step: 2,
          checkout_option: 'Upsell',
          ...cart,
          shipping_tier: 'Free shipping',
        },
      },
      {
        event: 'add_payment_info',
        ecommerce: {
          checkout_step: 3,
          checkout_option: 'Payment',
          ...cart,
          payment_type: 'New card',
        },
      },
    ]);
  });

  it('purchase carries transaction_id, value, tax, shipping, currency, coupon and items', () => {
    trackPurchase({
      order_number: 'PW-100200',
      total_cents: 6074,
      coupon_code: 'WELCOME10',
      items: [sleep, biotin],
    });
    trackPurchase({
      order_number: 'PW-100201',
      total_cents: 1750,
      coupon_code: null,
      items: [sleep],
    });
    expect(pushed()).toEqual([
      {
        event: 'purchase',
        ecommerce: {
          transaction_id: 'PW-100200',
          value: 60.74,
          tax: 0,
          shipping: 0,
          currency: 'USD',
          coupon: 'WELCOME10',
          items: [sleepItem, biotinItem],
        },
      },
      {
        event: 'purchase',
        ecommerce: {
          transaction_id: 'PW-100201',
          value: 17.5,
          tax: 0,
          shipping: 0,
          currency: 'USD',
          items: [sleepItem],
        },
      },
    ]);
  });
});

describe('accounts and online visits', () => {
  it('sign_up and login say how, never who', () => {
    trackSignUp();
    trackLogin();
    expect(window.dataLayer).toEqual([
      { event: 'sign_up', method: 'email' },
      { event: 'login', method: 'email' },
    ]);
  });

  it('a visit is started and submitted, nothing more: no program, and no account events', () => {
    window.history.replaceState(null, '', '/visit/hair/account');
    trackVisitStarted();
    trackSignUp();
    trackLogin();
    trackVisitSubmitted();
    expect(window.dataLayer).toEqual([{ event: 'visit_started' }, { event: 'visit_submitted' }]);
  });
});
