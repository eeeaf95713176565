import type { Page, Request } from '@playwright/test';
import { createCustomer, expect, fillCard, submitLogIn, test, uniqueEmail } from './fixtures.ts';

/**
 * GA4 ecommerce and the consented tag manager (issue 15, decision 020), on the second server of
 * playwright.config.ts, started with GTM_ID=GTM-E2ETEST. Google's gtm.js is stood in for by a
 * small local script, so no request leaves the machine and each load of it is counted.
 */

const gtmPort = Number(process.env.E2E_GTM_PORT ?? Number(process.env.E2E_PORT ?? 3100) + 1);
test.use({ baseURL: `http://127.0.0.1:${gtmPort}` });

const GTM_SCRIPT = 'https://www.googletagmanager.com/gtm.js?id=GTM-E2ETEST';

/**
 * Stands in for Google's container script and records every request to Google's tag and analytics
 * hosts. The stand-in counts its runs in the page, so a run blocked by the Content-Security-Policy
 * would show.
 */
async function standInForTagManager(page: Page): Promise<Request[]> {
  const requests: Request[] = [];
  page.on('request', (request) => {
    if (/googletagmanager\.com|google-analytics\.com|analytics\.google\.com/.test(request.url()))
      requests.push(request);
  });
  await page.route('https://www.googletagmanager.com/gtm.js?**', (route) =>
    route.fulfill({
      contentType: 'application/javascript',
      body: 'window.gtmStandInRuns = (window.gtmStandInRuns || 0) + 1;',
    }),
  );
  return requests;
}

const standInRuns = (page: Page) =>
  page.evaluate(() => (window as unknown as { gtmStandInRuns?: number }).gtmStandInRuns ?? 0);

/** The data layer, with gtag()'s Arguments objects (Consent Mode) as plain arrays. */
async function dataLayer(page: Page): Promise<unknown[]> {
  return page.evaluate(() =>
    (window.dataLayer ?? []).map((entry) =>
      Object.prototype.toString.call(entry) === '[object Arguments]'
        ? Array.from(entry as unknown as ArrayLike<unknown>)
        : entry,
    ),
  );
}

type Entry = Record<string, unknown>;

/** The events (entries with an `event`, but not the tag manager's own or an error report). */
async function events(page: Page): Promise<Entry[]> {
  return (await dataLayer(page)).filter(
    (entry): entry is Entry =>
      !Array.isArray(entry) &&
      typeof (entry as Entry).event === 'string' &&
      !['gtm.js', 'exception'].includes((entry as Entry).event as string),
  );
}

const consentBanner = (page: Page) =>
  page.getByRole('region', { name: 'May we measure how our shop is used?' });

const deniedDefaults = [
  'consent',
  'default',
  {
    ad_storage: 'denied',
    ad_user_data: 'denied',
    ad_personalization: 'denied',
    analytics_storage: 'denied',
  },
];

