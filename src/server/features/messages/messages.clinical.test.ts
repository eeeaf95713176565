import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStaff } from '#server/db/seed-demo.ts';
import { hashPassword } from '#server/features/auth/passwords.ts';
import { createStaff } from '#server/features/staff/staff.service.ts';
import type { BodyOf } from '#shared/contract.ts';
import { calendarDateOf, isoDate } from '#shared/dates.ts';
import {
  type CareInboxItem,
  type PatientMessageItem,
  type Thread,
  messagesApi,
} from '#shared/messages.ts';
import { operationsApi } from '#shared/operations.ts';
import { reviewsApi } from '#shared/reviews.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs, malformed, type Malformed } from '#test/contract.ts';
import { insertCustomer, staffCookie, type TestCustomer } from '#test/factories.ts';
import { sentMessages } from '#test/outbox.ts';
import { submittedEdVisit } from '#test/visits.ts';

const provider = demoStaff.find((s) => s.role === 'provider')!;
const DAY = 24 * 60 * 60 * 1000;
const operations = demoStaff.find((s) => s.role === 'operations')!;
/** A provider licensed only in Texas: never given these Oregon patients. */
const texasProvider = {
  email: 'texas-provider@pairwell.test',
  password: 'texas-provider-password',
  totpSecret: 'GEZDGNBVGY3TQOJQ',
  name: 'Dr. Lee Park, MD',
};

