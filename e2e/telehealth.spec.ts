import crypto from 'node:crypto';
import type { Page } from '@playwright/test';
import type { QuestionnaireItem } from '../src/shared/questionnaires/format.ts';
import { latestQuestionnaire } from '../src/shared/questionnaires/registry.ts';
import {
  clientErrorStatuses,
  expect,
  fillCard,
  patientPassword,
  provider,
  signUpThroughApi,
  submitLogIn,
  test,
  uniqueEmail,
  unexpectedProblems,
  watchConsole,
} from './fixtures.ts';
import {
  answerAllQuestions,
  answerQuestion,
  currentItem,
  idCardPng,
  questionHeading,
  safeAnswer,
} from './visit-helpers.ts';

/**
 * Issue #6, "Must show" 3, in a real Chromium at 375px and 1280px and in two browsers: a new
 * patient in Oregon starts the home page's ED program, answers its eligibility, creates the account
 * as the visit's next step, stops halfway through the health questions, logs in again and finishes
 * from Orders → Pending orders → Finish at the same question, chooses a treatment, uploads an ID,
 * consents and pays; the provider logs in with the second factor, writes to the patient and
 * approves; the patient sees the order approved and the message, replies, and the provider sees the
 * reply. A patient in Alabama is stopped before any health
 * question. Every screen of the visit is checked with axe and photographed.
 */

const questionnaire = latestQuestionnaire('ed');

// A control that never shows fails in seconds, not at the end of the journey's long time-out.
test.use({ actionTimeout: 15_000 });

/**
 * A first name no other run shares, so the provider finds this patient in a long queue (which shows
 * first names and initials only).
 */
function uniqueFirstName(): string {
  const letters = Array.from(crypto.randomBytes(6), (b) => 'abcdefghijklmnopqrstuvwxyz'[b % 26]);
  return `Jo${letters.join('')}`;
}

/** The saved answer shows again when the patient goes back to a question. */
async function expectAnswerShown(page: Page, item: QuestionnaireItem): Promise<void> {
  const form = page.locator('#main form').first();
  const answer = safeAnswer(item);
  const display = (code: string) => item.options?.find((o) => o.code === code)?.display ?? code;
  if (item.type === 'boolean')
    await expect(form.getByRole('radio', { name: answer ? 'Yes' : 'No' })).toBeChecked();
  else if (item.type === 'choice')
    await expect(
      form.getByRole('radio', { name: display(String(answer)), exact: true }),
    ).toBeChecked();
  else if (item.type === 'multi-choice')
    for (const code of answer as string[])
      await expect(form.getByRole('checkbox', { name: display(code), exact: true })).toBeChecked();
  else if (item.type !== 'display')
    await expect(form.locator('input, textarea').first()).toHaveValue(String(answer));
}