test.describe('the tag manager and its consent', () => {
  test('nothing loads without consent; with it, it loads on public pages only', async ({
    page,
    screens,
    consoleProblems,
  }) => {
    const requests = await standInForTagManager(page);
    await page.goto('/');
    await expect(consentBanner(page)).toBeVisible();
    // Consent Mode v2's defaults lead the data layer, all denied.
    expect((await dataLayer(page))[0]).toEqual(deniedDefaults);
    await screens.expectAccessible();
    await screens.windowShot('consent-banner');

    // Browsing on without answering, and then declining, loads nothing, and is remembered.
    await page.goto('/shop');
    await expect(page.getByRole('heading', { level: 1, name: 'Shop' })).toBeVisible();
    await consentBanner(page).getByRole('button', { name: 'Decline' }).click();
    await expect(consentBanner(page)).toBeHidden();
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Shop' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cookie settings' })).toBeVisible();
    await expect(consentBanner(page)).toBeHidden();
    expect(requests).toEqual([]);
    expect(await standInRuns(page)).toBe(0);

    // Cookie settings bring the banner back, with the focus; accepting loads the tag manager.
    await page.getByRole('button', { name: 'Cookie settings' }).click();
    await expect(
      consentBanner(page).getByRole('heading', { name: 'May we measure how our shop is used?' }),
    ).toBeFocused();
    await screens.expectAccessible();
    await consentBanner(page).getByRole('button', { name: 'Accept' }).click();
    await expect(consentBanner(page)).toBeHidden();
    await expect.poll(() => requests.map((request) => request.url())).toEqual([GTM_SCRIPT]);
    // It ran: the public page's Content-Security-Policy lets Google's script in.
    await expect.poll(() => standInRuns(page)).toBe(1);
    expect(await dataLayer(page)).toContainEqual([
      'consent',
      'update',
      { analytics_storage: 'granted' },
    ]);

    // Remembered: the next page load brings it at once, without asking.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Shop' })).toBeVisible();
    await expect.poll(() => standInRuns(page)).toBe(1);
    await expect(consentBanner(page)).toBeHidden();
    expect(requests).toHaveLength(2);

    // A visit's page is a new document: no tag manager in it, and the strict policy.
    await page.goto('/');
    await expect.poll(() => standInRuns(page)).toBe(1);
    const visitPage = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/visit/hair',
    );
    await page.getByRole('link', { name: 'Start your visit: Hair' }).click();
    const visitDocument = await visitPage;
    expect(visitDocument.request().isNavigationRequest()).toBe(true);
    expect(visitDocument.headers()['content-security-policy']).not.toContain('google');
    await expect(page).toHaveURL(/\/visit\/hair$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await standInRuns(page)).toBe(0);
    await expect(consentBanner(page)).toBeHidden();
    await expect(page.getByRole('button', { name: 'Cookie settings' })).toHaveCount(0);
    expect(requests).toHaveLength(3);

    // Nor on a member page or the staff console, opened directly.
    for (const path of ['/dashboard', '/staff/login']) {
      const response = await page.goto(path);
      expect(response?.headers()['content-security-policy'], path).not.toContain('google');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(await standInRuns(page), path).toBe(0);
    }
    expect(requests).toHaveLength(3);
    expect(consoleProblems).toEqual([]);
  });
});

