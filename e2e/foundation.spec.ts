import { expect, test } from './fixtures.ts';

test.describe('the public site', () => {
  test('home shows the brand and the four catalogue products with their prices', async ({
    page,
    consoleProblems: problems,
    screens,
  }) => {
    await page.goto('/');
    await expect(page).toHaveTitle('Pairwell — Health Clinic For Couples');
    await expect(page.getByRole('link', { name: 'Pairwell home' }).first()).toHaveAttribute(
      'href',
      '/',
    );
    await expect(page.getByText('Health Clinic For Couples').first()).toBeVisible();

    const products = page.locator('#supplements').getByRole('listitem');
    await expect(products).toHaveCount(4);
    for (const name of [
      'Sleep Gummies',
      'Biotin Gummies',
      'Immunity Gummies',
      'Holiday Bundle Special (Sleep, Hair, and Immunity Gummies)',
    ]) {
      const card = products.filter({ has: page.getByRole('heading', { name, exact: true }) });
      await expect(card).toContainText('$24.99');
      const image = card.getByRole('img');
      await image.scrollIntoViewIfNeeded();
      await expect
        .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
        .toBe(true);
    }
    await expect(products.filter({ hasText: 'Sleep Gummies' }).first()).toContainText(
      '$17.50/month',
    );
    // Every image really loaded (no broken product pictures).
    const broken = await page
      .locator('img')
      .evaluateAll((imgs) =>
        (imgs as HTMLImageElement[])
          .filter((img) => img.complete && img.naturalWidth === 0)
          .map((img) => img.src),
      );
    expect(broken).toEqual([]);

    await screens.expectAccessible();
    await screens.picture('home');
    expect(problems).toEqual([]);
  });

  for (const [path, title, heading] of [
    ['/privacy', 'Privacy Policy — Pairwell', 'Privacy Policy'],
    ['/terms', 'Terms of Service — Pairwell', 'Terms of Service'],
    ['/consent-to-telehealth', 'Consent to Telehealth — Pairwell', 'Consent to Telehealth'],
    ['/faq', 'Frequently Asked Questions — Pairwell', 'Frequently Asked Questions'],
  ] as const) {
    test(`${path} shows its complete text`, async ({
      page,
      consoleProblems: problems,
      screens,
    }) => {
      await page.goto(path);
      await expect(page).toHaveTitle(title);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page.locator('article > header').getByText(/^Last updated/)).toBeVisible();
      // textContent, not innerText: FAQ answers are in closed <details> until opened.
      const words = ((await page.locator('article').textContent()) ?? '').split(/\s+/).length;
      expect(words).toBeGreaterThan(800);
      await expect(page.locator('article')).not.toContainText(/lorem|TODO|coming soon/i);
      await screens.expectAccessible();
      await screens.picture(path.slice(1));
      expect(problems).toEqual([]);
    });
  }

  test('a FAQ answer opens with the keyboard', async ({ page }) => {
    await page.goto('/faq');
    const question = page.locator('summary', { hasText: 'How old do I need to be?' });
    await question.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText(/between 19 and 99 years old/)).toBeVisible();
  });

  test('a legacy /#/ address lands on the plain path', async ({ page, screens }) => {
    await page.goto('/#/faq');
    await expect(page).toHaveURL(/\/faq$/);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Frequently Asked Questions' }),
    ).toBeVisible();
    await screens.expectAccessible();
    await page.goto('/#/terms?ref=mail');
    await expect(page).toHaveURL(/\/terms\?ref=mail$/);
  });

  test('an unknown path shows the 404 page with a way home', async ({ page, screens }) => {
    await page.goto('/no-such-page');
    await expect(
      page.getByRole('heading', { level: 1, name: "We can't find that page" }),
    ).toBeVisible();
    await expect(page.getByText('Error 404')).toBeVisible();
    await screens.expectAccessible();
    await screens.picture('not-found');
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('the API answers an unknown /lapi path with JSON 404', async ({ request }) => {
    const response = await request.get('/lapi/nope');
    expect(response.status()).toBe(404);
    expect(response.headers()['content-type']).toContain('application/json');
    expect(await response.json()).toMatchObject({ status: 'FAILURE', code: 'NOT_FOUND' });
  });

  test('footer links reach every static page', async ({ page }) => {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    for (const [name, path] of [
      ['Privacy Policy', '/privacy'],
      ['Terms of Service', '/terms'],
      ['Consent to Telehealth', '/consent-to-telehealth'],
      ['FAQ', '/faq'],
    ] as const) {
      await footer.getByRole('link', { name, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
    }
    await expect(footer.getByRole('link', { name: 'support@pairwell.example' })).toHaveAttribute(
      'href',
      'mailto:support@pairwell.example',
    );
  });
});
