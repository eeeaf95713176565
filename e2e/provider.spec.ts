import crypto from 'node:crypto';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { disqualification } from '../src/shared/questionnaires/engine.ts';
import type { AnswerValue, QuestionnaireItem } from '../src/shared/questionnaires/format.ts';
import { latestQuestionnaire } from '../src/shared/questionnaires/registry.ts';
import { expectAccessible, screenshot, watchConsole, freshTotpCode } from './helpers.ts';

/**
 * The provider's review in a real browser at 375px and 1280px: a fresh patient's ED visit, made
 * and checked out through the API, is opened from the queue; the provider writes to the patient
 * and approves with a prescription; the patient (another browser) sees the order approved and the
 * message, replies, and the provider sees the reply.
 */

const provider = {
  email: 'provider@pairwell.test',
  password: 'pairwell-provider',
  secret: 'JBSWY3DPEHPK3PXP',
};

/** A 1×1 PNG: a valid image by its bytes. */
const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** The answer that keeps a patient in the visit (as test/visits.ts safeAnswer). */
function safeAnswer(item: QuestionnaireItem): AnswerValue {
  const safe = (value: AnswerValue) => disqualification(item, value) === null;
  switch (item.type) {
    case 'boolean':
      return (
        [false, true].find((v) => safe(v) && !(item.flagWhen && v === item.flagWhen.answer)) ??
        false
      );
    case 'choice':
      return (
        item.options?.find((o) => !o.disqualify && !o.flag)?.code ??
        item.options?.find((o) => !o.disqualify)?.code ??
        ''
      );
    case 'multi-choice': {
      const exclusive = item.options?.find((o) => o.exclusive && !o.disqualify);
      return [exclusive?.code ?? item.options?.find((o) => !o.disqualify)?.code ?? ''];
    }
    case 'integer':
    case 'decimal': {
      const low = item.disqualifyOutside?.min ?? item.min ?? 0;
      const high = item.disqualifyOutside?.max ?? item.max ?? low + 10;
      return Math.round((low + high) / 2);
    }
    case 'date':
      return '2024-01-15';
    default:
      return 'Nothing to add.';
  }
}

interface QuestionState {
  item: { linkId: string } | null;
  done: boolean;
}

async function postOk(request: APIRequestContext, url: string, data: unknown) {
  const response = await request.post(url, { data });
  expect(response.status(), `${url}: ${await response.text()}`).toBe(200);
  return (await response.json()) as { data: unknown; message: string };
}

