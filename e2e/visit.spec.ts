import crypto from 'node:crypto';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { disqualification } from '../src/shared/questionnaires/engine.ts';
import { edIntakeV1 } from '../src/shared/questionnaires/ed-intake.v1.ts';
import type { QuestionnaireItem } from '../src/shared/questionnaires/format.ts';
import { expectAccessible, screenshot, watchConsole } from './helpers.ts';

/**
 * The ED online visit in a real browser at 375px and 1280px: a new patient in Oregon answers
 * safely, leaves halfway and comes back to the same question, uploads an ID, consents and pays;
 * a patient in Alabama is stopped before any health question. Every screen is checked with axe.
 */

const password = 'a long enough passphrase';

async function newPatient(page: Page): Promise<void> {
  const email = `visit-${crypto.randomBytes(5).toString('hex')}@example.test`;
  const created = await page.request.post('/lapi/account/create/', {
    data: {
      email,
      first_name: 'Jordan',
      last_name: 'Reyes',
      password,
      dob: '04/02/1985',
      phoneNo: '5035550177',
      consent: true,
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  await page.request.post('/lapi/account/logout/', { data: {} });
  await page.goto('/visit/ed');
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.locator('#main').getByRole('button', { name: 'Log in' }).click();
}

async function check(page: Page, testInfo: TestInfo, name: string) {
  await expectAccessible(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, testInfo, `visit-${name}`);
}

/** The same choice as test/visits.ts `safeAnswer`: an answer that neither stops nor flags. */
function safeAnswer(item: QuestionnaireItem) {
  const safe = (value: boolean) => disqualification(item, value) === null;
  switch (item.type) {
    case 'boolean':
      return [false, true].find((v) => safe(v) && !(item.flagWhen && v === item.flagWhen.answer));
    case 'choice':
      return (
        item.options?.find((o) => !o.disqualify && !o.flag) ??
        item.options?.find((o) => !o.disqualify)
      )?.display;
    case 'multi-choice':
      return item.options?.find((o) => o.exclusive && !o.disqualify)?.display;
    case 'integer':
    case 'decimal': {
      const low = item.disqualifyOutside?.min ?? item.min ?? 0;
      const high = item.disqualifyOutside?.max ?? item.max ?? low + 10;
      return String(Math.round((low + high) / 2));
    }
    case 'date':
      return '2024-01-15';
    default:
      return 'Nothing to add.';
  }
}

const questionHeading = (page: Page) => page.locator('#main form h2').first();

/** Answers the question on screen; returns its text. */
async function answerOne(page: Page): Promise<string> {
  const heading = questionHeading(page);
  await expect(heading).toBeVisible();
  const text = (await heading.textContent()) ?? '';
  const item = edIntakeV1.items.find((i) => i.text === text);
  if (!item) throw new Error(`Unknown question: ${text}`);
  const answer = safeAnswer(item);
  const form = page.locator('#main form').first();
  if (item.type === 'boolean')
    await form.getByRole('radio', { name: answer ? 'Yes' : 'No' }).check();
  else if (item.type === 'choice')
    await form.getByRole('radio', { name: String(answer), exact: true }).check();
  else if (item.type === 'multi-choice')
    await form.getByRole('checkbox', { name: String(answer), exact: true }).check();
  else if (item.type === 'text') await form.locator('textarea').fill(String(answer));
  else if (item.type !== 'display') await form.locator('input').fill(String(answer));
  await form.getByRole('button', { name: item.type === 'display' ? 'Continue' : 'Next' }).click();
  await expect(heading).not.toHaveText(text);
  return text;
}

test('a new patient in Oregon completes the ED visit, resuming halfway', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const problems = watchConsole(page);
  await newPatient(page);

  await expect(page).toHaveURL(/\/visit\/ed\/eligibility$/);
  await expect(page.getByRole('heading', { name: 'First, a few details' })).toBeVisible();
  await check(page, testInfo, 'eligibility');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Choose the state you live in')).toBeVisible();
  await expect(page.getByText('You must enter a date of birth.')).toBeVisible();
  await page.getByLabel('State you live in').selectOption('OR');
  await page.getByLabel('Date of birth').fill('04/02/1985');
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/visit\/ed\/questions$/);
  const progress = page.getByRole('progressbar', { name: 'Health questions' });
  await expect(progress).toHaveAttribute('aria-valuenow', '1');
  await check(page, testInfo, 'question-first');

  for (let i = 0; i < 8; i += 1) await answerOne(page);
  const where = await questionHeading(page).textContent();
  const index = await progress.getAttribute('aria-valuenow');
  await check(page, testInfo, 'question-halfway');

  // Leave, and come back from Home's flag: the same question.
  await page.goto('/dashboard');
  const flag = page.locator('a[href="/visit/ed"]').first();
  await expect(flag).toBeVisible();
  await flag.click();
  await expect(page).toHaveURL(/\/visit\/ed\/questions$/);
  await expect(questionHeading(page)).toHaveText(where ?? '');
  await expect(progress).toHaveAttribute('aria-valuenow', index ?? '');

  // Back goes to the question before, and Next returns.
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(questionHeading(page)).not.toHaveText(where ?? '');

  for (let i = 0; i < 60 && /\/questions$/.test(page.url()); i += 1) {
    if (!(await questionHeading(page).isVisible())) break;
    await answerOne(page).catch(async (error: unknown) => {
      if (!/\/questions$/.test(page.url())) return '';
      throw error;
    });
  }

  await expect(page).toHaveURL(/\/visit\/ed\/preferences$/);
  await check(page, testInfo, 'preferences');
  await page.getByRole('radio', { name: /Sildenafil/ }).check();
  await page.getByRole('radio', { name: '50 mg' }).check();
  await page.getByRole('radio', { name: /6 doses a month/ }).check();
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/visit\/ed\/photo$/);
  // A 1×1 PNG.
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );
  await page.getByLabel('Photo of your ID').setInputFiles({
    name: 'id.png',
    mimeType: 'image/png',
    buffer: png,
  });
  await expect(page.getByAltText('Preview of the ID photo you chose')).toBeVisible();
  await check(page, testInfo, 'photo');
  await page.getByRole('button', { name: 'Upload and continue' }).click();

  await expect(page).toHaveURL(/\/visit\/ed\/consent$/);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(
    page.getByText('Continue your online visit by checking the box above'),
  ).toBeVisible();
  await check(page, testInfo, 'consent');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/visit\/ed\/checkout$/);
  await page.getByLabel('Street address').fill('500 Market Street');
  await page.getByLabel('City').fill('Portland');
  await page.getByLabel('State').selectOption('OR');
  await page.getByLabel('ZIP code').fill('97204');
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiration').fill('12/30');
  await page.getByLabel('Security code').fill('123');
  await page.getByRole('checkbox', { name: /I authorize/ }).check();
  await check(page, testInfo, 'checkout');
  await page.getByRole('button', { name: 'Submit my visit' }).click();

  await expect(page).toHaveURL(/\/visit\/ed\/submitted$/);
  await expect(page.getByRole('heading', { name: 'Your visit is with a provider' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'View my order' })).toHaveAttribute(
    'href',
    /^\/orders#/,
  );
  await check(page, testInfo, 'submitted');
  expect(problems.filter((p) => !/status of 40\d /.test(p))).toEqual([]);
});

test('a patient in Alabama is stopped at eligibility, before any health question', async ({
  page,
}, testInfo) => {
  await newPatient(page);
  await expect(page).toHaveURL(/\/visit\/ed\/eligibility$/);
  await page.getByLabel('State you live in').selectOption('AL');
  await page.getByLabel('Date of birth').fill('04/02/1985');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/visit\/ed\/ineligible$/);
  await expect(
    page.getByRole('heading', { name: 'We can’t offer this online visit to you right now' }),
  ).toBeVisible();
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  await check(page, testInfo, 'ineligible');
});