test.describe('GA4 ecommerce as Google documents it', () => {
  test('list, product, cart, checkout with sign-up, purchase: every event and parameter', async ({
    page,
    screens,
  }) => {
    const requests = await standInForTagManager(page);
    const email = uniqueEmail('ga4');
    await page.goto('/shop');
    await expect(page.getByRole('heading', { level: 1, name: 'Shop' })).toBeVisible();
    await consentBanner(page).getByRole('button', { name: 'Accept' }).click();
    await expect.poll(() => standInRuns(page)).toBe(1);

    // List → product.
    await page
      .getByRole('article', { name: 'Sleep Gummies' })
      .getByRole('link', { name: 'Sleep Gummies' })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'Sleep Gummies' })).toBeVisible();
    await page.getByRole('radio', { name: /Monthly/ }).check();
    await page.getByRole('button', { name: 'Add to cart' }).click();
    const drawer = page.getByRole('dialog', { name: /Your cart/ });
    await expect(drawer.getByText('$17.50/month')).toBeVisible();
    await expect
      .poll(() => drawer.evaluate((element) => element.contains(document.activeElement)))
      .toBe(true);
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();

    // A second product, then out of the cart again.
    await page
      .getByRole('navigation', { name: 'Breadcrumb' })
      .getByRole('link', { name: 'Shop' })
      .click();
    const biotin = page.getByRole('article', { name: 'Biotin Gummies' });
    await biotin.getByRole('button', { name: /Add to cart/ }).click();
    await expect(page.getByRole('heading', { name: 'Your cart (2 items)' })).toBeVisible();
    await drawer.getByRole('button', { name: 'Remove Biotin Gummies' }).click();
    await expect(page.getByRole('heading', { name: 'Your cart (1 item)' })).toBeVisible();

    // Cart → checkout, signing up at step 1.
    await drawer.getByRole('link', { name: 'Checkout' }).click();
    await expect(page).toHaveURL(/\/checkout\/shipping$/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('First name').fill('Robin');
    await page.getByLabel('Last name').fill('Hale');
    await page.getByLabel('Password', { exact: true }).fill('a long enough passphrase');
    await page.getByLabel('Date of birth').pressSequentially('07041985');
    await page.getByLabel('Phone').fill('503 555 0142');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Create account and continue' }).click();
    const form = page.getByRole('region', { name: 'Shipping address' });
    await form.getByLabel('Street address').fill('88 Alder Road');
    await form.getByLabel('City').fill('Bend');
    await form.getByLabel('State').selectOption('OR');
    await form.getByLabel('ZIP code').fill('97701');
    await form.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/checkout\/(upsell|payment)$/);
    const skip = page.getByRole('link', { name: 'No thanks, continue' });
    if (new URL(page.url()).pathname === '/checkout/upsell') await skip.click();
    await expect(page).toHaveURL(/\/checkout\/payment$/);
    const payment = page.getByRole('region', { name: 'Payment' });
    await fillCard(payment, '4242 4242 4242 4242');
    const placed = page.waitForResponse((r) => r.url().endsWith('/lapi/v2/ecom/place-order'));
    await payment.getByRole('button', { name: 'Place order' }).click();
    const order = ((await placed.then((r) => r.json())) as { data: { order_number: string } }).data;
    await expect(
      page.getByRole('heading', { level: 1, name: 'Thank you, your order is placed' }),
    ).toBeVisible();
    // One document all along: the tag manager loaded once, and saw every event below.
    expect(requests.map((request) => request.url())).toEqual([GTM_SCRIPT]);

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
    const seen = await events(page);
    const named = (name: string) => seen.filter((entry) => entry.event === name);
    const one = (name: string) => {
      const found = named(name);
      expect(found, name).toHaveLength(1);
      return found[0] as Entry;
    };
    // Each ecommerce event follows GA4's `{ ecommerce: null }` clearing.
    const layer = await dataLayer(page);
    for (const [index, entry] of layer.entries())
      if (!Array.isArray(entry) && (entry as Entry).ecommerce)
        expect(layer[index - 1], JSON.stringify(entry)).toEqual({ ecommerce: null });

    // view_item_list: the shop's list, each item with its place.
    const shopList = named('view_item_list').find(
      (entry) => (entry.ecommerce as Entry).item_list_id === 'shop',
    );
    const listed = (shopList?.ecommerce as { item_list_name: string; items: Entry[] }) ?? {
      items: [],
    };
    expect(listed.item_list_name).toBe('Shop');
    expect(listed.items.map((item) => item.index)).toEqual(listed.items.map((_, i) => i));
    for (const item of listed.items)
      expect(Object.keys(item).sort()).toEqual(
        [
          'category',
          'id',
          'index',
          'item_category',
          'item_id',
          'item_name',
          'item_variant',
          'name',
          'price',
          'quantity',
        ].sort(),
      );
    const sleepInList = listed.items.find((item) => item.item_name === 'Sleep Gummies');
    // select_item: the product opened from that list.
    expect(one('select_item').ecommerce).toEqual({
      item_list_id: 'shop',
      item_list_name: 'Shop',
      items: [sleepInList],
    });
    // view_item: the product page's headline offer.
    expect(one('view_item').ecommerce).toMatchObject({
      currency: 'USD',
      items: [expect.objectContaining({ item_name: 'Sleep Gummies', quantity: 1 })],
    });
    // add_to_cart ×2, remove_from_cart, view_cart each time the drawer opened.
    expect(named('add_to_cart').map((entry) => entry.ecommerce)).toEqual([
      { currency: 'USD', value: 17.5, items: [sleepItem] },
      {
        currency: 'USD',
        value: expect.any(Number),
        items: [expect.objectContaining({ item_name: 'Biotin Gummies', item_variant: 'ONE_TIME' })],
      },
    ]);
    expect(one('remove_from_cart').ecommerce).toMatchObject({
      currency: 'USD',
      items: [expect.objectContaining({ item_name: 'Biotin Gummies', quantity: 1 })],
    });
    expect(named('view_cart').length).toBeGreaterThanOrEqual(2);
    expect(named('view_cart')[0]?.ecommerce).toEqual({
      currency: 'USD',
      value: 17.5,
      items: [sleepItem],
    });
    // The checkout: spec §4's steps as parameters of GA4's events.
    const cart = { currency: 'USD', value: 17.5, items: [sleepItem] };
    expect(one('begin_checkout').ecommerce).toEqual({
      checkout_step: 1,
      checkout_option: 'Shipping',
      ...cart,
    });
    expect(one('sign_up')).toEqual({ event: 'sign_up', method: 'email' });
    expect(one('add_shipping_info').ecommerce).toEqual({
      checkout_step: 2,
      checkout_option: 'Upsell',
      ...cart,
      shipping_tier: 'Free shipping',
    });
    expect(one('add_payment_info').ecommerce).toEqual({
      checkout_step: 3,
      checkout_option: 'Payment',
      ...cart,
      payment_type: 'New card',
    });
    expect(one('purchase').ecommerce).toEqual({
      transaction_id: order.order_number,
      value: 17.5,
      tax: 0,
      shipping: 0,
      currency: 'USD',
      items: [sleepItem],
    });
    // The order of things, as they happened.
    const order_ = seen.map((entry) => entry.event);
    const at = (name: string) => order_.indexOf(name);
    expect(at('view_item_list')).toBeLessThan(at('select_item'));
    expect(at('select_item')).toBeLessThan(at('view_item'));
    expect(at('view_item')).toBeLessThan(at('add_to_cart'));
    expect(at('remove_from_cart')).toBeLessThan(at('begin_checkout'));
    expect(at('begin_checkout')).toBeLessThan(at('sign_up'));
    expect(at('sign_up')).toBeLessThan(at('add_shipping_info'));
    expect(at('add_shipping_info')).toBeLessThan(at('add_payment_info'));
    expect(at('add_payment_info')).toBeLessThan(at('purchase'));

    // Nothing about the person, the card or health.
    const everything = JSON.stringify(layer);
    for (const secret of [email, 'Robin', 'Hale', '4242', '0142', 'passphrase', 'Alder', '97701'])
      expect(everything, secret).not.toContain(secret);
    expect(everything).not.toMatch(/"(item_)?category":"(ed|sleep|hair)"|\/visit\//);
    await screens.expectAccessible();
  });

  test('a log-in says how, never who; a visit is only "started", in a document of its own', async ({
    page,
  }) => {
    const requests = await standInForTagManager(page);
    const customer = await createCustomer(page.request, 'ga4-login');
    await page.request.post('/lapi/account/logout/', { data: {} });
    await page.goto('/login');
    // Declined: no tag manager, so the app moves to the member area inside this document.
    await consentBanner(page).getByRole('button', { name: 'Decline' }).click();
    await submitLogIn(page, customer);
    await expect(page).toHaveURL(/\/dashboard$/);
    expect(await events(page)).toEqual([{ event: 'login', method: 'email' }]);
    expect(JSON.stringify(await dataLayer(page))).not.toContain(customer.email);

    // A logged-in patient opens a visit: one event, with nothing in it.
    await page.goto('/visit/hair');
    await expect(page).toHaveURL(/\/visit\/hair\/\w+/);
    await expect.poll(() => events(page)).toEqual([{ event: 'visit_started' }]);
    expect(await dataLayer(page)).toEqual([deniedDefaults, { event: 'visit_started' }]);
    expect(requests).toEqual([]);
  });
});
