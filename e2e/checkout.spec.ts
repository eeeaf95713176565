import type { Page } from '@playwright/test';
import {
  expect,
  fillCard,
  test,
  uniqueEmail,
  unexpectedProblems,
  type Screens,
} from './fixtures.ts';
import { offers } from '../src/shared/catalog.ts';

/**
 * The storefront and checkout in a real browser at 375px and 1280px: a visitor fills a cart,
 * applies a coupon, signs up inside the checkout, ships, skips the offers and pays; a declined card;
 * a corrupted browser cart; the drawer's width; and the data layer the checkout feeds.
 */

/**
 * A refused coupon or form (400), a declined card (402) and an unknown product (404) show in the
 * console as failed requests; nothing else may.
 */
const refusals = [400, 402, 404];

/** Toasts are fixed to the window: in a full-page picture they would float over the content. */
async function dismissToasts(page: Page) {
  const toasts = page.locator('.toast-root');
  // Toasts queue 500 ms apart and their code loads with the first one, so one may arrive after
  // the closing pass: close again until none is left.
  await expect(async () => {
    for (const close of await toasts.locator('[aria-label="Dismiss notification"]').all())
      await close.click({ force: true, timeout: 1000 }).catch(() => undefined);
    await expect(toasts).toHaveCount(0, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
}

/** A full-page picture from the top, with no toast floating over it. */
async function shot(page: Page, screens: Screens, name: string) {
  await dismissToasts(page);
  await screens.shot(name);
}

/** What the window shows (the drawer covers the page; a full-page picture would not). */
async function windowShot(page: Page, screens: Screens, name: string) {
  await dismissToasts(page);
  await screens.windowShot(name);
}

const drawer = (page: Page) => page.getByRole('dialog', { name: /Your cart/ });

/**
 * Sleep Gummies monthly and Biotin Gummies one-time ×2, then WELCOME10 — all inside the single
 * page app, so the data layer keeps every event.
 */
async function fillCart(page: Page, screens?: Screens) {
  await page.goto('/shop/sleep-gummies');
  await expect(page.getByRole('heading', { level: 1, name: 'Sleep Gummies' })).toBeVisible();
  await expect(page).toHaveTitle('Sleep Gummies — Pairwell');
  if (screens) {
    await screens.expectAccessible();
    await shot(page, screens, 'product');
  }
  await page.getByRole('radio', { name: /Monthly/ }).check();
  await expect(page.getByRole('group', { name: 'Quantity' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(drawer(page)).toBeVisible();
  await expect(drawer(page).getByText('$17.50/month')).toBeVisible();
  // Escape once the drawer holds the focus: Radix listens for it from an effect, run after showing.
  await expect
    .poll(() => drawer(page).evaluate((element) => element.contains(document.activeElement)))
    .toBe(true);
  await page.keyboard.press('Escape');
  await expect(drawer(page)).toBeHidden();
  // Focus goes back to the cart button, which opens the drawer again.
  await expect(page.getByRole('button', { name: 'Cart, 1 item' })).toBeFocused();

  await page
    .getByRole('navigation', { name: 'Breadcrumb' })
    .getByRole('link', { name: 'Shop' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Shop' })).toBeVisible();
  if (screens) {
    await screens.expectAccessible();
    await shot(page, screens, 'shop');
  }
  const biotin = page.getByRole('article', { name: 'Biotin Gummies' });
  await biotin.getByRole('button', { name: 'Increase quantity of Biotin Gummies' }).click();
  await expect(biotin.getByRole('group', { name: 'Quantity' })).toContainText('2');
  await biotin.getByRole('button', { name: /Add to cart/ }).click();
  await expect(drawer(page)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your cart (3 items)' })).toBeVisible();

  const cart = drawer(page);
  await cart.getByLabel('Coupon code').fill('SUMMER25');
  await cart.getByRole('button', { name: 'Apply' }).click();
  await expect(cart.getByText(/This coupon expired on/)).toBeVisible();
  await cart.getByLabel('Coupon code').fill('welcome10');
  await cart.getByRole('button', { name: 'Apply' }).click();
  await expect(cart.getByText('WELCOME10', { exact: true })).toBeVisible();
  // Said in the drawer's live region, not in a toast over its Checkout button.
  await expect(
    cart.getByRole('status').filter({ hasText: 'Coupon WELCOME10 applied' }),
  ).toBeAttached();
  await expect(page.locator('.toast-root')).toHaveCount(0);
  // $17.50 + 2 × $24.99 = $67.48; 10% off is $6.74.
  await expect(cart.getByText('−$6.74')).toBeVisible();
  await expect(cart.getByRole('definition').filter({ hasText: '$60.74' })).toBeVisible();
  if (screens) {
    await screens.expectAccessible();
    await windowShot(page, screens, 'cart-drawer');
  }
}

async function signUpAtCheckout(page: Page, email: string, screens?: Screens) {
  await page.getByRole('link', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/checkout\/shipping$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
  const steps = page.getByRole('navigation', { name: 'Checkout steps' });
  await expect(steps.locator('[aria-current="step"]')).toContainText('Shipping');
  await expect(page.getByRole('heading', { name: 'Your account' })).toBeVisible();

  // The spec's sign-up messages, word for word; a supplement order's consent is to the terms
  // and privacy policy (the spec's consent words are the online visit's).
  await page.getByRole('button', { name: 'Create account and continue' }).click();
  await expect(
    page.getByText('Agree to the Terms of Service and the Privacy Policy to continue'),
  ).toBeVisible();
  await expect(page.getByText('Field required').first()).toBeVisible();
  if (screens) {
    await screens.expectAccessible();
    await shot(page, screens, 'checkout-account');
  }

  await page.getByLabel('Email').fill(email);
  await page.getByLabel('First name').fill('Robin');
  await page.getByLabel('Last name').fill('Hale');
  await page.getByLabel('Password', { exact: true }).fill('a long enough passphrase');
  await page.getByLabel('Date of birth').pressSequentially('07041985');
  await page.getByLabel('Phone').fill('503 555 0142');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create account and continue' }).click();
  await expect(page.getByRole('heading', { name: 'Shipping address' })).toBeVisible();
}

async function ship(page: Page, screens?: Screens) {
  const form = page.getByRole('region', { name: 'Shipping address' });
  await expect(form.getByLabel('Phone')).toHaveValue('(503) 555-0142');
  await form.getByRole('button', { name: 'Continue' }).click();
  await expect(form.getByText('Field required').first()).toBeVisible();
  await form.getByLabel('Street address').fill('88 Alder Road');
  await form.getByLabel('City').fill('Bend');
  await form.getByLabel('State').selectOption('OR');
  await form.getByLabel('ZIP code').fill('9770');
  await form.getByRole('button', { name: 'Continue' }).click();
  await expect(form.getByText('Invalid ZIP code format')).toBeVisible();
  if (screens) {
    await screens.expectAccessible();
    await shot(page, screens, 'checkout-shipping');
  }
  await form.getByLabel('ZIP code').fill('97701');
  await form.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/checkout\/upsell$/);
  const offers = page.getByRole('region', { name: 'Before you pay' });
  await expect(offers.getByRole('button', { name: /^Switch: / })).toBeVisible();
  await expect(offers.getByRole('button', { name: /^Add to order: / })).toBeVisible();
  if (screens) {
    await screens.expectAccessible();
    await shot(page, screens, 'checkout-upsell');
  }
  await offers.getByRole('link', { name: 'No thanks, continue' }).click();
  await expect(page).toHaveURL(/\/checkout\/payment$/);
}

async function pay(page: Page, card: string) {
  const payment = page.getByRole('region', { name: 'Payment' });
  await fillCard(payment, card);
  await payment.getByRole('button', { name: 'Place order' }).dblclick();
}

interface OrdersDetails {
  message: {
    order_history: Record<
      string,
      {
        order_total: number;
        order_items: { product_name: string; quantity: number; frequency: string }[];
      }
    >;
  };
}

async function ordersOf(page: Page): Promise<OrdersDetails['message']['order_history']> {
  const leadsId = await page.evaluate(() => localStorage.getItem('leads_id'));
  const response = await page.request.post('/lapi/account/orders/', {
    data: { leads_id: leadsId },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as OrdersDetails).message.order_history;
}

test.describe('storefront and checkout', () => {
  test('a visitor buys Sleep monthly and Biotin ×2 with WELCOME10, signing up in the checkout', async ({
    page,
    consoleProblems: problems,
    screens,
  }) => {
    const email = uniqueEmail('buyer');
    await fillCart(page, screens);
    await signUpAtCheckout(page, email, screens);
    await ship(page, screens);

    const payment = page.getByRole('region', { name: 'Payment' });
    await payment.getByRole('button', { name: 'Place order' }).click();
    await expect(payment.getByText('Card number is required')).toBeVisible();
    await expect(payment.getByText('Not a valid expiration date')).toBeVisible();
    await expect(payment.getByText('Card security code is Required')).toBeVisible();
    await expect(
      payment.getByText('Continue your payment by checking the box above'),
    ).toBeVisible();
    await screens.expectAccessible();
    await shot(page, screens, 'checkout-payment');

    // A double click on 'Place order' sends one request.
    let sent = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/lapi/v2/ecom/place-order')) sent++;
    });
    const placed = page.waitForResponse((r) => r.url().endsWith('/lapi/v2/ecom/place-order'));
    await pay(page, '4242 4242 4242 4242');
    const answer = (await (await placed).json()) as {
      data: { order_number: string; subscriptions: number; total_cents: number };
    };
    expect(answer.data.subscriptions).toBe(1);
    expect(answer.data.total_cents).toBe(6074);

    await expect(page).toHaveURL(/\/checkout\/complete$/);
    expect(sent).toBe(1);
    const number = answer.data.order_number;
    await expect(
      page.getByRole('heading', { level: 1, name: 'Thank you, your order is placed' }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: number, exact: true })).toHaveAttribute(
      'href',
      `/orders#${number}`,
    );
    await expect(page.getByText('Your subscription has started')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cart, empty' })).toBeAttached();
    await screens.expectAccessible();
    await shot(page, screens, 'checkout-complete');

    // The order, as the customer's own API shows it: both lines, the monthly one a subscription.
    const history = await ordersOf(page);
    const order = history[number];
    expect(order?.order_total).toBe(60.74);
    expect(
      order?.order_items.map((item) => [item.product_name, item.frequency, item.quantity]),
    ).toEqual(
      expect.arrayContaining([
        ['Sleep Gummies', 'MONTHLY', 1],
        ['Biotin Gummies', 'ONE_TIME', 2],
      ]),
    );

    // …and the subscription the monthly line started.
    const leadsId = await page.evaluate(() => localStorage.getItem('leads_id'));
    const subscriptions = await page.request.post('/lapi/account/subscriptions/', {
      data: { leads_id: leadsId },
    });
    expect(subscriptions.status()).toBe(200);
    const list = (
      (await subscriptions.json()) as {
        data: {
          subscriptions: { name: string; frequency: string; quantity: number; status: string }[];
        };
      }
    ).data.subscriptions;
    expect(list.map((sub) => [sub.name, sub.frequency, sub.quantity, sub.status])).toEqual([
      ['Sleep Gummies', 'MONTHLY', 1, 'ACTIVE'],
    ]);

    // The data layer: GA4's ecommerce events in order (decision 020), each item with GA4's item
    // parameters beside spec §3's five fields, and spec §4's steps as a parameter.
    const layer = await page.evaluate(() => window.dataLayer ?? []);
    const events = layer.filter(
      (entry) => typeof entry.event === 'string' && entry.event !== 'exception',
    );
    const names = events.map((entry) => entry.event);
    // The lists (the product page's "More from Pairwell", the shop) and each opening of the
    // drawer come as their data arrives, between the others.
    const lists = ['view_item_list', 'view_cart'];
    expect(names.filter((name) => !lists.includes(name as string))).toEqual([
      'view_item',
      'add_to_cart',
      'add_to_cart',
      'begin_checkout',
      'sign_up',
      'add_shipping_info',
      'add_payment_info',
      'purchase',
    ]);
    expect(names.filter((name) => name === 'view_item_list')).toHaveLength(2);
    expect(names.filter((name) => name === 'view_cart')).toHaveLength(2);
    expect(events.find((entry) => entry.event === 'sign_up')).toEqual({
      event: 'sign_up',
      method: 'email',
    });
    const ecommerceOf = (name: string) =>
      events.find((entry) => entry.event === name)?.ecommerce as Record<string, unknown>;
    expect(
      ['begin_checkout', 'add_shipping_info', 'add_payment_info'].map((name) => {
        const e = ecommerceOf(name);
        return [e.checkout_step, e.checkout_option];
      }),
    ).toEqual([
      [1, 'Shipping'],
      [2, 'Upsell'],
      [3, 'Payment'],
    ]);
    const ecommerce = events
      .filter((entry) => entry.ecommerce)
      .map((entry) => entry.ecommerce as Record<string, unknown>);
    for (const e of ecommerce) {
      if (!('item_list_id' in e)) expect(e.currency).toBe('USD');
      for (const item of e.items as Record<string, unknown>[]) {
        expect(
          Object.keys(item)
            .filter((key) => key !== 'index')
            .sort(),
        ).toEqual([
          'category',
          'id',
          'item_category',
          'item_id',
          'item_name',
          'item_variant',
          'name',
          'price',
          'quantity',
        ]);
        expect(['ed', 'sleep', 'hair']).not.toContain(item.category);
      }
    }
    const purchase = ecommerceOf('purchase');
    expect(purchase).toMatchObject({
      transaction_id: number,
      value: 60.74,
      currency: 'USD',
      tax: 0,
      shipping: 0,
      coupon: 'WELCOME10',
    });
    expect(purchase.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          item_id: '41',
          item_name: 'Sleep Gummies',
          item_variant: 'MONTHLY',
          name: 'Sleep Gummies',
          id: '41',
          category: 'supplements',
          price: 17.5,
          quantity: 1,
        }),
        expect.objectContaining({
          item_id: '30',
          item_name: 'Biotin Gummies',
          item_variant: 'ONE_TIME',
          name: 'Biotin Gummies',
          id: '30',
          category: 'supplements',
          price: 24.99,
          quantity: 2,
        }),
      ]),
    );
    const everything = JSON.stringify(layer);
    expect(everything).not.toContain(email);
    expect(everything).not.toMatch(/4242|0142|passphrase|Alder|97701/);
    expect(everything).not.toMatch(/"category":"(ed|sleep|hair)"/);

    expect(unexpectedProblems(problems, refusals)).toEqual([]);
  });

  test('a declined card stays on the payment step with the reason, and places no order', async ({
    page,
    consoleProblems: problems,
    screens,
  }) => {
    await fillCart(page);
    await signUpAtCheckout(page, uniqueEmail('declined'));
    await ship(page);
    await pay(page, '4000 0000 0000 0002');
    const alert = page.getByRole('alert').filter({ hasText: 'Your card was declined.' });
    await expect(alert).toBeVisible();
    await expect(page).toHaveURL(/\/checkout\/payment$/);
    await screens.expectAccessible();
    await shot(page, screens, 'checkout-declined');

    expect(await ordersOf(page)).toEqual({});
    // The cart is kept for another try.
    const cart = await page.request.post('/lapi/v2/ecom/cart', { data: {} });
    expect(
      ((await cart.json()) as { data: { cart: { item_count: number } } }).data.cart.item_count,
    ).toBe(3);
    await expect(page.getByText('Total today $60.74')).toBeVisible();
    expect(unexpectedProblems(problems, refusals)).toEqual([]);
  });

  test('a reload or a new tab at payment keeps the address given at step 1', async ({
    page,
    consoleProblems: problems,
    screens,
  }) => {
    await fillCart(page);
    await signUpAtCheckout(page, uniqueEmail('reload'));
    await ship(page);
    const shipTo = (p: Page) =>
      p.getByRole('region', { name: 'Payment' }).getByText('88 Alder Road', { exact: false });
    await expect(shipTo(page)).toBeVisible();

    await page.reload();
    await expect(page).toHaveURL(/\/checkout\/payment$/);
    await expect(shipTo(page)).toBeVisible();
    await screens.expectAccessible();
    await shot(page, screens, 'checkout-payment-after-reload');

    // A second tab goes on from the same step, with the same address.
    const tab = await page.context().newPage();
    await tab.goto('/checkout/payment');
    await expect(shipTo(tab)).toBeVisible();
    await tab.close();
    // Back at step 1 the form holds the address given, not the account's empty one.
    await page.getByRole('link', { name: 'Edit shipping address' }).click();
    await expect(page.getByLabel('Street address')).toHaveValue('88 Alder Road');
    expect(unexpectedProblems(problems, refusals)).toEqual([]);
  });

  test('a corrupted browser cart entry is dropped at load and the valid ones stay', async ({
    page,
    consoleProblems: problems,
    screens,
  }) => {
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
      name: 'Immunity Gummies',
      product_id: offers.immunity.quarterly,
      price: 45,
      frequency: 'QUARTERLY',
      description: 'Vitamin C, zinc and elderberry for every season.',
      dose: 'Three bottles every quarter subscription',
      quantity: 1,
      img: '/images/supp-immunity.webp',
    };
    const weekly = { ...sleep, product_id: offers.sleep.monthly, frequency: 'WEEKLY' };
    const { img: _img, ...noImage } = {
      ...immunity,
      product_id: offers.biotin.monthly,
      name: 'Biotin Gummies',
    };
    const stored = JSON.stringify([sleep, weekly, noImage, immunity]);
    await page.addInitScript((value) => {
      if (!sessionStorage.getItem('seeded')) {
        localStorage.setItem('selectedProduct', value);
        sessionStorage.setItem('seeded', '1');
      }
    }, stored);

    await page.goto('/cart');
    await expect(page.getByRole('heading', { level: 1, name: 'Cart' })).toBeVisible();
    const items = page.getByRole('list', { name: 'Items in your cart' }).getByRole('listitem');
    await expect(items).toHaveCount(2);
    await expect(items.nth(0)).toContainText('Sleep Gummies');
    await expect(items.nth(0)).toContainText('$49.98');
    await expect(items.nth(1)).toContainText('Immunity Gummies');
    await expect(items.nth(1)).toContainText('$45.00/quarterly');
    await expect(page.getByRole('button', { name: 'Cart, 3 items' })).toBeAttached();
    const kept = await page.evaluate(() =>
      JSON.parse(localStorage.getItem('selectedProduct') ?? '[]'),
    );
    expect(kept).toEqual([sleep, immunity]);

    // Quantity rules: 1 to 10, and a quantity only where a one-time product allows it.
    await expect(items.nth(1).getByRole('group')).toHaveCount(0);
    const decrease = items
      .nth(0)
      .getByRole('button', { name: 'Decrease quantity of Sleep Gummies' });
    await decrease.click();
    await expect(decrease).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Cart, 2 items' })).toBeAttached();
    await screens.expectAccessible();
    await shot(page, screens, 'cart');

    await page.reload();
    await expect(items).toHaveCount(2);
    expect(unexpectedProblems(problems, refusals)).toEqual([]);
  });

  for (const [width, expected] of [
    [1280, 700],
    [800, 800],
  ] as const) {
    test(`the cart drawer is ${expected}px wide in a ${width}px window`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/shop/holiday-bundle-special');
      await expect(page.getByRole('group', { name: /Quantity/ })).toHaveCount(0);
      await page.getByRole('button', { name: 'Add to cart' }).click();
      const panel = drawer(page);
      await expect(panel).toBeVisible();
      await expect(panel.getByText('3 bottles, one of each')).toBeVisible();
      // Measured once it has slid in: flush with the right edge.
      await expect
        .poll(async () => {
          const box = await panel.boundingBox();
          return box ? [Math.round(box.x + box.width), Math.round(box.width)] : null;
        })
        .toEqual([width, expected]);
      // Focus stays in the drawer; Escape closes it.
      for (let i = 0; i < 8; i++) await page.keyboard.press('Tab');
      expect(await panel.evaluate((el) => el.contains(document.activeElement))).toBe(true);
      await page.keyboard.press('Escape');
      await expect(panel).toBeHidden();
    });
  }

  test('home shows the programs and links every product; an unknown product is a 404', async ({
    page,
    consoleProblems: problems,
    screens,
  }) => {
    await page.goto('/');
    const programs = page.getByRole('region', { name: 'Online visits with a licensed provider' });
    for (const name of ['Erectile dysfunction', 'Sleep', 'Hair']) {
      await expect(programs.getByRole('heading', { name, exact: true })).toBeVisible();
    }
    // Each program opens its online visit.
    for (const category of ['ed', 'sleep', 'hair']) {
      await expect(programs.locator(`a[href="/visit/${category}"]`)).toHaveCount(1);
    }
    await page.locator('#supplements').getByRole('link', { name: 'Biotin Gummies' }).click();
    await expect(page).toHaveURL(/\/shop\/biotin-gummies$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Biotin Gummies' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Shop', exact: true }).first()).toHaveAttribute(
      'href',
      '/shop',
    );
    await page.goto('/shop/no-such-gummies');
    await expect(
      page.getByRole('heading', { level: 1, name: "We can't find that page" }),
    ).toBeVisible();
    await page.goto('/checkout/payment');
    await expect(page).toHaveURL(/\/shop$/);
    await expect(page.getByText('Your cart is empty', { exact: true }).first()).toBeVisible();
    await page.goto('/');
    await shot(page, screens, 'storefront-home');
    expect(unexpectedProblems(problems, refusals)).toEqual([]);
  });
});
