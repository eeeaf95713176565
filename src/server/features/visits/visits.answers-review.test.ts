import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disqualification, shownQuestions } from '#shared/questionnaires/engine.ts';
import type { AnswerValue, QuestionnaireItem } from '#shared/questionnaires/format.ts';
import { latestQuestionnaire } from '#shared/questionnaires/registry.ts';
import {
  type AnswersReview,
  type PendingOrder,
  type QuestionState,
  visitsApi,
} from '#shared/visits.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs, malformed } from '#test/contract.ts';
import { insertCustomer, type TestCustomer } from '#test/factories.ts';
import { completeQuestions, insertProvider, knockoutAnswer, safeAnswer } from '#test/visits.ts';

/**
 * "Review your answers" (issue 13): after the last question the patient reads every question they
 * were shown with their answer, changes any of them (a change that shows new questions asks those,
 * then comes back), and continues to the next step.
 */
describe(`reviewing the answers before the next step (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    await insertProvider(t.app, ['OR']);
  });
  afterAll(() => t.close());

  const questionnaire = latestQuestionnaire('ed');
  const item = (linkId: string): QuestionnaireItem => {
    const found = questionnaire.items.find((i) => i.linkId === linkId);
    if (!found) throw new Error(`no ${linkId} in the ED questionnaire`);
    return found;
  };
  // A yes/no whose "yes" (not a knock-out) opens one more question.
  const branch = questionnaire.items.find(
    (i) =>
      !i.enableWhen &&
      i.type === 'boolean' &&
      safeAnswer(i) === false &&
      disqualification(i, true) === null &&
      questionnaire.items.some(
        (f) =>
          f.enableWhen?.length === 1 &&
          f.enableWhen[0]?.question === i.linkId &&
          f.enableWhen[0].operator === '=' &&
          f.enableWhen[0].answer === true,
      ),
  );
  const followUp = questionnaire.items.find((f) => f.enableWhen?.[0]?.question === branch?.linkId);
  // A question shown to everyone with an answer that ends the visit.
  const knockout = questionnaire.items.find(
    (i) => !i.enableWhen && (i.disqualifyWhen || i.options?.some((o) => o.disqualify)),
  );

  async function visitAtReview(): Promise<{ c: TestCustomer; visitId: number }> {
    const c = await insertCustomer(t.app);
    const started = await callAs(
      t.app,
      visitsApi.startProgram,
      { leads_id: c.leadsId, new_category: 'ed' },
      c.cookie,
    );
    const visitId = started.json<{ data: { visit_id: number } }>().data.visit_id;
    await callAs(
      t.app,
      visitsApi.eligibility,
      { visit_id: visitId, state: 'OR', dob: '04/12/1990' },
      c.cookie,
    );
    await completeQuestions(t.app, c, visitId, 'ed');
    return { c, visitId };
  }

  const review = (c: TestCustomer, visitId: number) =>
    callAs(t.app, visitsApi.reviewAnswers, { visit_id: visitId }, c.cookie);
  const reviewed = async (c: TestCustomer, visitId: number) => {
    const response = await review(c, visitId);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: AnswersReview }>().data;
  };
  const change = (c: TestCustomer, visitId: number, linkId: string) =>
    callAs(t.app, visitsApi.changeAnswer, { visit_id: visitId, linkId }, c.cookie);
  const submit = async (c: TestCustomer, visitId: number, linkId: string, value: AnswerValue) => {
    const response = await callAs(
      t.app,
      visitsApi.v2SubmitQuestion,
      { visit_id: visitId, linkId, value },
      c.cookie,
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: QuestionState }>().data;
  };

  it('lists every question shown, in order, in words, and resumes there after the last answer', async () => {
    if (!branch || !followUp) throw new Error('the ED questionnaire needs a yes/no branch');
    const { c, visitId } = await visitAtReview();
    const { answers, destination } = await reviewed(c, visitId);
    expect(destination).toBe('/visit/ed/preferences');
    const shown = shownQuestions(questionnaire, {
      ...Object.fromEntries(questionnaire.items.map((i) => [i.linkId, safeAnswer(i)])),
    });
    // Only the questions this patient saw: no introductions, no branch left closed.
    expect(answers.map((a) => a.linkId)).toEqual(
      shown.filter((i) => answers.some((a) => a.linkId === i.linkId)).map((i) => i.linkId),
    );
    expect(answers.map((a) => a.linkId)).not.toContain(followUp.linkId);
    expect(answers.every((a) => item(a.linkId).type !== 'display')).toBe(true);
    expect(answers.find((a) => a.linkId === branch.linkId)).toEqual({
      linkId: branch.linkId,
      question: branch.text,
      answer: 'No',
    });
    const choice = answers.find((a) => item(a.linkId).type === 'choice');
    if (!choice) throw new Error('no choice question answered');
    const chosen = item(choice.linkId).options?.find(
      (o) => o.code === safeAnswer(item(choice.linkId)),
    );
    expect(choice.answer).toBe(chosen?.display);
    // A reload (or another device) comes back to the review, not to the first question.
    const again = await callAs(t.app, visitsApi.v2NextQuestion, { visit_id: visitId }, c.cookie);
    expect(again.json<{ data: QuestionState }>().data).toMatchObject({
      item: null,
      done: true,
      destination: '/visit/ed/answers',
    });
    const started = await callAs(
      t.app,
      visitsApi.startProgram,
      { leads_id: c.leadsId, new_category: 'ed' },
      c.cookie,
    );
    expect(started.json()).toMatchObject({ data: { destination: '/visit/ed/answers' } });
    const pending = await callAs(t.app, visitsApi.pendingOrders, { leads_id: c.leadsId }, c.cookie);
    expect(pending.json<{ data: PendingOrder[] }>().data[0]?.step).toBe('preferences');
  });

  it('changes one answer: asks only the question the change shows, then back to the review', async () => {
    if (!branch || !followUp) throw new Error('the ED questionnaire needs a yes/no branch');
    const { c, visitId } = await visitAtReview();
    const opened = await change(c, visitId, branch.linkId);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json<{ data: QuestionState }>().data).toMatchObject({
      item: { linkId: branch.linkId },
      answer: false,
      done: false,
    });
    // The question the patient is changing is where a reload goes.
    const reload = await callAs(t.app, visitsApi.v2NextQuestion, { visit_id: visitId }, c.cookie);
    expect(reload.json<{ data: QuestionState }>().data.item?.linkId).toBe(branch.linkId);

    const before = (await reviewed(c, visitId)).answers.length;
    await change(c, visitId, branch.linkId);
    const yes = await submit(c, visitId, branch.linkId, true);
    // "Yes" opens its follow-up, asked next; the progress now counts it.
    expect(yes.item?.linkId).toBe(followUp.linkId);
    expect(yes.progress.total).toBe(before + 1);
    const back = await submit(c, visitId, followUp.linkId, safeAnswer(followUp));
    expect(back).toMatchObject({ item: null, done: true, destination: '/visit/ed/answers' });
    const withFollowUp = (await reviewed(c, visitId)).answers;
    expect(withFollowUp).toHaveLength(before + 1);
    expect(withFollowUp.find((a) => a.linkId === branch.linkId)?.answer).toBe('Yes');
    expect(withFollowUp.find((a) => a.linkId === followUp.linkId)?.answer).toBe(
      String(safeAnswer(followUp)),
    );

    // Back to "No": straight back to the review, and the follow-up's answer is no longer shown.
    await change(c, visitId, branch.linkId);
    const no = await submit(c, visitId, branch.linkId, false);
    expect(no).toMatchObject({ item: null, done: true, destination: '/visit/ed/answers' });
    const { answers } = await reviewed(c, visitId);
    expect(answers).toHaveLength(before);
    expect(answers.map((a) => a.linkId)).not.toContain(followUp.linkId);
    const all = await callAs(t.app, visitsApi.questions, { visit_id: visitId }, c.cookie);
    expect(
      Object.keys(all.json<{ data: { answers: Record<string, unknown> } }>().data.answers),
    ).not.toContain(followUp.linkId);
  });

  it('a changed answer that would end the visit still asks to be confirmed first', async () => {
    if (!knockout) throw new Error('the ED questionnaire needs a knock-out question');
    const { c, visitId } = await visitAtReview();
    await change(c, visitId, knockout.linkId);
    const asked = await submit(c, visitId, knockout.linkId, knockoutAnswer(knockout));
    expect(asked).toMatchObject({
      disqualified: null,
      done: false,
      knockout: {
        linkId: knockout.linkId,
        reason: disqualification(knockout, knockoutAnswer(knockout)),
      },
    });
    // Not reviewable until the patient changes or confirms it; the visit is still open.
    const refused = await review(c, visitId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'VISIT_STEP',
      message: 'Please check your answer to the health questions first.',
    });
    const changedAgain = await change(c, visitId, knockout.linkId);
    expect(changedAgain.json<{ data: QuestionState }>().data.knockout?.linkId).toBe(
      knockout.linkId,
    );
    // Changed back: the review again, and the visit goes on.
    const safe = await submit(c, visitId, knockout.linkId, safeAnswer(knockout));
    expect(safe).toMatchObject({ knockout: null, done: true, destination: '/visit/ed/answers' });
    expect((await reviewed(c, visitId)).destination).toBe('/visit/ed/preferences');

    // Changed again and confirmed: the visit closes, and neither call reopens it.
    await change(c, visitId, knockout.linkId);
    await submit(c, visitId, knockout.linkId, knockoutAnswer(knockout));
    const closed = await callAs(t.app, visitsApi.confirmKnockout, { visit_id: visitId }, c.cookie);
    expect(closed.json<{ data: QuestionState }>().data.destination).toBe('/visit/ed/not-a-fit');
    expect((await review(c, visitId)).statusCode).toBe(409);
    const late = await change(c, visitId, knockout.linkId);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: 'VISIT_CLOSED' });
  });

  it('refuses the review before every question is answered, and bad input, with clear messages', async () => {
    const c = await insertCustomer(t.app);
    const started = await callAs(
      t.app,
      visitsApi.startProgram,
      { leads_id: c.leadsId, new_category: 'ed' },
      c.cookie,
    );
    const visitId = started.json<{ data: { visit_id: number } }>().data.visit_id;
    const early = await review(c, visitId);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'VISIT_STEP' });
    await callAs(
      t.app,
      visitsApi.eligibility,
      { visit_id: visitId, state: 'OR', dob: '04/12/1990' },
      c.cookie,
    );
    const unanswered = await review(c, visitId);
    expect(unanswered.statusCode).toBe(409);
    expect(unanswered.json()).toMatchObject({
      message: 'Please answer all the health questions first.',
    });
    const notYet = await change(
      c,
      visitId,
      questionnaire.items.find((i) => i.type !== 'display')?.linkId ?? '',
    );
    expect(notYet.statusCode).toBe(409);

    await completeQuestions(t.app, c, visitId, 'ed');
    for (const [body, field, message] of [
      [{ visit_id: visitId }, 'linkId', 'Choose a question'],
      [{ visit_id: visitId, linkId: '' }, 'linkId', 'Choose a question'],
      [
        { visit_id: visitId, linkId: 'no-such-question' },
        'linkId',
        'That question is not part of this visit.',
      ],
      [
        { visit_id: visitId, linkId: followUp?.linkId },
        'linkId',
        'That question is not part of this visit.',
      ],
      [
        {
          visit_id: visitId,
          linkId: questionnaire.items.find((i) => i.type === 'display')?.linkId,
        },
        'linkId',
        'That question is not part of this visit.',
      ],
      [{ visit_id: 'seven', linkId: 'x' }, 'visit_id', undefined],
      [{ visit_id: visitId, linkId: 'x', extra: 1 }, undefined, undefined],
    ] as const) {
      const response = await callAs(t.app, visitsApi.changeAnswer, malformed(body), c.cookie);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      const error = response.json<{ code: string; fields?: Record<string, string> }>();
      expect(error.code).toBe('VALIDATION');
      if (field) expect(error.fields?.[field], JSON.stringify(body)).toBeTruthy();
      if (field && message) expect(error.fields?.[field]).toBe(message);
    }
    for (const body of [{}, { visit_id: -1 }, { visit_id: 'x' }, []]) {
      const response = await callAs(t.app, visitsApi.reviewAnswers, malformed(body), c.cookie);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it("another patient can neither read nor change a patient's answers", async () => {
    if (!branch) throw new Error('the ED questionnaire needs a yes/no branch');
    const { c, visitId } = await visitAtReview();
    const other = await insertCustomer(t.app);
    const calls = {
      [visitsApi.reviewAnswers.path]: (who?: TestCustomer) =>
        callAs(t.app, visitsApi.reviewAnswers, { visit_id: visitId }, who),
      [visitsApi.changeAnswer.path]: (who?: TestCustomer) =>
        callAs(t.app, visitsApi.changeAnswer, { visit_id: visitId, linkId: branch.linkId }, who),
    };
    for (const [path, call] of Object.entries(calls)) {
      const response = await call(other);
      expect(response.statusCode, path).toBe(404);
      expect(response.json()).toMatchObject({ message: 'We could not find that visit.' });
      expect((await call()).statusCode, path).toBe(401);
    }
    // Nothing moved: the owner's review is as it was.
    expect(
      (await reviewed(c, visitId)).answers.find((a) => a.linkId === branch.linkId)?.answer,
    ).toBe('No');
  });
});
