import type { APIRequestContext } from '@playwright/test';
import { latestQuestionnaire } from '../src/shared/questionnaires/registry.ts';
import type { QuestionState } from '../src/shared/visits.ts';
import {
  createCustomer,
  expect,
  logOutThroughApi,
  ops,
  provider,
  test,
  watchConsole,
  type Customer,
} from './fixtures.ts';
import { idCardPng, safeAnswer } from './visit-helpers.ts';

/**
 * A question about treatment goes to a provider, in a real browser at 375px and 1280px: a patient
 * with a submitted visit picks "My treatment", is told who answers and when and where to turn in an
 * emergency, and the provider of their visit finds the question in the console's Patient messages
 * and answers it there. Operations see that a provider has it, not what it says, and hand a
 * question about treatment asked as "Something else" to a provider.
 */

const emergency =
  'If this is an emergency, call 911. If you are thinking about suicide or self-harm, call or text 988.';

/** A name that contains this text as it is. */
const containing = (text: string) => new RegExp(text.replace(/[()]/g, '\\$&'));

async function ok(response: Awaited<ReturnType<APIRequestContext['post']>>) {
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { data: unknown }).data;
}

/** An Oregon ED visit submitted for review through the API (the visit journey has its own test). */
async function patientWithVisit(request: APIRequestContext, prefix: string): Promise<Customer> {
  const customer = await createCustomer(request, prefix, { firstName: 'Avery', lastName: 'Quinn' });
  const post = (url: string, data: Record<string, unknown>) => request.post(url, { data });
  const { visit_id: visitId } = (await ok(
    await post('/lapi/leads/startprogram', { leads_id: customer.leadsId, new_category: 'ed' }),
  )) as { visit_id: number };
  await ok(
    await post('/lapi/visit/eligibility/', { visit_id: visitId, state: 'OR', dob: '04/12/1985' }),
  );
  const questionnaire = latestQuestionnaire('ed');
  let state = (await ok(
    await post('/lapi/v2/questionnaire/next_question', { visit_id: visitId }),
  )) as QuestionState;
  for (let guard = 0; state.item && guard < questionnaire.items.length + 5; guard += 1) {
    const item = questionnaire.items.find((i) => i.linkId === state.item?.linkId);
    if (!item) throw new Error(`Unknown question ${state.item.linkId}`);
    state = (await ok(
      item.type === 'display'
        ? await post('/lapi/v2/questionnaire/next_question', {
            visit_id: visitId,
            linkId: item.linkId,
          })
        : await post('/lapi/v2/questionnaire/submit_question', {
            visit_id: visitId,
            linkId: item.linkId,
            value: safeAnswer(item),
          }),
    )) as QuestionState;
  }
  await ok(await post('/lapi/product/drug/', { visit_id: visitId, drug: 'sildenafil' }));
  await ok(await post('/lapi/product/dosage/', { visit_id: visitId, dosage: '50mg' }));
  await ok(await post('/lapi/product/frequency/', { visit_id: visitId, frequency: 'as-needed-6' }));
  await ok(
    await request.post('/lapi/upload_image/', {
      multipart: {
        visit_id: String(visitId),
        fileToUpload: { name: 'id-card.png', mimeType: 'image/png', buffer: idCardPng() },
      },
    }),
  );
  await ok(await post('/lapi/visit/consent/', { visit_id: visitId, consent: true }));
  await ok(
    await post('/lapi/visit/checkout/', {
      visit_id: visitId,
      shipping: {
        address: '5 Oak St',
        address2: '',
        city: 'Portland',
        state: 'OR',
        zip: '97201',
        phoneNo: '5035550142',
      },
      billing: null,
      payment: { method: 'card', ccnum: '4242 4242 4242 4242', ccexp: '12/30', cccvv: '123' },
      consent: true,
    }),
  );
  await logOutThroughApi(request);
  return customer;
}

