import type { QuestionnaireItem } from '../src/shared/questionnaires/format.ts';
import { latestQuestionnaire } from '../src/shared/questionnaires/registry.ts';
import { treatmentsFor } from '../src/shared/visits.ts';
import {
  clientErrorStatuses,
  expect,
  signUpThroughApi,
  test,
  unexpectedProblems,
} from './fixtures.ts';
import { answerAllQuestions, passEligibility, safeAnswer } from './visit-helpers.ts';

/**
 * The Sleep and Hair online visits in a real browser at 375px and 1280px: from the home page's
 * program card through eligibility and the whole questionnaire, the review of the answers (one is
 * changed there), to the treatment preferences, which are saved. Every kind of question screen and the preferences are checked with axe. (The ED visit,
 * from sign-up to the provider's approval, is e2e/telehealth.spec.ts.)
 */

test.use({ actionTimeout: 15_000 });

const walks = [
  {
    category: 'sleep',
    card: /^Start your visit\W+Sleep$/,
    drug: 'doxepin',
    extra: {
      legend: 'What do you want help with?',
      choices: ['Falling asleep', 'Staying asleep', 'Both'],
    },
  },
  {
    category: 'hair',
    card: /^Start your visit\W+Hair$/,
    drug: 'minoxidil-topical',
    extra: {
      legend: 'Do you prefer tablets or foam?',
      choices: ['Tablets', 'Foam on the scalp', 'No preference — my provider can choose'],
    },
  },
] as const;

