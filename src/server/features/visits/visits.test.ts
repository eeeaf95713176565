import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disqualification } from '#shared/questionnaires/engine.ts';
import type { AnswerValue } from '#shared/questionnaires/format.ts';
import { latestQuestionnaire } from '#shared/questionnaires/registry.ts';
import {
  type PendingOrder,
  type ProgramCategory,
  type QuestionState,
  visitsApi,
} from '#shared/visits.ts';
import { accountsApi } from '#shared/accounts.ts';
import { authApi } from '#shared/auth.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs, malformed } from '#test/contract.ts';
import fs from 'node:fs';
import path from 'node:path';
import { insertCustomer, multipartBody, type TestCustomer } from '#test/factories.ts';
import { completeQuestions, insertProvider, jpegWithGps, safeAnswer } from '#test/visits.ts';

describe(`online visits (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    // Visits are accepted only where a provider can review them.
    await insertProvider(t.app, ['CA', 'FL', 'NY', 'OR', 'TX', 'WA']);
  });
  afterAll(() => t.close());

  async function start(c: TestCustomer, category: ProgramCategory = 'ed') {
    const response = await callAs(
      t.app,
      visitsApi.startProgram,
      { leads_id: c.leadsId, new_category: category },
      c.cookie,
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: { visit_id: number; destination: string; leads_id: string } }>()
      .data;
  }

  const eligible = (c: TestCustomer, visitId: number, state = 'OR', dob = '04/12/1990') =>
    callAs(t.app, visitsApi.eligibility, { visit_id: visitId, state, dob }, c.cookie);

  it('starts a visit, resumes the same one, and lists it as a pending order', async () => {
    const c = await insertCustomer(t.app);
    const first = await start(c);
    expect(first).toMatchObject({ leads_id: c.leadsId, destination: '/visit/ed/eligibility' });
    const again = await start(c);
    expect(again.visit_id).toBe(first.visit_id);
    const basics = await callAs(t.app, accountsApi.basics, {}, c.cookie);
    expect(basics.json()).toMatchObject({
      data: { flags: [{ type: 'visit_incomplete', href: '/visit/ed' }] },
    });
    const pending = await callAs(t.app, visitsApi.pendingOrders, { leads_id: c.leadsId }, c.cookie);
    expect(pending.json<{ data: PendingOrder[] }>().data).toEqual([
      expect.objectContaining({
        product_category: 'ed',
        visit_id: first.visit_id,
        step: 'eligibility',
        product: 'Erectile dysfunction treatment — online visit',
      }),
    ]);
    const other = await insertCustomer(t.app);
    expect(
      (
        await callAs(
          t.app,
          visitsApi.startProgram,
          { leads_id: c.leadsId, new_category: 'ed' },
          other.cookie,
        )
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await callAs(
          t.app,
          visitsApi.startProgram,
          malformed({ leads_id: c.leadsId, new_category: 'knees' }),
          c.cookie,
        )
      ).statusCode,
    ).toBe(400);
  });

  it('says which states are covered', async () => {
    const response = await callAs(t.app, visitsApi.statesAllowed, {});
    expect(response.json()).toEqual({
      status: 'SUCCESS',
      message: '',
      data: { states: ['CA', 'FL', 'NY', 'OR', 'TX', 'WA'] },
    });
  });

  it('stops a patient in a state the service does not cover before any health question, and offers a supplement', async () => {
    const c = await insertCustomer(t.app);
    const { visit_id } = await start(c, 'sleep');
    const response = await eligible(c, visit_id, 'AL');
    expect(response.json()).toMatchObject({
      data: {
        eligible: false,
        reason: expect.stringContaining('Alabama'),
        supplement_slug: 'sleep-gummies',
        destination: '/visit/sleep/ineligible',
      },
    });
    const questions = await callAs(t.app, visitsApi.v2NextQuestion, { visit_id }, c.cookie);
    expect(questions.statusCode).toBe(409);
    expect(
      await t.app.db
        .selectFrom('visit_answers')
        .select('link_id')
        .where('visit_id', '=', visit_id)
        .execute(),
    ).toHaveLength(0);
  });

  it.each([
    ['01/01/2015', true, 'Minimum age is 19'],
    ['01/01/1900', true, 'Maximum age is 99'],
    ['1/1/1990', false, 'Date format must be MM/DD/YYYY.'],
    ['02/31/1990', false, 'Invalid date'],
    ['', false, 'You must enter a date of birth.'],
  ])('date of birth %s: %s', async (dob, closes, message) => {
    const c = await insertCustomer(t.app);
    const { visit_id } = await start(c, 'hair');
    const response = await eligible(c, visit_id, 'OR', dob);
    if (closes) {
      expect(response.json()).toMatchObject({
        data: { eligible: false, reason: expect.stringContaining(message) },
      });
    } else {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ fields: { dob: message } });
    }
  });

  it('asks only after eligibility, saves every answer as given, walks back and forth, and resumes where the patient left off', async () => {
    const c = await insertCustomer(t.app);
    const { visit_id } = await start(c, 'ed');
    const early = await callAs(t.app, visitsApi.v2NextQuestion, { visit_id }, c.cookie);
    expect(early.statusCode).toBe(409);
    expect((await eligible(c, visit_id)).json()).toMatchObject({
      data: { eligible: true, destination: '/visit/ed/questions' },
    });

    const questionnaire = latestQuestionnaire('ed');
    let state = (await callAs(t.app, visitsApi.v2NextQuestion, { visit_id }, c.cookie)).json<{
      data: QuestionState;
    }>().data;
    expect(state.progress.index).toBe(1);
    const seen: string[] = [];
    let halfway: string | null = null;
    while (state.item) {
      const item = questionnaire.items.find((i) => i.linkId === state.item?.linkId);
      if (!item) throw new Error(`unknown item ${state.item.linkId}`);
      seen.push(item.linkId);
      if (item.type === 'display') {
        state = (
          await callAs(t.app, visitsApi.v2NextQuestion, { visit_id, linkId: item.linkId }, c.cookie)
        ).json<{ data: QuestionState }>().data;
        continue;
      }
      const saved = await callAs(
        t.app,
        visitsApi.v2SubmitQuestion,
        { visit_id, linkId: item.linkId, value: safeAnswer(item) },
        c.cookie,
      );
      expect(saved.statusCode, `${item.linkId}: ${saved.body}`).toBe(200);
      state = saved.json<{ data: QuestionState }>().data;
      expect(state.disqualified).toBeNull();
      if (!halfway && seen.length === 5 && state.item) {
        halfway = state.item.linkId;
        // Stop, log in again somewhere else: the visit resumes at the same question.
        const login = await callAs(t.app, authApi.login, {
          email: c.email,
          password: c.password,
        });
        const elsewhere = login.cookies.find((k) => k.name === 'pw_session');
        const resumed = await callAs(
          t.app,
          visitsApi.v2NextQuestion,
          { visit_id },
          `pw_session=${elsewhere?.value}`,
        );
        expect(resumed.json<{ data: QuestionState }>().data.item?.linkId).toBe(halfway);
        const back = await callAs(
          t.app,
          visitsApi.previousQuestion,
          { visit_id, linkId: halfway },
          c.cookie,
        );
        const previous = back.json<{ data: QuestionState }>().data;
        expect(previous.item?.linkId).toBe(seen[seen.length - 1]);
        expect(previous.answer).not.toBeNull();
        const forward = await callAs(
          t.app,
          visitsApi.nextQuestion,
          { visit_id, linkId: previous.item?.linkId },
          c.cookie,
        );
        expect(forward.json<{ data: QuestionState }>().data.item?.linkId).toBe(halfway);
      }
    }
    // The last answer leads to the review of the answers, before treatment preferences.
    expect(state).toMatchObject({ done: true, destination: '/visit/ed/answers' });
    const all = await callAs(t.app, visitsApi.questions, { visit_id }, c.cookie);
    const body = all.json<{
      data: { answers: Record<string, unknown>; questionnaire: { version: string } };
    }>().data;
    expect(body.questionnaire.version).toBe(questionnaire.version);
    expect(Object.keys(body.answers).length).toBeGreaterThan(5);
    const pending = await callAs(t.app, visitsApi.pendingOrders, { leads_id: c.leadsId }, c.cookie);
    expect(pending.json<{ data: PendingOrder[] }>().data[0]?.step).toBe('preferences');
  });

  it('a disqualifying answer, once the patient confirms it, ends the visit with its reason', async () => {
    const questionnaire = latestQuestionnaire('ed');
    const item = questionnaire.items.find(
      (i) => !i.enableWhen && (i.disqualifyWhen || i.options?.some((o) => o.disqualify)),
    );
    if (!item) throw new Error('the ED questionnaire has no top-level disqualifying question');
    const c = await insertCustomer(t.app);
    const { visit_id } = await start(c, 'ed');
    await eligible(c, visit_id);
    const value: AnswerValue = item.disqualifyWhen
      ? item.disqualifyWhen.answer
      : item.type === 'multi-choice'
        ? [item.options?.find((o) => o.disqualify)?.code ?? '']
        : (item.options?.find((o) => o.disqualify)?.code ?? '');
    const response = await callAs(
      t.app,
      visitsApi.saveQuestion,
      { visit_id, linkId: item.linkId, value },
      c.cookie,
    );
    // A mis-tap is not final: the answer waits for the patient to change or confirm it.
    expect(response.json<{ data: QuestionState }>().data).toMatchObject({
      disqualified: null,
      knockout: { linkId: item.linkId, reason: disqualification(item, value) },
    });
    const confirmed = await callAs(t.app, visitsApi.confirmKnockout, { visit_id }, c.cookie);
    const state = confirmed.json<{ data: QuestionState }>().data;
    expect(state.disqualified).toBe(disqualification(item, value));
    expect(state.destination).toBe('/visit/ed/not-a-fit');
    const pending = await callAs(t.app, visitsApi.pendingOrders, { leads_id: c.leadsId }, c.cookie);
    expect(pending.json<{ data: PendingOrder[] }>().data).toEqual([]);
  });

  it('refuses an answer of the wrong kind, and a question that is not shown', async () => {
    const c = await insertCustomer(t.app);
    const { visit_id } = await start(c, 'sleep');
    await eligible(c, visit_id);
    const questionnaire = latestQuestionnaire('sleep');
    const choice = questionnaire.items.find((i) => i.type === 'choice' && !i.enableWhen);
    const hidden = questionnaire.items.find((i) => i.enableWhen);
    if (!choice || !hidden)
      throw new Error('the sleep questionnaire needs a choice and a conditional item');
    const wrong = await callAs(
      t.app,
      visitsApi.v2SubmitQuestion,
      { visit_id, linkId: choice.linkId, value: 'not-an-option' },
      c.cookie,
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ fields: { value: 'Please choose one of the options.' } });
    const notShown = await callAs(
      t.app,
      visitsApi.v2SubmitQuestion,
      { visit_id, linkId: hidden.linkId, value: true },
      c.cookie,
    );
    expect(notShown.statusCode).toBe(400);
    // Neither is stored: the one answer is the age the visit knows from the date of birth.
    expect(
      await t.app.db
        .selectFrom('visit_answers')
        .select('link_id')
        .where('visit_id', '=', visit_id)
        .execute(),
    ).toEqual([{ link_id: 'age' }]);
  });

  it("another patient can neither read nor answer a patient's visit", async () => {
    const c = await insertCustomer(t.app);
    const { visit_id } = await start(c, 'hair');
    await eligible(c, visit_id);
    const other = await insertCustomer(t.app);
    for (const [path, call] of Object.entries({
      [visitsApi.questions.path]: () => callAs(t.app, visitsApi.questions, { visit_id }, other),
      [visitsApi.v2NextQuestion.path]: () =>
        callAs(t.app, visitsApi.v2NextQuestion, { visit_id }, other),
      [visitsApi.v2SubmitQuestion.path]: () =>
        callAs(
          t.app,
          visitsApi.v2SubmitQuestion,
          { visit_id, linkId: 'anything', value: true },
          other,
        ),
      [visitsApi.eligibility.path]: () =>
        callAs(t.app, visitsApi.eligibility, { visit_id, state: 'OR', dob: '04/12/1990' }, other),
    })) {
      const response = await call();
      expect(response.statusCode, path).toBe(404);
      expect(response.json()).toMatchObject({ message: 'We could not find that visit.' });
    }
    expect((await callAs(t.app, visitsApi.questions, { visit_id })).statusCode).toBe(401);
  });

  async function visitAtPreferences(category: 'ed' | 'sleep' | 'hair' = 'ed') {
    const c = await insertCustomer(t.app);
    const { visit_id } = await start(c, category);
    await eligible(c, visit_id);
    await completeQuestions(t.app, c, visit_id, category);
    return { c, visitId: visit_id };
  }

  const upload = (
    c: TestCustomer | undefined,
    visitId: number,
    file: { bytes: Buffer; filename?: string; contentType?: string },
  ) => {
    const body = multipartBody(
      { visit_id: String(visitId) },
      {
        field: 'fileToUpload',
        filename: file.filename ?? 'id.jpg',
        contentType: file.contentType ?? 'image/jpeg',
        bytes: file.bytes,
      },
    );
    // Form data, not JSON: the bytes as multipart encodes them, whatever the form's schema says.
    return callAs(t.app, visitsApi.uploadImage, malformed(body.payload), c, {
      headers: body.headers,
    });
  };

  it('takes treatment preferences checked against the program, then moves on to the photo ID', async () => {
    const { c, visitId } = await visitAtPreferences('ed');
    const early = await callAs(
      t.app,
      visitsApi.dosage,
      { visit_id: visitId, dosage: '50mg' },
      c.cookie,
    );
    expect(early.json()).toMatchObject({ fields: { dosage: 'Choose a treatment first.' } });
    const wrong = await callAs(
      t.app,
      visitsApi.drug,
      { visit_id: visitId, drug: 'finasteride' },
      c.cookie,
    );
    expect(wrong.json()).toMatchObject({
      fields: { drug: 'Choose one of the treatments offered.' },
    });
    await callAs(t.app, visitsApi.drug, { visit_id: visitId, drug: 'sildenafil' }, c.cookie);
    await callAs(t.app, visitsApi.dosage, { visit_id: visitId, dosage: '50mg' }, c.cookie);
    const done = await callAs(
      t.app,
      visitsApi.frequency,
      { visit_id: visitId, frequency: 'as-needed-6' },
      c.cookie,
    );
    expect(done.json()).toMatchObject({
      data: {
        preferences: { drug: 'sildenafil', dosage: '50mg', frequency: 'as-needed-6' },
        destination: '/visit/ed/photo',
      },
    });
    const sleepOnly = await callAs(
      t.app,
      visitsApi.sleepPreferences,
      { visit_id: visitId, goal: 'both' },
      c.cookie,
    );
    expect(sleepOnly.statusCode).toBe(400);
  });

  it('a photo ID must be an image by its bytes and at most 10 MB; nothing else is stored', async () => {
    const { c, visitId } = await visitAtPreferences('hair');
    await callAs(t.app, visitsApi.hairPreferences, { visit_id: visitId, form: 'oral' }, c.cookie);
    await callAs(t.app, visitsApi.drug, { visit_id: visitId, drug: 'finasteride' }, c.cookie);
    await callAs(t.app, visitsApi.dosage, { visit_id: visitId, dosage: '1mg' }, c.cookie);
    await callAs(
      t.app,
      visitsApi.frequency,
      { visit_id: visitId, frequency: 'daily-30' },
      c.cookie,
    );
    const uploadsDir = path.join(t.dataDir, 'uploads');
    const stored = () => (fs.existsSync(uploadsDir) ? fs.readdirSync(uploadsDir).length : 0);

    const pdf = await upload(c, visitId, {
      bytes: Buffer.from('%PDF-1.7 this is a document'),
      filename: 'id.jpg',
    });
    expect(pdf.statusCode).toBe(415);
    expect(pdf.json()).toMatchObject({
      fields: { fileToUpload: 'Please upload a photo of your ID as a JPEG, PNG or WebP image.' },
    });
    const huge = await upload(c, visitId, {
      bytes: Buffer.concat([jpegWithGps, Buffer.alloc(10 * 1024 * 1024 + 10)]),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({
      message: 'That photo is larger than 10 MB. Please choose a smaller one.',
    });
    expect(stored()).toBe(0);
    expect(
      await t.app.db
        .selectFrom('uploads')
        .select('id')
        .where('customer_id', '=', c.customerId)
        .execute(),
    ).toHaveLength(0);

    const ok = await upload(c, visitId, {
      bytes: jpegWithGps,
      filename: 'whatever.pdf',
      contentType: 'application/pdf',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const { upload_id, destination } = ok.json<{
      data: { upload_id: string; destination: string };
    }>().data;
    expect(destination).toBe('/visit/hair/consent');
    // Named by an opaque id, never the row's number (decision 005).
    expect(upload_id).toMatch(/^[\w-]{22}$/);
    expect(stored()).toBe(1);
    const onDisk = fs
      .readFileSync(path.join(uploadsDir, fs.readdirSync(uploadsDir)[0] ?? ''))
      .toString('latin1');
    expect(onDisk).not.toContain('GPS canary');

    const photo = (who?: TestCustomer) =>
      callAs(t.app, visitsApi.photoId, undefined, who, { params: { id: upload_id } });
    const mine = await photo(c);
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['content-type']).toBe('image/jpeg');
    expect(mine.headers['cache-control']).toBe('private, no-store');
    const other = await insertCustomer(t.app);
    expect((await photo(other)).statusCode).toBe(404);
    expect((await photo()).statusCode).toBe(404);
    expect((await upload(other, visitId, { bytes: jpegWithGps })).statusCode).toBe(404);
  });

  it('records consent to telehealth and moves on to checkout', async () => {
    const { c, visitId } = await visitAtPreferences('ed');
    await callAs(t.app, visitsApi.drug, { visit_id: visitId, drug: 'tadalafil' }, c.cookie);
    await callAs(t.app, visitsApi.dosage, { visit_id: visitId, dosage: '5mg' }, c.cookie);
    await callAs(
      t.app,
      visitsApi.frequency,
      { visit_id: visitId, frequency: 'daily-30' },
      c.cookie,
    );
    const tooSoon = await callAs(
      t.app,
      visitsApi.consent,
      { visit_id: visitId, consent: true },
      c.cookie,
    );
    expect(tooSoon.json()).toMatchObject({ message: 'Please upload a photo of your ID first.' });
    await upload(c, visitId, { bytes: jpegWithGps });
    const unchecked = await callAs(
      t.app,
      visitsApi.consent,
      malformed({ visit_id: visitId, consent: false }),
      c.cookie,
    );
    expect(unchecked.json()).toMatchObject({
      fields: { consent: 'Continue your online visit by checking the box above' },
    });
    const ok = await callAs(
      t.app,
      visitsApi.consent,
      { visit_id: visitId, consent: true },
      c.cookie,
    );
    expect(ok.json()).toMatchObject({ data: { destination: '/visit/ed/checkout' } });
  });
});
