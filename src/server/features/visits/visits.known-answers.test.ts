import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCustomer, demoStaff } from '#server/db/seed-demo.ts';
import { ageOn, calendarDateOf, parseUsDate } from '#shared/dates.ts';
import { shownQuestions } from '#shared/questionnaires/engine.ts';
import type { AnswerValue, Answers, QuestionnaireItem } from '#shared/questionnaires/format.ts';
import { latestQuestionnaire } from '#shared/questionnaires/registry.ts';
import { sleepIntakeV1 } from '#shared/questionnaires/sleep-intake.v1.ts';
import { type Chart, reviewsApi } from '#shared/reviews.ts';
import { visitsApi } from '#shared/visits.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs, dataAs } from '#test/contract.ts';
import { insertCustomer, staffCookie, type TestCustomer } from '#test/factories.ts';
import { completeQuestions, safeAnswer } from '#test/visits.ts';

const provider = demoStaff.find((s) => s.role === 'provider')!;
const KNOWN = 'We already know this from the date of birth you gave.';

/**
 * The intake never asks what it already knows (issue 29): a Sleep visit takes the patient's age
 * from the date of birth given at eligibility, stores it as the answer to the `age` item, and
 * never asks it, while every rule that reads the age (falls from 65, the knock-out, the provider's
 * chart) reads it as before. A visit answered on Sleep 1.0.0 is still asked.
 */
