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
import { answerAllQuestions, passEligibility } from './visit-helpers.ts';

/**
 * The Sleep and Hair online visits in a real browser at 375px and 1280px: from the home page's
 * program card through eligibility and the whole questionnaire to the treatment preferences, which
 * are saved. Every kind of question screen and the preferences are checked with axe. (The ED visit,
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
    await expect(progress).toHaveAttribute('aria-valuenow', '1');
    const kinds = new Set<string>();
    const answered = await answerAllQuestions(page, questionnaire, async (item) => {
      // Each screen shows where the patient is, and each kind of question is checked once.
      await expect(progress).toHaveAttribute('aria-valuemax', /^\d+$/);
      if (kinds.has(item.type)) return;
      kinds.add(item.type);
      await screens.check(`visit-${walk.category}-question-${item.type}`);
    });
    // The program's own questionnaire was asked, from its first item to its end.
    const ids = answered.map((item: QuestionnaireItem) => item.linkId);
    expect(ids[0]).toBe(questionnaire.items[0]?.linkId);
    expect(ids.length).toBeGreaterThan(10);
    expect(new Set(ids).size).toBe(ids.length);

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