test('a new patient in Oregon completes the ED visit across a log-out, and talks with the provider who approves it', async ({
  page,
  browser,
  consoleProblems: problems,
  screens,
  accountNav,
  staffLogIn,
}, testInfo) => {
  test.setTimeout(300_000);
  const email = uniqueEmail('telehealth');
  const firstName = uniqueFirstName();

  // --- The home page's ED program: the visit starts at once, with its eligibility (no log-in).
  await page.goto('/');
  await page.getByRole('link', { name: /^Start your visit\W+Erectile dysfunction$/ }).click();
  await expect(page).toHaveURL(/\/visit\/ed$/);
  await expect(page.getByRole('heading', { name: 'First, a few details' })).toBeVisible();
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  await screens.check('visit-eligibility');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Choose the state you live in')).toBeVisible();
  await expect(page.getByText('You must enter a date of birth.')).toBeVisible();
  await expect(page.getByLabel('State you live in')).toHaveAttribute('aria-invalid', 'true');
  await screens.check('visit-eligibility-errors');
  await page.getByLabel('State you live in').selectOption('OR');
  await page.getByLabel('Date of birth').fill('04/02/1985');
  await page.getByRole('button', { name: 'Continue' }).click();

  // --- The account, as a step of the visit: the date of birth is not asked again.
  await expect(page).toHaveURL(/\/visit\/ed\/account$/);
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await expect(page.getByLabel('Date of birth')).toHaveCount(0);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('First name').fill(firstName);
  await page.getByLabel('Last name').fill('Reyes');
  await page.getByLabel('Password', { exact: true }).fill(patientPassword);
  await page.getByLabel('Phone').fill('5035550177');
  await page.locator('main').getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create account and continue' }).click();

  // --- The health questions: each kind of question screen checked the first time it shows.
  await expect(page).toHaveURL(/\/visit\/ed\/questions$/);
  const progress = page.getByRole('progressbar', { name: 'Health questions' });
  // The welcome counts no question (issue 29): it says how many are ahead.
  await expect(progress).toHaveAttribute('aria-valuenow', '0');
  await expect(progress).toHaveAttribute('aria-valuetext', /^\d+ questions ahead$/);
  const kindsSeen = new Set<string>();
  const checkKind = async (item: QuestionnaireItem) => {
    if (kindsSeen.has(item.type)) return;
    kindsSeen.add(item.type);
    await screens.check(`visit-question-${item.type}`);
    if (item.type === 'choice') {
      // Next without an answer: the question says so, and nothing moves on.
      await page.getByRole('button', { name: 'Next' }).click();
      await expect(page.getByText('Please answer this question.')).toBeVisible();
      await expect(page.getByRole('radiogroup')).toHaveAttribute('aria-invalid', 'true');
      await expect(questionHeading(page)).toHaveText(item.text);
      await screens.check('visit-question-required');
    }
  };

  // About half of them, then the patient stops.
  const total = Number(await progress.getAttribute('aria-valuemax'));
  expect(total).toBeGreaterThan(10);
  while (Number(await progress.getAttribute('aria-valuenow')) <= total / 2) {
    await checkKind(await currentItem(page, questionnaire));
    await answerQuestion(page, questionnaire);
  }
  const stoppedAt = await currentItem(page, questionnaire);
  const stoppedIndex = (await progress.getAttribute('aria-valuenow')) ?? '';
  await screens.shot('visit-question-halfway');

  // --- Stop: Home names the unfinished visit; the patient logs out.
  await page.goto('/dashboard');
  await expect(page.getByRole('link', { name: 'Finish your visit' })).toHaveAttribute(
    'href',
    '/visit/ed',
  );
  await accountNav();
  await page.getByRole('link', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);

  // --- Log in again, and finish from Orders → Pending orders.
  await submitLogIn(page, { email, password: patientPassword });
  await expect(page).toHaveURL(/\/dashboard$/);
  await accountNav();
  await page.getByRole('link', { name: 'Orders', exact: true }).first().click();
  await expect(page).toHaveURL(/\/orders$/);
  const pending = page.getByRole('region', { name: 'Pending orders' });
  await expect(pending).toContainText('Erectile dysfunction treatment — online visit');
  await screens.check('orders-pending');
  await pending.getByRole('button', { name: /^Finish/ }).click();

  // The same question, the same place in the questionnaire.
  await expect(page).toHaveURL(/\/visit\/ed\/questions$/);
  await expect(questionHeading(page)).toHaveText(stoppedAt.text);
  await expect(progress).toHaveAttribute('aria-valuenow', stoppedIndex);
  await screens.shot('visit-question-resumed');

  // Back shows the question before with its saved answer; Next returns.
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(questionHeading(page)).not.toHaveText(stoppedAt.text);
  await expect(progress).toHaveAttribute('aria-valuenow', String(Number(stoppedIndex) - 1));
  await expectAnswerShown(page, await currentItem(page, questionnaire));
  await page.getByRole('button', { name: /^(Next|Continue)$/ }).click();
  await expect(questionHeading(page)).toHaveText(stoppedAt.text);

  await answerAllQuestions(page, questionnaire, checkKind);
  // Every kind of question the ED intake has was on screen (and checked).
  expect([...kindsSeen].sort()).toEqual(
    [...new Set(questionnaire.items.map((i) => i.type))].filter((t) => t !== 'decimal').sort(),
  );

  // --- Treatment preferences.
  await expect(page).toHaveURL(/\/visit\/ed\/preferences$/);
  await expect(page.getByRole('heading', { name: 'Your treatment preferences' })).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Choose a treatment')).toBeVisible();
  await screens.check('visit-preferences-errors');
  await page.getByRole('radio', { name: /Sildenafil/ }).check();
  await expect(page.getByText('Choose a treatment')).toHaveCount(0);
  await page.getByRole('radio', { name: '50 mg' }).check();
  await page.getByRole('radio', { name: /6 doses a month/ }).check();
  await screens.check('visit-preferences');
  await page.getByRole('button', { name: 'Continue' }).click();

  // --- Photo ID: a PNG made here, previewed before it is sent.
  await expect(page).toHaveURL(/\/visit\/ed\/photo$/);
  await page.getByRole('button', { name: 'Upload and continue' }).click();
  await expect(page.getByText('Please choose a photo of your ID.')).toBeVisible();
  await screens.check('visit-photo-errors');
  await page.getByLabel('Photo of your ID').setInputFiles({
    name: 'id-card.png',
    mimeType: 'image/png',
    buffer: idCardPng(),
  });
  await expect(page.getByAltText('Preview of the ID photo you chose')).toBeVisible();
  await expect(page.getByText('Please choose a photo of your ID.')).toHaveCount(0);
  await screens.check('visit-photo');
  await page.getByRole('button', { name: 'Upload and continue' }).click();

  // --- Consent to telehealth.
  await expect(page).toHaveURL(/\/visit\/ed\/consent$/);
  await expect(
    page.locator('#main form').getByRole('link', { name: /Consent to Telehealth/ }),
  ).toHaveAttribute('href', '/consent-to-telehealth');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(
    page.getByText('Continue your online visit by checking the box above'),
  ).toBeVisible();
  await screens.check('visit-consent');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Continue' }).click();

  // --- Checkout: the card is authorised, not charged.
  await expect(page).toHaveURL(/\/visit\/ed\/checkout$/);
  await expect(page.getByRole('heading', { name: 'Shipping and payment' })).toBeVisible();
  // What the card will be charged, and how refills renew and stop, before it is asked for.
  const price = page.getByRole('region', { name: 'Your treatment and price' });
  await expect(price).toContainText('Sildenafil (generic Viagra®), 50 mg');
  await expect(price).toContainText('6 doses a month, as needed');
  await expect(price).toContainText('$30.00 a month');
  await expect(price.getByText('Authorized now')).toBeVisible();
  await expect(price.getByText('Charged only if your provider approves')).toBeVisible();
  await expect(price.getByText(/charged \$30\.00 automatically each month/)).toBeVisible();
  await expect(price.getByRole('link', { name: /^Subscriptions/ })).toHaveAttribute(
    'href',
    '/subscriptions',
  );
  await expect(
    page.getByRole('checkbox', {
      name: /charge my card \$30\.00 .* \$30\.00 every month after that until they run out or I cancel\. I can cancel any time/,
    }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Submit my visit' }).click();
  await expect(page.getByLabel('Street address')).toHaveAttribute('aria-invalid', 'true');
  // The first field with a problem, at the top of the form, takes focus.
  await expect(page.getByLabel('Street address')).toBeFocused();
  await screens.check('visit-checkout-errors');
  await page.getByLabel('Street address').fill('500 Market Street');
  await page.getByLabel('City').fill('Portland');
  await page.getByLabel('State').selectOption('OR');
  await page.getByLabel('ZIP code').fill('97204');
  await page.getByLabel('Phone').fill('5035550177');
  await fillCard(page, '4242 4242 4242 4242');
  await screens.check('visit-checkout');
  await page.getByRole('button', { name: 'Submit my visit' }).click();

  // --- Submitted: the order waits for a provider.
  await expect(page).toHaveURL(/\/visit\/ed\/submitted$/);
  await expect(page.getByRole('heading', { name: 'Your visit is with a provider' })).toBeVisible();
  await expect(page.getByText(/authorised, not yet charged/)).toBeVisible();
  const viewOrder = page.getByRole('link', { name: 'View my order' });
  const href = (await viewOrder.getAttribute('href')) ?? '';
  const orderNumber = decodeURIComponent(/^\/orders#(.+)$/.exec(href)?.[1] ?? '');
  expect(orderNumber).not.toBe('');
  await screens.check('visit-submitted');
  await viewOrder.click();
  const order = page.locator(`[id="${orderNumber}"]`);
  await expect(order).toContainText('Awaiting provider review');
  await expect(page.getByRole('region', { name: 'Pending orders' })).toHaveCount(0);

  // --- The provider, in a browser of their own: second factor, queue, chart.
  const staffContext = await browser.newContext({
    baseURL: testInfo.project.use.baseURL ?? '',
    viewport: testInfo.project.use.viewport ?? { width: 1280, height: 800 },
  });
  const staff = await staffContext.newPage();
  const staffProblems = watchConsole(staff);
  const staffScreens = screens.of(staff);
  await staffLogIn(provider, staff);
  const row = staff.locator('a:visible', { hasText: `${firstName} R.` });
  await expect(row).toBeVisible();
  await staffScreens.check('provider-queue');
  await row.click();

  await expect(staff.getByRole('heading', { level: 1, name: `${firstName} Reyes` })).toBeVisible();
  await expect(staff.getByRole('img', { name: 'Photo ID' })).toBeVisible();
  await expect(staff.getByRole('heading', { name: 'Answers' })).toBeVisible();
  await expect(staff.getByText(orderNumber)).toBeVisible();
  await staffScreens.check('provider-chart');

  const note = `Hello ${firstName}, take one tablet about an hour before.`;
  await staff.getByLabel('Message to the patient').fill(note);
  await staff.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(staff.getByRole('log').getByText(note)).toBeVisible();

  // A decline needs a reason; the provider goes back and approves with a prescription.
  await staff.getByRole('button', { name: 'Decline' }).click();
  const decline = staff.getByRole('dialog', { name: /Decline/ });
  await decline.getByRole('button', { name: 'Decline visit' }).click();
  await expect(decline.getByText('Tell the patient why, in a sentence or two')).toBeVisible();
  await staffScreens.checkAccessible();
  await decline.getByRole('button', { name: 'Go back' }).click();

  await staff.getByRole('button', { name: 'Approve' }).click();
  const approve = staff.getByRole('dialog', { name: /Approve/ });
  await expect(approve.getByLabel('Drug')).toHaveValue(/sildenafil/i);
  await expect(approve.getByLabel('Dosage')).toHaveValue('50mg');
  // The quantity comes from the patient's choice ('6 doses a month'); the directions are required.
  await expect(approve.getByLabel('Quantity')).toHaveValue('6');
  await approve.getByLabel('Refills').fill('2');
  await approve.getByLabel('Directions (sig)').fill('Take one tablet about an hour before sex.');
  await staffScreens.checkAccessible();
  await staffScreens.windowShot('provider-approve');
  await approve.getByRole('button', { name: 'Approve and prescribe' }).click();
  await expect(approve).toBeHidden();
  await expect(staff.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(staff.getByText(/Approved/).first()).toBeVisible();

  // --- The patient: the order is approved, and the provider's message is waiting.
  await page.reload();
  await expect(order).toBeVisible();
  await expect(order).toContainText('Processing');
  await expect(order).not.toContainText('Awaiting provider review');
  await screens.shot('orders-approved');
  await accountNav();
  await page
    .getByRole('link', { name: /^Messages/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/messages$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
  await expect(page.getByText('1 unread')).toBeVisible();
  await screens.check('messages-list');
  await page
    .getByRole('button', { name: /unread/ })
    .first()
    .click();
  await expect(page.getByRole('log').getByText(note)).toBeVisible();
  const reply = 'Thank you, I will.';
  await page.getByLabel('Your reply').fill(reply);
  await page.getByRole('button', { name: 'Send reply' }).click();
  await expect(page.getByRole('log').getByText(reply)).toBeVisible();
  await screens.check('messages-thread');

  // The two prescribed refills are a monthly plan on Subscriptions.
  await page.goto('/subscriptions');
  const plan = page.getByRole('article', { name: 'Sildenafil (generic Viagra®) 50 mg' });
  await expect(plan).toContainText('2 refills left');
  await expect(plan).toContainText('Prescription valid until');
  await expect(plan).toContainText('$30.00');
  await expect(plan.getByRole('button', { name: 'Change quantity' })).toHaveCount(0);
  await screens.check('subscriptions-refill');

  // --- The provider sees the reply without reloading (the chart polls).
  await expect(staff.getByRole('log').getByText(reply)).toBeVisible({ timeout: 30_000 });
  await staffScreens.shot('provider-chart-decided');

  expect(unexpectedProblems(problems, clientErrorStatuses)).toEqual([]);
  expect(staffProblems).toEqual([]);
  await staffContext.close();
});

test('a patient in Alabama is stopped at eligibility, before any health question', async ({
  page,
  screens,
  logIn,
}) => {
  const patient = await signUpThroughApi(page.request, 'alabama');
  await logIn(patient);
  await page.goto('/visit/ed');
  await expect(page).toHaveURL(/\/visit\/ed\/eligibility$/);
  await page.getByLabel('State you live in').selectOption('AL');
  await page.getByLabel('Date of birth').fill('04/02/1985');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/visit\/ed\/ineligible$/);
  await expect(
    page.getByRole('heading', { name: "We can't offer this online visit to you right now" }),
  ).toBeVisible();
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  await expect(questionHeading(page)).toHaveCount(0);
  await screens.check('visit-ineligible');

  // Even the questions' address shows no question: the server keeps the visit closed.
  await page.goto('/visit/ed/questions');
  await expect(page.getByRole('link', { name: 'Go to my visit' })).toBeVisible();
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  await expect(questionHeading(page)).toHaveCount(0);
});
