import zlib from 'node:zlib';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import type { Questionnaire, QuestionnaireItem } from '../src/shared/questionnaires/format.ts';
import { latestQuestionnaire } from '../src/shared/questionnaires/registry.ts';
import type { QuestionState } from '../src/shared/visits.ts';
import { safeAnswer } from '../test/safe-answer.ts';

export { safeAnswer };

/**
 * What the online-visit journeys share besides the fixtures: answering the intake questionnaire on
 * screen, eligibility, and a photo to upload.
 */

/** The question on screen: the visit's form's heading. */
export const questionHeading = (page: Page): Locator => page.locator('#main form h2').first();

/**
 * The item whose text is the question on screen (waits for one to show). A known item (the age
 * from the date of birth) is never on screen, so it is not looked for.
 */
export async function currentItem(
  page: Page,
  questionnaire: Questionnaire,
): Promise<QuestionnaireItem> {
  const heading = questionHeading(page);
  await expect(heading).toBeVisible();
  const text = (await heading.textContent()) ?? '';
  const item = questionnaire.items.find((i) => !i.known && i.text === text);
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
  // The next question, or the next step of the visit: seen, not assumed. A heading that cannot be
  // read for a moment (the form redrawn while the answer is sent) is not yet the next question.
  await expect(async () => {
    const heading = /\/questions$/.test(page.url())
      ? await questionHeading(page)
          .textContent({ timeout: 1_000 })
          .catch(() => null)
      : undefined;
    const movedOn = heading === undefined || (heading !== null && heading !== item.text);
    expect(movedOn, `still on "${item.text}"`).toBe(true);
  }).toPass({ timeout: 10_000 });
  return item;
}

/**
 * Answers until the questionnaire ends at the review of the answers; there, presses "Continue" and
 * waits for the preferences step, unless `stopAtReview` (the journey reviews them itself).
 */
export async function answerAllQuestions(
  page: Page,
  questionnaire: Questionnaire,
  onQuestion?: (item: QuestionnaireItem) => Promise<void>,
  { stopAtReview = false }: { stopAtReview?: boolean } = {},
): Promise<QuestionnaireItem[]> {
  const answered: QuestionnaireItem[] = [];
  const atReview = () => /\/answers$/.test(page.url());
  for (let guard = 0; guard < questionnaire.items.length + 5; guard += 1) {
    await expect(page).toHaveURL(/\/(questions|answers)$/);
    // The last answer may still be on its way to the review.
    const item = atReview()
      ? null
      : await currentItem(page, questionnaire).catch(async (error: unknown) => {
          if (atReview()) return null;
          throw error;
        });
    if (!item) {
      await expect(page.getByRole('heading', { name: 'Review your answers' })).toBeVisible();
      if (stopAtReview) return answered;
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page).toHaveURL(/\/preferences$/);
      return answered;
    }
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

// --- A visit made through the API ----------------------------------------------------------------

const edQuestionnaire = latestQuestionnaire('ed');

async function okData<T>(response: Awaited<ReturnType<APIRequestContext['post']>>): Promise<T> {
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { data: T }).data;
}

/** An ED visit in Oregon submitted for review by the patient logged in to `api`. */
export async function submitEdVisit(
  api: APIRequestContext,
  leadsId: string,
): Promise<{ visitId: number; orderNumber: string }> {
  const visitId = await edVisitAtCheckout(api, leadsId);
  const { order_number: orderNumber } = await okData<{ order_number: string }>(
    await api.post('/lapi/visit/checkout/', {
      data: {
        visit_id: visitId,
        shipping: {
          address: '5 Oak Street',
          address2: '',
          city: 'Portland',
          state: 'OR',
          zip: '97201',
          phoneNo: '5035550142',
        },
        billing: null,
        payment: { method: 'card', ccnum: '4242 4242 4242 4242', ccexp: '12/30', cccvv: '123' },
        consent: true,
      },
    }),
  );
  return { visitId, orderNumber };
}

/**
 * An ED visit in Oregon taken through eligibility, questions, treatment, photo ID and consent by
 * the patient logged in to `api`: what is left is its checkout.
 */
export async function edVisitAtCheckout(api: APIRequestContext, leadsId: string): Promise<number> {
  const { visit_id: visitId } = await okData<{ visit_id: number }>(
    await api.post('/lapi/leads/startprogram', {
      data: { leads_id: leadsId, new_category: 'ed' },
    }),
  );
  await okData(
    await api.post('/lapi/visit/eligibility/', {
      data: { visit_id: visitId, state: 'OR', dob: '04/12/1985' },
    }),
  );
  let state = await okData<QuestionState>(
    await api.post('/lapi/v2/questionnaire/next_question', { data: { visit_id: visitId } }),
  );
  for (let guard = 0; state.item && guard < edQuestionnaire.items.length + 5; guard += 1) {
    const item = edQuestionnaire.items.find((i) => i.linkId === state.item?.linkId);
    if (!item) throw new Error(`Unknown question ${state.item.linkId}`);
    state = await okData<QuestionState>(
      item.type === 'display'
        ? await api.post('/lapi/v2/questionnaire/next_question', {
            data: { visit_id: visitId, linkId: item.linkId },
          })
        : await api.post('/lapi/v2/questionnaire/submit_question', {
            data: { visit_id: visitId, linkId: item.linkId, value: safeAnswer(item) },
          }),
    );
  }
  expect(state.done).toBe(true);
  await okData(
    await api.post('/lapi/product/drug/', { data: { visit_id: visitId, drug: 'sildenafil' } }),
  );
  await okData(
    await api.post('/lapi/product/dosage/', { data: { visit_id: visitId, dosage: '50mg' } }),
  );
  await okData(
    await api.post('/lapi/product/frequency/', {
      data: { visit_id: visitId, frequency: 'as-needed-6' },
    }),
  );
  await okData(
    await api.post('/lapi/upload_image/', {
      multipart: {
        visit_id: String(visitId),
        fileToUpload: { name: 'id.png', mimeType: 'image/png', buffer: idCardPng() },
      },
    }),
  );
  await okData(
    await api.post('/lapi/visit/consent/', { data: { visit_id: visitId, consent: true } }),
  );
  return visitId;
}