describe(`answers the visit already knows (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    // The demo provider reviews Oregon's visits.
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
    // 21 November 2026: born 11/21/1961 is 65 today, born 11/22/1961 is still 64.
    t.clock.set('2026-11-21T12:00:00.000Z');
  });
  afterAll(() => t.close());

  async function sleepVisit(c: TestCustomer): Promise<number> {
    const started = await dataAs(
      t.app,
      visitsApi.startProgram,
      { leads_id: c.leadsId, new_category: 'sleep' },
      c,
    );
    return started.visit_id;
  }

  async function eligible(c: TestCustomer, visitId: number, dob: string): Promise<void> {
    const response = await callAs(
      t.app,
      visitsApi.eligibility,
      { visit_id: visitId, state: 'OR', dob },
      c,
    );
    expect(response.json(), response.body).toMatchObject({ data: { eligible: true } });
  }

  async function storedAnswers(visitId: number): Promise<Answers> {
    const rows = await t.app.db
      .selectFrom('visit_answers')
      .select(['link_id', 'value'])
      .where('visit_id', '=', visitId)
      .execute();
    return Object.fromEntries(rows.map((r) => [r.link_id, JSON.parse(r.value) as AnswerValue]));
  }

  const ageToday = (dob: string) => {
    const birth = parseUsDate(dob);
    if (!birth) throw new Error(`not a date: ${dob}`);
    return ageOn(birth, calendarDateOf(t.clock.now()));
  };

  /** Answers every question safely (or as `answers` says); the linkIds asked, in order. */
  async function answerAll(
    c: TestCustomer,
    visitId: number,
    answers: Answers = {},
    questionnaire = latestQuestionnaire('sleep'),
  ): Promise<string[]> {
    const asked: string[] = [];
    await completeQuestions(t.app, c, visitId, 'sleep', {
      questionnaire,
      answer: (item: QuestionnaireItem) => {
        asked.push(item.linkId);
        return answers[item.linkId] ?? safeAnswer(item);
      },
    });
    return asked;
  }

  it('a Sleep visit started today stores the age from the date of birth and never asks it', async () => {
    const c = await insertCustomer(t.app);
    const visitId = await sleepVisit(c);
    const questionnaire = latestQuestionnaire('sleep');
    expect(questionnaire.version).toBe('1.1.0');
    expect(questionnaire.items.find((i) => i.linkId === 'age')?.known).toBe('age');
    expect(await storedAnswers(visitId)).toEqual({});

    await eligible(c, visitId, '04/12/1990');
    expect(ageToday('04/12/1990')).toBe(36);
    expect(await storedAnswers(visitId)).toEqual({ age: 36 });

    // The welcome, then sex at birth as question 1 of a total that leaves the age out.
    const total = shownQuestions(questionnaire, { age: 36 }).length;
    const welcome = await dataAs(t.app, visitsApi.v2NextQuestion, { visit_id: visitId }, c);
    expect(welcome).toMatchObject({ item: { linkId: 'intro' }, progress: { index: 1, total } });
    const first = await dataAs(
      t.app,
      visitsApi.v2NextQuestion,
      { visit_id: visitId, linkId: 'intro' },
      c,
    );
    expect(first).toMatchObject({
      item: { linkId: 'sex_at_birth' },
      progress: { index: 1, total },
    });
    // Asked for by name, the age is passed over; going back from question 1 is the welcome.
    for (const next of [visitsApi.nextQuestion, visitsApi.v2NextQuestion])
      expect(
        (await dataAs(t.app, next, { visit_id: visitId, linkId: 'age' }, c)).item?.linkId,
      ).toBe('sex_at_birth');
    const back = await dataAs(
      t.app,
      visitsApi.v2PreviousQuestion,
      { visit_id: visitId, linkId: 'sex_at_birth' },
      c,
    );
    expect(back.item?.linkId).toBe('intro');
    // The v1 questionnaire lists no age to ask, and has its answer.
    const all = await dataAs(t.app, visitsApi.questions, { visit_id: visitId }, c);
    expect(all.items.map((i) => i.linkId)).not.toContain('age');
    expect(all.answers).toEqual({ age: 36 });
    expect(all.progress.total).toBe(total);

    const asked = await answerAll(c, visitId);
    expect(asked).not.toContain('age');
    expect(asked).not.toContain('falls');
    expect(asked[0]).toBe('sex_at_birth');
    // Every question the answers show, the age not among them, each asked once.
    const shown = shownQuestions(questionnaire, await storedAnswers(visitId));
    expect(asked).toEqual(shown.map((i) => i.linkId));
    // The review lists what the patient answered, the age not among it.
    const review = await dataAs(t.app, visitsApi.reviewAnswers, { visit_id: visitId }, c);
    expect(review.answers.map((a) => a.linkId)).toEqual(asked);
    expect(review.destination).toBe('/visit/sleep/preferences');
    expect(await storedAnswers(visitId)).toMatchObject({ age: 36 });
  });

  it('refuses the age from every question call, and takes a date of birth given again', async () => {
    const c = await insertCustomer(t.app);
    const visitId = await sleepVisit(c);
    await eligible(c, visitId, '04/12/1990');
    for (const save of [visitsApi.saveQuestion, visitsApi.v2SubmitQuestion]) {
      const refused = await callAs(t.app, save, { visit_id: visitId, linkId: 'age', value: 70 }, c);
      expect(refused.statusCode, save.path).toBe(400);
      expect(refused.json()).toMatchObject({
        code: 'VALIDATION',
        message: KNOWN,
        fields: { linkId: KNOWN },
      });
    }
    expect(await storedAnswers(visitId)).toEqual({ age: 36 });

    // Back on the first screen with another date of birth: the age follows it.
    await eligible(c, visitId, '04/12/1980');
    expect(await storedAnswers(visitId)).toEqual({ age: 46 });

    // From the review, it cannot be opened to change either.
    await answerAll(c, visitId);
    const change = await callAs(
      t.app,
      visitsApi.changeAnswer,
      { visit_id: visitId, linkId: 'age' },
      c,
    );
    expect(change.statusCode).toBe(400);
    expect(change.json()).toMatchObject({ code: 'VALIDATION', message: KNOWN });
    expect(await storedAnswers(visitId)).toMatchObject({ age: 46 });
  });

  it('a date of birth making the patient 65 today asks about falls, and the provider reads the age, the fall and its flag', async () => {
    // 64 until tomorrow: no falls question.
    const younger = await insertCustomer(t.app);
    const youngerVisit = await sleepVisit(younger);
    await eligible(younger, youngerVisit, '11/22/1961');
    expect(await storedAnswers(youngerVisit)).toEqual({ age: 64 });
    expect(await answerAll(younger, youngerVisit)).not.toContain('falls');

    // 65 today: asked about falls, and when.
    const c = await insertCustomer(t.app);
    const visitId = await sleepVisit(c);
    await eligible(c, visitId, '11/21/1961');
    expect(await storedAnswers(visitId)).toEqual({ age: 65 });
    const asked = await answerAll(c, visitId, { falls: true, last_fall_date: '2026-10-03' });
    expect(asked).not.toContain('age');
    expect(asked).toEqual(expect.arrayContaining(['falls', 'last_fall_date']));
    const review = await dataAs(t.app, visitsApi.reviewAnswers, { visit_id: visitId }, c);
    expect(review.answers.find((a) => a.linkId === 'falls')).toMatchObject({ answer: 'Yes' });

    // A knock-out answer the patient confirms, and the review they ask for: the provider's chart.
    await callAs(t.app, visitsApi.changeAnswer, { visit_id: visitId, linkId: 'maoi' }, c);
    const knockout = await dataAs(
      t.app,
      visitsApi.v2SubmitQuestion,
      { visit_id: visitId, linkId: 'maoi', value: true },
      c,
    );
    expect(knockout.knockout?.linkId).toBe('maoi');
    await dataAs(t.app, visitsApi.confirmKnockout, { visit_id: visitId }, c);
    await dataAs(t.app, visitsApi.requestReview, { visit_id: visitId }, c);
    const cookie = await staffCookie(t, provider);
    const chart = (await callAs(t.app, reviewsApi.chart, { visit_id: visitId }, cookie)).json<{
      data: { chart: Chart };
    }>().data.chart;
    expect(chart.questionnaire).toEqual({ id: 'sleep-intake', version: '1.1.0' });
    expect(chart.answers).toEqual(
      expect.arrayContaining([
        { linkId: 'age', question: 'How old are you?', answer: '65 years' },
        { linkId: 'falls', question: 'In the past 12 months, have you had a fall?', answer: 'Yes' },
      ]),
    );
    expect(chart.answers[0]?.linkId).toBe('age');
    expect(chart.risk_flags.map((f) => f.code)).toEqual(
      expect.arrayContaining(['closed_visit', 'falls-older-adult']),
    );
  });

  it('a visit started on Sleep 1.0.0 still asks the age, and takes the patient’s answer', async () => {
    const c = await insertCustomer(t.app);
    const visitId = await sleepVisit(c);
    await t.app.db
      .updateTable('visits')
      .set({ questionnaire_version: '1.0.0' })
      .where('id', '=', visitId)
      .execute();
    await eligible(c, visitId, '04/12/1990');
    // 1.0.0 knows nothing: the age is the patient's to give.
    expect(await storedAnswers(visitId)).toEqual({});
    const first = await dataAs(
      t.app,
      visitsApi.v2NextQuestion,
      { visit_id: visitId, linkId: 'intro' },
      c,
    );
    expect(first).toMatchObject({ item: { linkId: 'age' }, progress: { index: 1 } });
    const asked = await answerAll(c, visitId, { age: 36 }, sleepIntakeV1);
    expect(asked[0]).toBe('age');
    expect(asked).toEqual(
      shownQuestions(sleepIntakeV1, await storedAnswers(visitId)).map((i) => i.linkId),
    );
    expect(await storedAnswers(visitId)).toMatchObject({ age: 36 });
    const review = await dataAs(t.app, visitsApi.reviewAnswers, { visit_id: visitId }, c);
    expect(review.answers[0]).toEqual({
      linkId: 'age',
      question: 'How old are you?',
      answer: '36 years',
    });
  });

  it("the demo's Sleep visit, left at its questions, knows the demo customer's age", async () => {
    const visit = await t.app.db
      .selectFrom('visits')
      .innerJoin('customers', 'customers.id', 'visits.customer_id')
      .select(['visits.id', 'visits.dob', 'visits.created_at', 'visits.questionnaire_version'])
      .where('customers.email', '=', demoCustomer.email)
      .where('visits.category', '=', 'sleep')
      .executeTakeFirstOrThrow();
    const [year, month, day] = (visit.dob ?? '').split('-').map(Number);
    const age = ageOn(
      { year: year ?? 0, month: month ?? 0, day: day ?? 0 },
      calendarDateOf(new Date(visit.created_at)),
    );
    expect(visit.questionnaire_version).toBe('1.1.0');
    expect(await storedAnswers(visit.id)).toEqual({ age });
  });
});