for (const walk of walks) {
  test(`the ${walk.category} visit: eligibility and its questions lead to its treatment preferences`, async ({
    page,
    consoleProblems: problems,
    screens,
    logIn,
  }) => {
    test.setTimeout(180_000);
    const questionnaire = latestQuestionnaire(walk.category);
    const patient = await signUpThroughApi(page.request, `visit-${walk.category}`);
    await logIn(patient);

    await page.goto('/');
    await page.getByRole('link', { name: walk.card }).click();
    await expect(page).toHaveURL(new RegExp(`/visit/${walk.category}/eligibility$`));
    await screens.check(`visit-${walk.category}-eligibility`);
    await passEligibility(page);

    const progress = page.getByRole('progressbar', { name: 'Health questions' });
    // The welcome counts no question (issue 29): it says how many are ahead.
    await expect(progress).toHaveAttribute('aria-valuenow', '0');
    await expect(progress).toHaveAttribute('aria-valuetext', /^\d+ questions ahead$/);
    const kinds = new Set<string>();
    let last = { now: '', max: '' };
    const answered = await answerAllQuestions(
      page,
      questionnaire,
      async (item) => {
        // Each screen shows where the patient is, and each kind of question is checked once.
        await expect(progress).toHaveAttribute('aria-valuemax', /^\d+$/);
        last = {
          now: (await progress.getAttribute('aria-valuenow')) ?? '',
          max: (await progress.getAttribute('aria-valuemax')) ?? '',
        };
        if (kinds.has(item.type)) return;
        kinds.add(item.type);
        await screens.check(`visit-${walk.category}-question-${item.type}`);
      },
      { stopAtReview: true },
    );
    // The program's own questionnaire was asked, from its first item to its end.
    const ids = answered.map((item: QuestionnaireItem) => item.linkId);
    expect(ids[0]).toBe(questionnaire.items[0]?.linkId);
    expect(ids.length).toBeGreaterThan(10);
    expect(new Set(ids).size).toBe(ids.length);

    // After the last question, the answers on one screen: every question asked, in order.
    await expect(page).toHaveURL(new RegExp(`/visit/${walk.category}/answers$`));
    const questions = answered.filter((item) => item.type !== 'display');
    const list = page.getByRole('list', { name: 'Your answers' });
    await expect(list.getByRole('listitem')).toHaveCount(questions.length);
    for (const [index, item] of questions.entries())
      await expect(list.getByRole('listitem').nth(index)).toContainText(item.text);
    // The progress counted exactly those questions: the last was "n of n".
    expect(last).toEqual({ now: String(questions.length), max: String(questions.length) });
    await screens.check(`visit-${walk.category}-answers`);

    // Change one answer (a choice, to another option that keeps the visit open).
    const changed = questions.find(
      (item) =>
        item.type === 'choice' &&
        item.options?.some((o) => o.code !== safeAnswer(item) && !o.disqualify),
    );
    const other = changed?.options?.find((o) => o.code !== safeAnswer(changed) && !o.disqualify);
    if (!changed || !other) throw new Error(`No choice to change in ${walk.category}`);
    await page.getByRole('button', { name: `Change your answer to: ${changed.text}` }).click();
    await expect(page).toHaveURL(new RegExp(`/visit/${walk.category}/questions$`));
    const form = page.locator('#main form').first();
    await expect(form.getByRole('heading', { name: changed.text })).toBeVisible();
    await expect(
      page.getByRole('link', { name: 'Back to your answers without changing this one' }),
    ).toBeVisible();
    await screens.check(`visit-${walk.category}-answer-change`);
    await form.getByRole('radio', { name: other.display, exact: true }).check();
    await form.getByRole('button', { name: 'Next' }).click();
    // Any question the new answer shows is asked; then the review again, with the new answer.
    await answerAllQuestions(page, questionnaire, undefined, { stopAtReview: true });
    const changedRow = list.getByRole('listitem').filter({ hasText: changed.text });
    await expect(changedRow).toContainText(other.display);
    // The review is the visit's place: a reload comes back to it.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Review your answers' })).toBeVisible();
    await expect(changedRow).toContainText(other.display);
    await page.getByRole('button', { name: 'Continue' }).click();

    await expect(page).toHaveURL(new RegExp(`/visit/${walk.category}/preferences$`));
    await expect(page.getByRole('heading', { name: 'Your treatment preferences' })).toBeVisible();
    const treatments = treatmentsFor(walk.category);
    const treatmentGroup = page.getByRole('group', { name: 'Treatment' });
    for (const treatment of treatments)
      await expect(treatmentGroup.getByRole('radio', { name: treatment.label })).toBeVisible();
    const extra = page.getByRole('group', { name: walk.extra.legend });
    for (const choice of walk.extra.choices)
      await expect(extra.getByRole('radio', { name: choice, exact: true })).toBeVisible();

    // Continue without choosing says what is missing.
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(extra.getByRole('radio').first()).toHaveAttribute('aria-invalid', 'true');
    await screens.check(`visit-${walk.category}-preferences-errors`);

    const chosen = treatments.find((t) => t.drug === walk.drug);
    if (!chosen) throw new Error(`No ${walk.drug} for ${walk.category}`);
    await treatmentGroup.getByRole('radio', { name: chosen.label }).check();
    await page
      .getByRole('group', { name: 'Dose' })
      .getByRole('radio', { name: chosen.dosages[0]?.label ?? '', exact: true })
      .check();
    await page
      .getByRole('group', { name: 'How much each month' })
      .getByRole('radio', { name: chosen.frequencies[0]?.label ?? '' })
      .check();
    await extra.getByRole('radio', { name: walk.extra.choices[0], exact: true }).check();
    // Each answered group's message goes at once.
    await expect(extra.getByRole('radio').first()).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('group', { name: 'Dose' })).not.toHaveAttribute(
      'aria-describedby',
      /.+/,
    );
    await page
      .getByLabel('Anything your provider should know about your preference? (optional)')
      .fill('Nothing more.');
    await screens.check(`visit-${walk.category}-preferences`);
    await page.getByRole('button', { name: 'Continue' }).click();
    // Saved: the visit moves on to the photo ID.
    await expect(page).toHaveURL(new RegExp(`/visit/${walk.category}/photo$`));
    await expect(page.getByRole('heading', { name: 'Confirm who you are' })).toBeVisible();
    expect(unexpectedProblems(problems, clientErrorStatuses)).toEqual([]);
  });
}
