import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { expect, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import type { Questionnaire, QuestionnaireItem } from '../src/shared/questionnaires/format.ts';
import { safeAnswer } from '../test/safe-answer.ts';
import { expectAccessible, freshTotpCode, screenshot } from './helpers.ts';

export { safeAnswer };

/**
 * What the online-visit journeys share: fresh patients, logging in, answering the intake
 * questionnaire on screen, the provider's staff log-in, a photo to upload, axe and screenshots.
 */

export const patientPassword = 'a long enough passphrase';

export const provider = {
  email: 'provider@pairwell.test',
  password: 'pairwell-provider',
  secret: 'JBSWY3DPEHPK3PXP',
};

/** An e-mail no other journey (or earlier run on the same database) has used. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${crypto.randomBytes(5).toString('hex')}@example.test`;
}

/** A new patient made through the API in `request`'s browser, then logged out again. */
export async function signUpThroughApi(
  request: APIRequestContext,
  prefix: string,
  name: { first: string; last: string } = { first: 'Jordan', last: 'Reyes' },
): Promise<{ email: string; password: string }> {
  const email = uniqueEmail(prefix);
  const created = await request.post('/lapi/account/create/', {
    data: {
      email,
      first_name: name.first,
      last_name: name.last,
      password: patientPassword,
      dob: '04/02/1985',
      phoneNo: '5035550177',
      consent: true,
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  const out = await request.post('/lapi/account/logout/', { data: {} });
  expect(out.status(), await out.text()).toBe(200);
  return { email, password: patientPassword };
}

/** Fills the log-in form of /login (the page must be showing it) and sends it. */
export async function submitLogIn(page: Page, email: string, password: string): Promise<void> {
  const form = page
    .locator('main form')
    .filter({ has: page.getByLabel('Password', { exact: true }) });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Log in' }).click();
}

/** Logs in at /login and waits for the member area's home. */
export async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await submitLogIn(page, email, password);
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** The provider's staff log-in with the second factor, ending on the review queue. */
export async function providerLogIn(page: Page): Promise<void> {
  await page.goto('/staff/login');
  await page.getByLabel('Work email').fill(provider.email);
  await page.getByLabel('Password', { exact: true }).fill(provider.password);
  // Each code works once: the second viewport's run uses the next step's code.
  await page.getByLabel('Authentication code').fill(await freshTotpCode(provider.secret));
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Review queue' })).toBeVisible();
}

/** axe, once any toast has gone (caught mid-fade, its text reads as low contrast). */
export async function checkAccessible(page: Page): Promise<void> {
  await expect(page.getByRole('button', { name: 'Dismiss notification' })).toHaveCount(0, {
    timeout: 15_000,
  });
  await expectAccessible(page);
}

/** A full-page screenshot from the top of the page. */
export async function shot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, testInfo, name);
}

/** axe and a screenshot: every screen of the visit gets both. */
export async function checkScreen(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await checkAccessible(page);
  await shot(page, testInfo, name);
}

/** The question on screen: the visit's form's heading. */
export const questionHeading = (page: Page) => page.locator('#main form h2').first();

/** The item whose text is the question on screen (waits for one to show). */
export async function currentItem(
  page: Page,
  questionnaire: Questionnaire,
): Promise<QuestionnaireItem> {
  const heading = questionHeading(page);
  await expect(heading).toBeVisible();
  const text = (await heading.textContent()) ?? '';
  const item = questionnaire.items.find((i) => i.text === text);
  if (!item) throw new Error(`Unknown question on screen: ${text}`);
  return item;
}

function optionDisplay(item: QuestionnaireItem, code: string): string {
  const option = item.options?.find((o) => o.code === code);
  if (!option) throw new Error(`No option ${code} in ${item.linkId}`);
  return option.display;
}

/**
 * Answers the question on screen safely, through its controls, and presses Next (Continue for a
 * display item); waits for the next screen. Returns the item answered.
 */
export async function answerQuestion(
  page: Page,
  questionnaire: Questionnaire,
): Promise<QuestionnaireItem> {
  const item = await currentItem(page, questionnaire);
  const answer = safeAnswer(item);
  const form = page.locator('#main form').first();
  if (item.type === 'boolean') {
    await form.getByRole('radio', { name: answer ? 'Yes' : 'No', exact: true }).check();
  } else if (item.type === 'choice') {
    await form
      .getByRole('radio', { name: optionDisplay(item, String(answer)), exact: true })
      .check();
  } else if (item.type === 'multi-choice') {
    for (const code of answer as string[])
      await form.getByRole('checkbox', { name: optionDisplay(item, code), exact: true }).check();
  } else if (item.type === 'text') {
    await form.getByRole('textbox', { name: item.text }).fill(String(answer));
  } else if (item.type !== 'display') {
    await form.locator('input').fill(String(answer));
  }
  await form.getByRole('button', { name: item.type === 'display' ? 'Continue' : 'Next' }).click();
  // The next question, or the next step of the visit.
  await expect(async () => {
    const stillHere =
      /\/questions$/.test(page.url()) &&
      (await questionHeading(page)
        .textContent({ timeout: 1_000 })
        .catch(() => null)) === item.text;
    expect(stillHere, `still on "${item.text}"`).toBe(false);
  }).toPass({ timeout: 10_000 });
  return item;
}

/** Answers until the questionnaire hands over to the preferences step. */
export async function answerAllQuestions(
  page: Page,
  questionnaire: Questionnaire,
  onQuestion?: (item: QuestionnaireItem) => Promise<void>,
): Promise<QuestionnaireItem[]> {
  const answered: QuestionnaireItem[] = [];
  for (let guard = 0; guard < questionnaire.items.length + 5; guard += 1) {
    await expect(page).toHaveURL(/\/(questions|preferences)$/);
    if (/\/preferences$/.test(page.url())) return answered;
    // The last answer may still be on its way to the preferences step.
    const item = await currentItem(page, questionnaire).catch(async (error: unknown) => {
      if (/\/preferences$/.test(page.url())) return null;
      throw error;
    });
    if (!item) return answered;
    if (onQuestion) await onQuestion(item);
    answered.push(await answerQuestion(page, questionnaire));
  }
  throw new Error('The questionnaire did not end');
}

/**
 * A small PNG that looks like an ID card (so the preview and the provider's chart show something),
 * made here: valid by its bytes, as the server checks.
 */
export function idCardPng(width = 240, height = 150): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y += 1) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x += 1) {
      let rgb: [number, number, number] = [232, 242, 250]; // card
      if (y < 28)
        rgb = [31, 94, 140]; // header band
      else if (x >= 16 && x < 76 && y >= 44 && y < 124)
        rgb = [150, 165, 180]; // photo
      else if (x >= 92 && x < 220 && (y - 48) % 20 < 6 && y < 128) rgb = [120, 135, 150]; // text
      row.set(rgb, 1 + x * 3);
    }
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Eligibility as an Oregon adult, on the visit's eligibility screen. */
export async function passEligibility(page: Page): Promise<void> {
  await page.getByLabel('State you live in').selectOption('OR');
  await page.getByLabel('Date of birth').fill('04/02/1985');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/questions$/);
}