describe(`clinical questions go to a provider, not to operations (${testDialect})`, () => {
  let t: TestApp;
  let providerId: number;
  let texasId: number;
  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
    await createStaff(t.app.ctx, {
      ...texasProvider,
      role: 'provider',
      passwordHash: await hashPassword(texasProvider.password),
      licences: [{ state: 'TX', number: 'TX-TEST-1', expiresOn: '2099-12-31' }],
    });
    const ids = await t.app.db.selectFrom('staff_users').select(['id', 'email']).execute();
    providerId = ids.find((s) => s.email === provider.email)!.id;
    texasId = ids.find((s) => s.email === texasProvider.email)!.id;
  });
  afterAll(() => t.close());

  const send = (c: TestCustomer, body: Omit<BodyOf<typeof messagesApi.send>, 'leads_id'>) =>
    callAs(t.app, messagesApi.send, { leads_id: c.leadsId, ...body }, c.cookie);
  const threadIdOf = (response: { json: <T>() => T }) =>
    response.json<{ data: { message: { thread_id: number } } }>().data.message.thread_id;
  const threadRow = (id: number) =>
    t.app.db
      .selectFrom('message_threads')
      .select(['topic', 'provider_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const inbox = async (ops: string) =>
    (await callAs(t.app, operationsApi.inbox, {}, ops)).json<{
      data: { threads: CareInboxItem[] };
    }>().data.threads;
  const patientMessages = async (cookie: string) => {
    const response = await callAs(t.app, reviewsApi.patientMessages, {}, cookie);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: { threads: PatientMessageItem[] } }>().data.threads;
  };

  it('"My treatment" goes to the provider of the latest visit; operations see only that it exists; nobody else reads it; the provider answers', async () => {
    const c = await insertCustomer(t.app);
    await submittedEdVisit(t.app, c);
    const question = 'Can I take melatonin with a glass of wine? canary-clinical-question';
    const sent = await send(c, {
      topic: 'treatment',
      subject: 'Melatonin and wine',
      body: question,
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const threadId = threadIdOf(sent);
    expect(await threadRow(threadId)).toEqual({ topic: 'treatment', provider_id: providerId });

    const mine = await callAs(t.app, messagesApi.getAll, { leads_id: c.leadsId }, c.cookie);
    expect(
      mine.json<{ data: { threads: Thread[] } }>().data.threads.find((x) => x.id === threadId),
    ).toMatchObject({ topic: 'treatment', visit_id: null });

    // Operations see that a clinical question waits, and with whom, but not what it says.
    const ops = await staffCookie(t, operations);
    const listed = (await inbox(ops)).find((i) => i.thread_id === threadId);
    expect(listed).toMatchObject({
      subject: null,
      topic: 'treatment',
      provider: provider.name,
      customer_id: c.customerId,
      last_sender: 'patient',
    });
    const opsRead = await callAs(t.app, operationsApi.inboxThread, { thread_id: threadId }, ops);
    expect(opsRead.statusCode).toBe(404);
    expect(opsRead.body).not.toContain('canary-clinical-question');
    const opsReply = await callAs(
      t.app,
      operationsApi.inboxReply,
      { thread_id: threadId, body: 'We will ask.' },
      ops,
    );
    expect(opsReply.statusCode).toBe(404);
    expect(
      (await callAs(t.app, reviewsApi.patientThread, { thread_id: threadId }, ops)).statusCode,
    ).toBe(403);

    // Another provider, another patient, a visitor: nothing.
    const texas = await staffCookie(t, texasProvider);
    expect((await patientMessages(texas)).some((i) => i.thread_id === threadId)).toBe(false);
    const texasRead = await callAs(t.app, reviewsApi.patientThread, { thread_id: threadId }, texas);
    const ghostRead = await callAs(
      t.app,
      reviewsApi.patientThread,
      { thread_id: 987_654_321 },
      texas,
    );
    expect(texasRead.statusCode).toBe(404);
    expect(texasRead.json<{ message: string }>().message).toBe(
      ghostRead.json<{ message: string }>().message,
    );
    expect(
      (await callAs(t.app, reviewsApi.patientReply, { thread_id: threadId, body: 'Hello' }, texas))
        .statusCode,
    ).toBe(404);
    const other = await insertCustomer(t.app);
    expect(
      (
        await callAs(
          t.app,
          messagesApi.read,
          { leads_id: other.leadsId, thread_id: threadId },
          other.cookie,
        )
      ).statusCode,
    ).toBe(404);
    expect(
      (await callAs(t.app, reviewsApi.patientThread, { thread_id: threadId }, c.cookie)).statusCode,
    ).toBe(401);

    // The provider finds it, reads it, answers; the patient is emailed without the words.
    const doctor = await staffCookie(t, provider);
    expect((await patientMessages(doctor)).find((i) => i.thread_id === threadId)).toMatchObject({
      subject: 'Melatonin and wine',
      assigned: 'me',
      state: 'OR',
      unread: 1,
      last_sender: 'patient',
    });
    const opened = await callAs(t.app, reviewsApi.patientThread, { thread_id: threadId }, doctor);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toMatchObject({
      data: {
        thread: { topic: 'treatment', messages: [{ sender: 'patient', body: question }] },
        patient: { customer_id: c.customerId, state: 'OR' },
        assigned: 'me',
      },
    });
    const answer = 'Best not: alcohol and melatonin together make you drowsier. canary-answer';
    const replied = await callAs(
      t.app,
      reviewsApi.patientReply,
      { thread_id: threadId, body: answer },
      doctor,
    );
    expect(replied.json()).toMatchObject({
      data: { message: { sender: 'care_team', author: provider.name, body: answer } },
    });
    const after = await callAs(t.app, messagesApi.getAll, { leads_id: c.leadsId }, c.cookie);
    expect(
      after.json<{ data: { threads: Thread[] } }>().data.threads.find((x) => x.id === threadId)
        ?.messages,
    ).toMatchObject([{ body: question }, { body: answer, author: provider.name }]);
    const mail = (await sentMessages(t)).filter((m) => m.to === c.email);
    expect(mail.some((m) => m.subject === 'You have a new message from your care team')).toBe(true);
    expect(mail.every((m) => !m.text.includes('canary-answer'))).toBe(true);
    expect(t.logs()).not.toContain('canary-clinical-question');
    expect(t.logs()).not.toContain('canary-answer');
    expect((await inbox(ops)).find((i) => i.thread_id === threadId)?.last_sender).toBe('care_team');

    const audited = await t.app.db
      .selectFrom('audit_log')
      .select(['action', 'subject_type', 'staff_id'])
      .where('customer_id', '=', c.customerId)
      .where('subject_type', 'in', ['messages', 'thread'])
      .orderBy('id')
      .execute();
    expect(audited).toEqual([
      { action: 'view', subject_type: 'messages', staff_id: providerId },
      { action: 'message', subject_type: 'thread', staff_id: providerId },
    ]);
  });

  it('without an active provider of a visit, the question is open to every provider licensed in the state, and the one who answers takes it', async () => {
    const c = await insertCustomer(t.app);
    const { visitId } = await submittedEdVisit(t.app, c);
    // The visit's provider has left.
    await createStaff(t.app.ctx, {
      email: 'left@pairwell.test',
      name: 'Dr. Gone, MD',
      role: 'provider',
      passwordHash: 'no-log-in',
      totpSecret: 'JBSWY3DPEHPK3PXP',
      licences: [{ state: 'OR', number: 'OR-TEST-1', expiresOn: '2099-12-31' }],
    });
    const gone = await t.app.db
      .updateTable('staff_users')
      .set({ active: 0 })
      .where('email', '=', 'left@pairwell.test')
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.app.db
      .updateTable('visits')
      .set({ provider_id: gone.id })
      .where('id', '=', visitId)
      .execute();

    const sent = await send(c, { topic: 'treatment', subject: 'Side effects', body: 'Headache.' });
    const threadId = threadIdOf(sent);
    expect(await threadRow(threadId)).toEqual({ topic: 'treatment', provider_id: null });

    const texas = await staffCookie(t, texasProvider);
    expect((await patientMessages(texas)).some((i) => i.thread_id === threadId)).toBe(false);
    expect(
      (await callAs(t.app, reviewsApi.patientThread, { thread_id: threadId }, texas)).statusCode,
    ).toBe(404);

    const doctor = await staffCookie(t, provider);
    expect((await patientMessages(doctor)).find((i) => i.thread_id === threadId)).toMatchObject({
      assigned: 'open',
      state: 'OR',
    });
    const replied = await callAs(
      t.app,
      reviewsApi.patientReply,
      { thread_id: threadId, body: 'Drink water and rest; tell us if it lasts.' },
      doctor,
    );
    expect(replied.statusCode, replied.body).toBe(200);
    expect(await threadRow(threadId)).toEqual({ topic: 'treatment', provider_id: providerId });
    expect((await patientMessages(doctor)).find((i) => i.thread_id === threadId)?.assigned).toBe(
      'me',
    );
  });

  it('operations hand a question asked as "Something else" to a provider, audited; it leaves their inbox', async () => {
    const c = await insertCustomer(t.app);
    await submittedEdVisit(t.app, c);
    const sent = await send(c, {
      topic: 'other',
      subject: 'A quick question',
      body: 'Is melatonin safe with wine?',
    });
    const threadId = threadIdOf(sent);
    expect(await threadRow(threadId)).toEqual({ topic: 'other', provider_id: null });

    // Providers do not see the care team's threads.
    const doctor = await staffCookie(t, provider);
    expect((await patientMessages(doctor)).some((i) => i.thread_id === threadId)).toBe(false);
    expect(
      (await callAs(t.app, reviewsApi.patientThread, { thread_id: threadId }, doctor)).statusCode,
    ).toBe(404);

    const ops = await staffCookie(t, operations);
    expect((await inbox(ops)).find((i) => i.thread_id === threadId)).toMatchObject({
      subject: 'A quick question',
      topic: 'other',
    });
    const opened = await callAs(t.app, operationsApi.inboxThread, { thread_id: threadId }, ops);
    const providers = opened.json<{
      data: { providers: { id: number; name: string; licensed_in_state: boolean }[] };
    }>().data.providers;
    expect(providers[0]).toEqual({ id: providerId, name: provider.name, licensed_in_state: true });
    expect(providers.find((p) => p.id === texasId)).toMatchObject({ licensed_in_state: false });

    const handOff = (body: BodyOf<typeof operationsApi.inboxHandOff> | Malformed, cookie = ops) =>
      callAs(t.app, operationsApi.inboxHandOff, body, cookie);
    // Not to operations staff, not to nobody, not by a provider or a patient.
    const opsId = (
      await t.app.db
        .selectFrom('staff_users')
        .select('id')
        .where('email', '=', operations.email)
        .executeTakeFirstOrThrow()
    ).id;
    const toOps = await handOff({ thread_id: threadId, provider_id: opsId });
    expect(toOps.statusCode).toBe(404);
    expect(toOps.json()).toMatchObject({ message: 'We could not find that provider.' });
    expect((await handOff(malformed({ thread_id: threadId }))).statusCode).toBe(400);
    expect(
      (await handOff({ thread_id: threadId, provider_id: providerId }, doctor)).statusCode,
    ).toBe(403);
    expect(
      (await handOff({ thread_id: threadId, provider_id: providerId }, c.cookie)).statusCode,
    ).toBe(401);
    expect(await threadRow(threadId)).toEqual({ topic: 'other', provider_id: null });

    const handed = await handOff({ thread_id: threadId, provider_id: providerId });
    expect(handed.statusCode, handed.body).toBe(200);
    expect(handed.json()).toMatchObject({
      message: 'Handed to the provider. They answer the patient from their console.',
    });
    expect(await threadRow(threadId)).toEqual({ topic: 'treatment', provider_id: providerId });
    // Handed once: it is no longer the care team's to hand or read.
    expect((await handOff({ thread_id: threadId, provider_id: texasId })).statusCode).toBe(404);
    expect(
      (await callAs(t.app, operationsApi.inboxThread, { thread_id: threadId }, ops)).statusCode,
    ).toBe(404);
    expect((await inbox(ops)).find((i) => i.thread_id === threadId)).toMatchObject({
      subject: null,
      provider: provider.name,
    });
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select(['action', 'subject_type', 'subject_id', 'staff_id'])
      .where('customer_id', '=', c.customerId)
      .where('action', '=', 'hand_off')
      .execute();
    expect(audit).toEqual([
      { action: 'hand_off', subject_type: 'thread', subject_id: String(threadId), staff_id: opsId },
    ]);

    expect((await patientMessages(doctor)).find((i) => i.thread_id === threadId)).toMatchObject({
      assigned: 'me',
      // Operations read it before handing it on; it still waits for an answer.
      last_sender: 'patient',
    });
    const mine = await callAs(t.app, messagesApi.getAll, { leads_id: c.leadsId }, c.cookie);
    expect(
      mine.json<{ data: { threads: Thread[] } }>().data.threads.find((x) => x.id === threadId)
        ?.topic,
    ).toBe('treatment');
  });

  it('a question operations answered in part and handed on waits for a provider until one answers', async () => {
    const c = await insertCustomer(t.app);
    await submittedEdVisit(t.app, c);
    const threadId = threadIdOf(
      await send(c, {
        topic: 'other',
        subject: 'My refill',
        body: 'When does my refill ship, and can I take it with my blood pressure pills?',
      }),
    );
    const ops = await staffCookie(t, operations);
    const answered = await callAs(
      t.app,
      operationsApi.inboxReply,
      { thread_id: threadId, body: 'It ships on Friday. A provider will answer the rest.' },
      ops,
    );
    expect(answered.statusCode, answered.body).toBe(200);
    // Not clinical yet: the care team's thread, answered by them.
    expect((await inbox(ops)).find((i) => i.thread_id === threadId)).toMatchObject({
      last_sender: 'care_team',
      waiting_for_provider: false,
    });
    const handed = await callAs(
      t.app,
      operationsApi.inboxHandOff,
      { thread_id: threadId, provider_id: providerId },
      ops,
    );
    expect(handed.statusCode, handed.body).toBe(200);

    // Operations wrote last, but no clinician has answered: it waits, and is counted as waiting.
    const doctor = await staffCookie(t, provider);
    expect((await patientMessages(doctor)).find((i) => i.thread_id === threadId)).toMatchObject({
      last_sender: 'care_team',
      waiting_for_provider: true,
    });
    expect((await inbox(ops)).find((i) => i.thread_id === threadId)).toMatchObject({
      waiting_for_provider: true,
    });

    const reply = await callAs(
      t.app,
      reviewsApi.patientReply,
      { thread_id: threadId, body: 'Yes, they are safe together at your dose.' },
      doctor,
    );
    expect(reply.statusCode, reply.body).toBe(200);
    expect((await patientMessages(doctor)).find((i) => i.thread_id === threadId)).toMatchObject({
      waiting_for_provider: false,
    });
    expect((await inbox(ops)).find((i) => i.thread_id === threadId)).toMatchObject({
      waiting_for_provider: false,
    });

    // The patient asks again: waiting once more.
    await callAs(
      t.app,
      messagesApi.send,
      { leads_id: c.leadsId, thread_id: threadId, body: 'And with grapefruit juice?' },
      c.cookie,
    );
    expect((await patientMessages(doctor)).find((i) => i.thread_id === threadId)).toMatchObject({
      last_sender: 'patient',
      waiting_for_provider: true,
    });
  });

  it("beside a question and a visit's conversation, the provider sees the patient's prescriptions valid today, each with its chart", async () => {
    const c = await insertCustomer(t.app);
    const { visitId } = await submittedEdVisit(t.app, c);
    const doctor = await staffCookie(t, provider);
    const validUntil = isoDate(calendarDateOf(new Date(t.clock.now().getTime() + 90 * DAY)));
    const approved = await callAs(
      t.app,
      reviewsApi.approve,
      {
        visit_id: visitId,
        prescription: {
          drug: 'sildenafil',
          dosage: '50mg',
          quantity: 6,
          refills: 2,
          valid_until: validUntil,
          directions: 'Take one tablet about an hour before.',
        },
      },
      doctor,
    );
    expect(approved.statusCode, approved.body).toBe(200);
    const threadId = threadIdOf(
      await send(c, { topic: 'treatment', subject: 'A headache', body: 'Is a headache normal?' }),
    );
    const opened = async () => {
      const response = await callAs(
        t.app,
        reviewsApi.patientThread,
        { thread_id: threadId },
        await staffCookie(t, provider),
      );
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ data: { prescriptions: unknown[] } }>().data.prescriptions;
    };
    // And beside the visit's own conversation, on its chart.
    const besideVisit = async () => {
      const response = await callAs(
        t.app,
        reviewsApi.messages,
        { visit_id: visitId },
        await staffCookie(t, provider),
      );
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ data: { prescriptions: unknown[] } }>().data.prescriptions;
    };
    const active = [
      {
        visit_id: visitId,
        medicine: expect.stringMatching(/^Sildenafil .*50 mg$/) as string,
        directions: 'Take one tablet about an hour before.',
        refills: 2,
        valid_until: validUntil,
      },
    ];
    expect(await opened()).toEqual(active);
    expect(await besideVisit()).toEqual(active);
    // Past its date it is no longer active.
    t.clock.advance(91 * DAY);
    expect(await opened()).toEqual([]);
    expect(await besideVisit()).toEqual([]);
  });

  it('a question about an order is about the order unless the patient says otherwise', async () => {
    const c = await insertCustomer(t.app);
    const { orderNumber } = await submittedEdVisit(t.app, c);
    const aboutOrder = await send(c, { order_number: orderNumber, body: 'When will it ship?' });
    expect(await threadRow(threadIdOf(aboutOrder))).toEqual({ topic: 'order', provider_id: null });
    const aboutDose = await send(c, {
      order_number: orderNumber,
      topic: 'treatment',
      body: 'How many should I take?',
    });
    expect(await threadRow(threadIdOf(aboutDose))).toEqual({
      topic: 'treatment',
      provider_id: providerId,
    });
  });
});