/** A new patient (signed up in `request`'s browser) with a submitted ED visit in Oregon. */
export async function submittedEdVisit(request: APIRequestContext, firstName = 'Jordan') {
  const email = `visit-${crypto.randomBytes(5).toString('hex')}@example.test`;
  const password = 'a long enough passphrase';
  const created = (await postOk(request, '/lapi/account/create/', {
    email,
    first_name: firstName,
    last_name: 'Rivera',
    password,
    dob: '04/12/1985',
    phoneNo: '5035550177',
    consent: true,
  })) as { data: { leads_id: string } };
  const leadsId = created.data.leads_id;
  const started = (await postOk(request, '/lapi/leads/startprogram', {
    leads_id: leadsId,
    new_category: 'ed',
  })) as { data: { visit_id: number } };
  const visitId = started.data.visit_id;
  await postOk(request, '/lapi/visit/eligibility/', {
    visit_id: visitId,
    state: 'OR',
    dob: '04/12/1985',
  });
  const questionnaire = latestQuestionnaire('ed');
  let state = (
    (await postOk(request, '/lapi/v2/questionnaire/next_question', {
      visit_id: visitId,
    })) as { data: QuestionState }
  ).data;
  for (let guard = 0; state.item && guard < 200; guard += 1) {
    const item = questionnaire.items.find((i) => i.linkId === state.item?.linkId);
    if (!item) throw new Error(`unknown item ${state.item.linkId}`);
    state = (
      (item.type === 'display'
        ? await postOk(request, '/lapi/v2/questionnaire/next_question', {
            visit_id: visitId,
            linkId: item.linkId,
          })
        : await postOk(request, '/lapi/v2/questionnaire/submit_question', {
            visit_id: visitId,
            linkId: item.linkId,
            value: safeAnswer(item),
          })) as { data: QuestionState }
    ).data;
  }
  expect(state.done).toBe(true);
  await postOk(request, '/lapi/product/drug/', { visit_id: visitId, drug: 'sildenafil' });
  await postOk(request, '/lapi/product/dosage/', { visit_id: visitId, dosage: '50mg' });
  await postOk(request, '/lapi/product/frequency/', {
    visit_id: visitId,
    frequency: 'as-needed-6',
  });
  const uploaded = await request.post('/lapi/upload_image/', {
    multipart: {
      visit_id: String(visitId),
      fileToUpload: { name: 'id.png', mimeType: 'image/png', buffer: tinyPng },
    },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(200);
  await postOk(request, '/lapi/visit/consent/', { visit_id: visitId, consent: true });
  const checkout = (await postOk(request, '/lapi/visit/checkout/', {
    visit_id: visitId,
    shipping: {
      address: '5 Oak St',
      address2: '',
      city: 'Portland',
      state: 'OR',
      zip: '97201',
      phoneNo: '5035550177',
    },
    billing: null,
    payment: { method: 'card', ccnum: '4242424242424242', ccexp: '12/30', cccvv: '123' },
    consent: true,
  })) as { data: { order_number: string } };
  return { email, password, leadsId, visitId, orderNumber: checkout.data.order_number };
}

/** Each code works once: the second viewport's run uses the next step's code. */
function currentCode(): Promise<string> {
  return freshTotpCode(provider.secret);
}

async function checkAccessible(page: Page) {
  await expect(page.getByRole('button', { name: 'Dismiss notification' })).toHaveCount(0, {
    timeout: 15_000,
  });
  await expectAccessible(page);
}

async function shot(page: Page, testInfo: TestInfo, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, testInfo, name);
}

async function patientLogIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  const form = page
    .locator('main form')
    .filter({ has: page.getByLabel('Password', { exact: true }) });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

test('a provider reviews a visit, writes to the patient and approves; the patient reads and replies', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const problems = watchConsole(page);
  const patientContext = await browser.newContext({
    baseURL: testInfo.project.use.baseURL ?? '',
    viewport: testInfo.project.use.viewport ?? { width: 1280, height: 800 },
  });
  const patient = await submittedEdVisit(patientContext.request);
  const patientPage = await patientContext.newPage();

  // The provider logs in and finds the visit in the queue.
  await page.goto('/staff/login');
  await page.getByLabel('Work email').fill(provider.email);
  await page.getByLabel('Password', { exact: true }).fill(provider.password);
  await page.getByLabel('Authentication code').fill(await currentCode());
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Review queue' })).toBeVisible();
  const link = page.locator(`a[href="/staff/visits/${patient.visitId}"]:visible`);
  await expect(link).toBeVisible();
  await checkAccessible(page);
  await shot(page, testInfo, 'provider-queue');
  await link.click();

  await expect(page.getByRole('heading', { level: 1, name: 'Jordan Rivera' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Photo ID' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Answers' })).toBeVisible();
  await expect(page.getByText(patient.orderNumber)).toBeVisible();
  await checkAccessible(page);
  await shot(page, testInfo, 'provider-chart');

  // A message to the patient.
  const note = 'Hello Jordan, take one tablet about an hour before.';
  await page.getByLabel('Message to the patient').fill(note);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByRole('log').getByText(note)).toBeVisible();

  // Decline is checked for a reason; then approve with the prescription.
  await page.getByRole('button', { name: 'Decline' }).click();
  const decline = page.getByRole('dialog', { name: /Decline/ });
  await decline.getByRole('button', { name: 'Decline visit' }).click();
  await expect(decline.getByText('Tell the patient why, in a sentence or two')).toBeVisible();
  await checkAccessible(page);
  await decline.getByRole('button', { name: 'Go back' }).click();

  await page.getByRole('button', { name: 'Approve' }).click();
  const approve = page.getByRole('dialog', { name: /Approve/ });
  await expect(approve.getByLabel('Drug')).toHaveValue(/sildenafil/i);
  await expect(approve.getByLabel('Dosage')).toHaveValue('50mg');
  await approve.getByLabel('Quantity').fill('6');
  await approve.getByLabel('Refills').fill('2');
  await checkAccessible(page);
  await page.screenshot({
    path: path.resolve('e2e/screenshots', `provider-approve-${testInfo.project.name}.png`),
  });
  await approve.getByRole('button', { name: 'Approve and prescribe' }).click();
  await expect(approve).toBeHidden();
  await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(page.getByText(/Approved/).first()).toBeVisible();

  // The patient sees the order approved and the message, and replies (logging in in the browser).
  await patientContext.clearCookies();
  await patientLogIn(patientPage, patient.email, patient.password);
  await patientPage.goto('/orders');
  const order = patientPage.locator(`[id="${patient.orderNumber}"]`);
  await expect(order).toBeVisible();
  await expect(order.getByText('Awaiting provider review')).toHaveCount(0);
  await patientPage.goto('/messages');
  await expect(patientPage.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
  await expect(patientPage.getByText('1 unread')).toBeVisible();
  await checkAccessible(patientPage);
  await shot(patientPage, testInfo, 'messages-list');
  await patientPage
    .getByRole('button', { name: /unread/ })
    .first()
    .click();
  await expect(patientPage.getByRole('log').getByText(note)).toBeVisible();
  const reply = 'Thank you, I will.';
  await patientPage.getByLabel('Your reply').fill(reply);
  await patientPage.getByRole('button', { name: 'Send reply' }).click();
  await expect(patientPage.getByRole('log').getByText(reply)).toBeVisible();
  await checkAccessible(patientPage);
  await shot(patientPage, testInfo, 'messages-thread');

  // The provider sees the reply (the chart polls; a reload is not needed, but is quicker).
  await page.reload();
  await expect(page.getByRole('log').getByText(reply)).toBeVisible();
  await shot(page, testInfo, 'provider-chart-decided');
  expect(problems).toEqual([]);
  await patientContext.close();
});
