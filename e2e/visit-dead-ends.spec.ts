import type { Page } from '@playwright/test';
import type { AnswerValue, QuestionnaireItem } from '../src/shared/questionnaires/format.ts';
import { latestQuestionnaire } from '../src/shared/questionnaires/registry.ts';
import { knockoutAnswer } from '../test/safe-answer.ts';
import {
  clientErrorStatuses,
  expect,
  provider,
  signUpThroughApi,
  test,
  unexpectedProblems,
  watchConsole,
} from './fixtures.ts';
import { answerQuestion, currentItem, passEligibility, questionHeading } from './visit-helpers.ts';

/**
 * Issue 13, dead-end visits, in a real browser at 375px and 1280px: a visit closed for the state
 * and one closed as not a fit say why and what to do instead (the waitlist, a provider's review),
 * and neither asks to be finished on Home or Orders. A knock-out answer is asked about before it
 * closes anything, so a mis-tap can be changed.
 */

test.use({ actionTimeout: 15_000 });

/** Neither Home nor Orders asks to finish a closed visit. */
async function nothingToFinish(page: Page): Promise<void> {
  await page.goto('/dashboard');
  await expect(page.getByRole('region', { name: 'Your online visits' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Finish your visit' })).toHaveCount(0);
  await page.goto('/orders');
  await expect(page.getByRole('heading', { name: 'Past orders' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Pending orders' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Finish/ })).toHaveCount(0);
}

/** Answers the question on screen with `value`, through its controls, and presses Next. */
async function answerWith(page: Page, item: QuestionnaireItem, value: AnswerValue): Promise<void> {
  const form = page.locator('#main form').first();
  const display = (code: string) => item.options?.find((o) => o.code === code)?.display ?? code;
  if (item.type === 'boolean')
    await form.getByRole('radio', { name: value ? 'Yes' : 'No', exact: true }).check();
  else if (item.type === 'choice')
    await form.getByRole('radio', { name: display(String(value)), exact: true }).check();
  else if (item.type === 'multi-choice')
    for (const code of value as string[])
      await form.getByRole('checkbox', { name: display(code), exact: true }).check();
  else await form.locator('input').fill(String(value));
  await form.getByRole('button', { name: 'Next' }).click();
}

test('a visit closed for the state says why, offers the waitlist, and is never asked to be finished', async ({
  page,
  consoleProblems: problems,
  screens,
  logIn,
}) => {
  const patient = await signUpThroughApi(page.request, 'dead-end-state');
  await logIn(patient);
  await page.goto('/visit/hair');
  await expect(page).toHaveURL(/\/visit\/hair\/eligibility$/);
  await page.getByLabel('State you live in').selectOption('AL');
  await page.getByLabel('Date of birth').fill('04/02/1985');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/visit\/hair\/ineligible$/);
  await expect(
    page.getByRole('heading', { name: "We can't offer this online visit to you right now" }),
  ).toBeVisible();
  await expect(page.getByText(/people living in Alabama/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'See the supplement' })).toBeVisible();
  await screens.check('dead-end-ineligible');

  await page.getByRole('button', { name: 'Tell me when Alabama opens' }).click();
  await expect(page.getByRole('status')).toHaveText(
    "We'll email you once when online visits open in Alabama.",
  );
  await expect(page.getByRole('button', { name: 'Tell me when Alabama opens' })).toHaveCount(0);

  // Opening the program again shows the closed visit: no other state or age can be tried.
  await page.goto('/visit/hair');
  await expect(page).toHaveURL(/\/visit\/hair\/ineligible$/);
  await expect(page.getByRole('status')).toHaveText(
    "We'll email you once when online visits open in Alabama.",
  );

  await nothingToFinish(page);
  await page.goto('/dashboard');
  const closed = page.getByRole('region', { name: 'Your online visits' });
  await expect(closed).toContainText("Closed: We're not yet able to offer");
  await expect(closed).toContainText("We'll email you once when online visits open in Alabama.");
  await screens.check('dead-end-home-ineligible');
  expect(unexpectedProblems(problems, clientErrorStatuses)).toEqual([]);
});

test('a not-a-fit answer can be changed; confirmed, it closes the visit, and a new attempt asks a provider to review', async ({
  page,
  browser,
  consoleProblems: problems,
  screens,
  logIn,
  staffLogIn,
}, testInfo) => {
  test.setTimeout(180_000);
  const questionnaire = latestQuestionnaire('ed');
  const knockout = questionnaire.items.find(
    (i) => !i.enableWhen && (i.disqualifyWhen || i.options?.some((o) => o.disqualify)),
  );
  if (!knockout) throw new Error('the ED questionnaire has no top-level knock-out question');
  // A name of its own per viewport, to find this patient in the provider's queue.
  const firstName = testInfo.project.name === 'mobile' ? 'Marlowe' : 'Ellison';
  const patient = await signUpThroughApi(page.request, 'dead-end-fit', { firstName });
  await logIn(patient);
  await page.goto('/visit/ed');
  await expect(page).toHaveURL(/\/visit\/ed\/eligibility$/);
  await passEligibility(page);

  // Safe answers up to the knock-out question, then the answer that would end the visit.
  for (let guard = 0; guard < questionnaire.items.length; guard++) {
    if ((await currentItem(page, questionnaire)).linkId === knockout.linkId) break;
    await answerQuestion(page, questionnaire);
  }
  await answerWith(page, knockout, knockoutAnswer(knockout));
  const confirm = page.getByRole('heading', { name: 'Please check your answer' });
  await expect(confirm).toBeVisible();
  await expect(confirm).toBeFocused();
  await expect(page).toHaveURL(/\/visit\/ed\/questions$/);
  await screens.check('dead-end-knockout-confirm');

  // A mis-tap is not final: "Change answer" shows the question again, with the answer given.
  await page.getByRole('button', { name: 'Change answer' }).click();
  await expect(questionHeading(page)).toHaveText(knockout.text);
  await answerQuestion(page, questionnaire);
  await expect(questionHeading(page)).not.toHaveText(knockout.text);
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(questionHeading(page)).toHaveText(knockout.text);

  // This time it is right: only "Yes, that's right" closes the visit.
  await answerWith(page, knockout, knockoutAnswer(knockout));
  await page.getByRole('button', { name: "Yes, that's right" }).click();
  await expect(page).toHaveURL(/\/visit\/ed\/not-a-fit$/);
  await expect(
    page.getByRole('heading', { name: "Online treatment isn't the right fit for you" }),
  ).toBeVisible();
  await screens.check('dead-end-not-a-fit');
  await nothingToFinish(page);

  // A new attempt does not start over: it offers a provider's review of the answers as given.
  await page.goto('/visit/ed');
  await expect(page).toHaveURL(/\/visit\/ed\/not-a-fit$/);
  await page.getByRole('button', { name: 'Ask a provider to review' }).click();
  await expect(
    page.getByRole('heading', { name: 'A provider will review your answers' }),
  ).toBeVisible();
  await expect(
    page.getByText('Nothing has been charged, and nothing is held on your card.'),
  ).toBeVisible();
  await screens.check('dead-end-review-requested');
  await nothingToFinish(page);
  await page.goto('/dashboard');
  await expect(page.getByRole('region', { name: 'Your online visits' })).toContainText(
    'You asked a provider to review your answers.',
  );
  await screens.check('dead-end-home-review-requested');
  expect(unexpectedProblems(problems, clientErrorStatuses)).toEqual([]);

  // The provider's queue says plainly what this visit is.
  const staffContext = await browser.newContext({
    baseURL: testInfo.project.use.baseURL ?? '',
    viewport: testInfo.project.use.viewport ?? { width: 1280, height: 800 },
  });
  const staff = await staffContext.newPage();
  const staffProblems = watchConsole(staff);
  await staffLogIn(provider, staff);
  const row = staff.locator('a:visible', { hasText: `${firstName} R.` }).first();
  await expect(row).toBeVisible();
  const entry = staff.locator(':is(li, tr)', { has: row });
  await expect(entry).toContainText('Patient asked for a review after a knock-out answer');
  await row.click();
  await expect(
    staff.getByText('The patient asked for a review after a knock-out answer.'),
  ).toBeVisible();
  await expect(staff.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(staff.getByRole('button', { name: 'Decline' })).toBeVisible();
  await screens.of(staff).check('dead-end-provider-chart');
  expect(staffProblems).toEqual([]);
  await staffContext.close();
});