test('a patient asks about their treatment and the provider of their visit answers in the console', async ({
  page,
  browser,
  request,
  consoleProblems: problems,
  screens,
  accountNav,
  logIn,
  staffLogIn,
}, testInfo) => {
  // Three people (the patient, operations, the provider), each with a log-in and screenshots.
  test.setTimeout(240_000);
  const patient = await patientWithVisit(request, 'clinical');
  const subject = `Melatonin and wine (${testInfo.project.name})`;
  await logIn(patient);
  await accountNav();
  await page
    .getByRole('link', { name: /^Messages/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/messages$/);

  // --- The patient: a topic is required; who answers, and when, follows the choice.
  await page.getByRole('button', { name: 'New message' }).click();
  const topics = page.getByRole('group', { name: 'What is your message about?' });
  await expect(topics.getByRole('radio')).toHaveCount(3);
  await expect(page.getByRole('note', { name: 'Emergencies' })).toHaveText(emergency);
  await expect(page.getByText('Our care team replies within one business day.')).toBeVisible();
  await page.getByLabel('Subject').fill(subject);
  await page
    .getByLabel('Message', { exact: true })
    .fill('Can I take melatonin with a glass of wine?');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText('Choose what your message is about')).toBeVisible();
  await expect(topics.getByRole('radio', { name: /My treatment/ })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await screens.check('messages-clinical-topic-required');

  await topics.getByRole('radio', { name: /My treatment/ }).check();
  await expect(page.getByText('A provider usually replies within one business day.')).toBeVisible();
  await screens.check('messages-clinical-compose');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText('Your message was sent to your provider.').first()).toBeVisible();
  const thread = page.getByRole('region', { name: subject });
  await expect(thread.getByRole('heading', { level: 2, name: subject })).toBeVisible();
  await expect(thread.getByText('My treatment', { exact: true })).toBeVisible();
  await expect(
    thread.getByText('A provider usually replies within one business day.'),
  ).toBeVisible();
  await expect(thread.getByRole('note', { name: 'Emergencies' })).toHaveText(emergency);
  await screens.check('messages-clinical-sent');

  // --- The provider, in a browser of their own: Patient messages, the question, the answer.
  const staffContext = await browser.newContext({
    baseURL: testInfo.project.use.baseURL ?? '',
    viewport: testInfo.project.use.viewport ?? { width: 1280, height: 800 },
  });
  const staff = await staffContext.newPage();
  const staffProblems = watchConsole(staff);
  const staffScreens = screens.of(staff);
  await staffLogIn(provider, staff);
  await staff
    .getByRole('navigation', { name: 'Console' })
    .getByRole('link', { name: 'Patient messages' })
    .click();
  await expect(staff.getByRole('heading', { level: 1, name: 'Patient messages' })).toBeVisible();
  const item = staff.getByRole('link', { name: containing(subject) });
  await expect(item).toBeVisible();
  await expect(item).toContainText('Avery Q.');
  await expect(item).toContainText('1 new');
  await staffScreens.check('provider-patient-messages');
  await item.click();

  await expect(staff.getByRole('heading', { level: 1, name: subject })).toBeVisible();
  await expect(staff.getByText(/Avery Quinn · Customer \d+ · OR/)).toBeVisible();
  await expect(
    staff.getByRole('log').getByText('Can I take melatonin with a glass of wine?'),
  ).toBeVisible();
  await expect(staff.getByRole('link', { name: 'Open the latest visit' })).toBeVisible();
  const answer = 'Best not together: both make you drowsy. Take melatonin on nights without wine.';
  await staff.getByLabel('Answer to the patient').fill(answer);
  await staff.getByRole('button', { name: 'Send answer' }).click();
  await expect(staff.getByRole('log').getByText(answer)).toBeVisible();
  await expect(staff.getByLabel('Answer to the patient')).toHaveValue('');
  await staffScreens.check('provider-patient-thread');
  await staff
    .getByRole('navigation', { name: 'Console' })
    .getByRole('link', { name: 'Patient messages' })
    .click();
  await expect(item).toContainText('Answered');

  // --- The patient reads the answer.
  await page.reload();
  await expect(thread.getByRole('log').getByText(answer)).toBeVisible();
  await expect(thread.getByRole('log').getByText('Dr. Maya Chen, MD')).toBeVisible();
  await screens.check('messages-clinical-answered');

  await staffContext.close();

  // --- Operations: they see that a provider has the question, not what it says; a question about
  // treatment asked as "Something else" they hand to a provider.
  const other = `Wine after dinner (${testInfo.project.name})`;
  const leadsId = patient.leadsId;
  const asked = await page.request.post('/lapi/messaging/send/', {
    data: { leads_id: leadsId, topic: 'other', subject: other, body: 'And with beer?' },
  });
  expect(asked.status(), await asked.text()).toBe(200);
  const opsContext = await browser.newContext({
    baseURL: testInfo.project.use.baseURL ?? '',
    viewport: testInfo.project.use.viewport ?? { width: 1280, height: 800 },
  });
  const opsPage = await opsContext.newPage();
  const opsProblems = watchConsole(opsPage);
  const opsScreens = screens.of(opsPage);
  await staffLogIn(ops, opsPage);
  await opsPage
    .getByRole('navigation', { name: 'Console' })
    .getByRole('link', { name: 'Inbox' })
    .click();
  const forProviders = opsPage.getByRole('region', { name: 'Questions for providers' });
  await expect(forProviders.getByText('With Dr. Maya Chen, MD').first()).toBeVisible();
  await expect(forProviders).not.toContainText('Melatonin');
  await expect(forProviders.getByRole('link')).toHaveCount(0);
  await opsPage.getByRole('link', { name: containing(other) }).click();
  await expect(opsPage.getByRole('heading', { level: 1, name: other })).toBeVisible();
  await opsPage.getByRole('button', { name: 'Hand to a provider' }).click();
  const dialog = opsPage.getByRole('dialog', { name: 'Hand to a provider' });
  await expect(
    dialog.locator('optgroup[label="Licensed in the patient\'s state"] option'),
  ).toHaveText(['Dr. Maya Chen, MD']);
  await opsScreens.checkAccessible();
  await opsScreens.windowShot('ops-hand-off-dialog');
  await dialog.getByRole('button', { name: 'Hand to this provider' }).click();
  await expect(
    opsPage
      .getByText('Handed to the provider. They answer the patient from their console.')
      .first(),
  ).toBeVisible();
  await expect(opsPage.getByRole('heading', { level: 1, name: 'Inbox' })).toBeVisible();
  await expect(opsPage.getByRole('link', { name: containing(other) })).toHaveCount(0);
  await expect(forProviders.getByText('Waiting for a provider').first()).toBeVisible();
  await opsScreens.check('ops-inbox-questions-for-providers');
  await opsContext.close();

  expect(problems).toEqual([]);
  expect(staffProblems).toEqual([]);
  expect(opsProblems).toEqual([]);
});
