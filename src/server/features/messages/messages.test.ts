import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStaff } from '#server/db/seed-demo.ts';
import type { BodyOf } from '#shared/contract.ts';
import { type CareInboxItem, type Thread, messagesApi } from '#shared/messages.ts';
import { accountsApi } from '#shared/accounts.ts';
import { operationsApi } from '#shared/operations.ts';
import { reviewsApi } from '#shared/reviews.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs, malformed } from '#test/contract.ts';
import { insertCustomer, staffCookie } from '#test/factories.ts';
import { submittedEdVisit } from '#test/visits.ts';
import { sentMessages } from '#test/outbox.ts';

const provider = demoStaff.find((s) => s.role === 'provider')!;
const operations = demoStaff.find((s) => s.role === 'operations')!;

describe(`messages between patients and their care team (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
  });
  afterAll(() => t.close());

  const providerCookie = (who: (typeof demoStaff)[number] = provider) => staffCookie(t, who);

  it('a provider writes about a visit; the patient sees it unread, is emailed without the text, replies, and the provider sees the reply', async () => {
    const c = await insertCustomer(t.app);
    const { visitId } = await submittedEdVisit(t.app, c);
    const staff = await providerCookie();
    const secret = 'Take one tablet about an hour before; canary-health-detail.';
    const sent = await callAs(
      t.app,
      reviewsApi.sendMessage,
      { visit_id: visitId, body: secret },
      staff,
    );
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({
      data: { message: { sender: 'care_team', author: provider.name } },
    });

    const mail = (await sentMessages(t)).find(
      (m) => m.to === c.email && m.subject === 'You have a new message from your care team',
    );
    expect(mail).toBeDefined();
    expect(mail?.text).not.toContain('canary-health-detail');
    expect(t.logs()).not.toContain('canary-health-detail');

    const basics = await callAs(t.app, accountsApi.basics, {}, c.cookie);
    expect(
      basics.json<{ data: { flags: { type: string }[] } }>().data.flags.map((f) => f.type),
    ).toContain('unread_messages');
    const all = await callAs(t.app, messagesApi.getAll, { leads_id: c.leadsId }, c.cookie);
    const [thread] = all.json<{ data: { threads: Thread[]; unread: number } }>().data.threads;
    expect(all.json()).toMatchObject({ data: { unread: 1 } });
    expect(thread).toMatchObject({
      visit_id: visitId,
      unread: 1,
      messages: [{ body: secret, read: false }],
    });

    const since = new Date(t.clock.now().getTime()).toISOString();
    t.clock.advance(1000);
    await callAs(t.app, messagesApi.read, { leads_id: c.leadsId, thread_id: thread!.id }, c.cookie);
    const reply = await callAs(
      t.app,
      messagesApi.send,
      { leads_id: c.leadsId, thread_id: thread!.id, body: 'Thank you, will do.' },
      c.cookie,
    );
    expect(reply.json()).toMatchObject({
      data: { message: { sender: 'patient', body: 'Thank you, will do.' } },
    });
    const recent = await callAs(
      t.app,
      messagesApi.getRecent,
      { leads_id: c.leadsId, since },
      c.cookie,
    );
    expect(recent.json()).toMatchObject({
      data: { unread: 0, messages: [{ body: 'Thank you, will do.' }] },
    });

    const seen = await callAs(t.app, reviewsApi.messages, { visit_id: visitId }, staff);
    expect(
      seen.json<{ data: { thread: Thread } }>().data.thread.messages.map((m) => m.body),
    ).toEqual([secret, 'Thank you, will do.']);
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select('subject_type')
      .where('customer_id', '=', c.customerId)
      .where('subject_type', '=', 'messages')
      .execute();
    expect(audit).toHaveLength(1);
  });

  it('a patient starts a conversation with a subject; another patient can neither read nor write in it', async () => {
    const c = await insertCustomer(t.app);
    const noSubject = await callAs(
      t.app,
      messagesApi.send,
      { leads_id: c.leadsId, body: 'Hello' },
      c.cookie,
    );
    expect(noSubject.json()).toMatchObject({
      fields: { topic: 'Choose what your message is about', subject: 'Add a subject' },
    });
    const noTopic = await callAs(
      t.app,
      messagesApi.send,
      { leads_id: c.leadsId, subject: 'Question', body: 'Hello' },
      c.cookie,
    );
    expect(noTopic.statusCode).toBe(400);
    expect(noTopic.json()).toMatchObject({
      message: 'Choose what your message is about',
      fields: { topic: 'Choose what your message is about' },
    });
    const badTopic = await callAs(
      t.app,
      messagesApi.send,
      malformed({ leads_id: c.leadsId, subject: 'Question', topic: 'billing', body: 'Hello' }),
      c.cookie,
    );
    expect(badTopic.json()).toMatchObject({
      fields: { topic: 'Choose what your message is about' },
    });
    const empty = await callAs(
      t.app,
      messagesApi.send,
      { leads_id: c.leadsId, subject: 'Question', topic: 'other', body: '  ' },
      c.cookie,
    );
    expect(empty.json()).toMatchObject({ fields: { body: 'Write a message' } });
    const started = await callAs(
      t.app,
      messagesApi.send,
      {
        leads_id: c.leadsId,
        subject: 'A question about shipping',
        topic: 'order',
        body: 'When will it arrive?',
      },
      c.cookie,
    );
    const threadId = started.json<{ data: { message: { thread_id: number } } }>().data.message
      .thread_id;

    const other = await insertCustomer(t.app);
    const intrude = await callAs(
      t.app,
      messagesApi.send,
      { leads_id: other.leadsId, thread_id: threadId, body: 'Hi' },
      other.cookie,
    );
    expect(intrude.statusCode).toBe(404);
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
      (await callAs(t.app, messagesApi.getAll, { leads_id: c.leadsId }, other.cookie)).statusCode,
    ).toBe(403);
    const theirs = await callAs(
      t.app,
      messagesApi.getAll,
      { leads_id: other.leadsId },
      other.cookie,
    );
    expect(theirs.json()).toMatchObject({ data: { threads: [], unread: 0 } });
  });

  it('a patient asks about an order; the care team finds it in their inbox, reads and answers it', async () => {
    const c = await insertCustomer(t.app);
    const { visitId, orderNumber } = await submittedEdVisit(t.app, c);
    const send = (
      cookie: string,
      leadsId: string,
      extra: Omit<BodyOf<typeof messagesApi.send>, 'leads_id'>,
    ) => callAs(t.app, messagesApi.send, { leads_id: leadsId, ...extra }, cookie);

    // Someone else's order, or none: refused, and nothing is stored.
    const other = await insertCustomer(t.app);
    const threads = () => t.app.db.selectFrom('message_threads').select('id').execute();
    const before = (await threads()).length;
    const foreign = await send(other.cookie, other.leadsId, {
      order_number: orderNumber,
      body: 'Where is it?',
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ message: 'We could not find that order.' });
    expect((await threads()).length).toBe(before);

    const asked = await send(c.cookie, c.leadsId, {
      order_number: orderNumber,
      body: 'When will my order ship? canary-order-question',
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const mine = await callAs(t.app, messagesApi.getAll, { leads_id: c.leadsId }, c.cookie);
    const [thread] = mine.json<{ data: { threads: Thread[] } }>().data.threads;
    expect(thread).toMatchObject({
      subject: `Order ${orderNumber}`,
      order_number: orderNumber,
      topic: 'order',
    });

    // Providers answer visits in the chart; the inbox is for operations staff.
    expect((await callAs(t.app, operationsApi.inbox, {}, await providerCookie())).statusCode).toBe(
      403,
    );
    expect((await callAs(t.app, operationsApi.inbox, {}, c.cookie)).statusCode).toBe(401);
    const ops = await providerCookie(operations);
    const inbox = await callAs(t.app, operationsApi.inbox, {}, ops);
    expect(inbox.statusCode, inbox.body).toBe(200);
    const items = inbox.json<{ data: { threads: CareInboxItem[] } }>().data.threads;
    expect(items.find((i) => i.thread_id === thread!.id)).toMatchObject({
      subject: `Order ${orderNumber}`,
      topic: 'order',
      provider: null,
      order_number: orderNumber,
      customer_id: c.customerId,
      unread: 1,
      last_sender: 'patient',
    });
    // A visit's thread stays with its provider.
    const visitThread = await callAs(
      t.app,
      reviewsApi.sendMessage,
      { visit_id: visitId, body: 'About your visit.' },
      await providerCookie(),
    );
    const visitThreadId = visitThread.json<{ data: { message: { thread_id: number } } }>().data
      .message.thread_id;
    expect(items.some((i) => i.thread_id === visitThreadId)).toBe(false);
    expect(
      (await callAs(t.app, operationsApi.inboxThread, { thread_id: visitThreadId }, ops))
        .statusCode,
    ).toBe(404);

    const opened = await callAs(t.app, operationsApi.inboxThread, { thread_id: thread!.id }, ops);
    expect(opened.json()).toMatchObject({
      data: {
        thread: {
          messages: [{ sender: 'patient', body: 'When will my order ship? canary-order-question' }],
        },
        patient: { customer_id: c.customerId },
      },
    });
    const reread = await callAs(t.app, operationsApi.inbox, {}, ops);
    expect(
      reread
        .json<{ data: { threads: CareInboxItem[] } }>()
        .data.threads.find((i) => i.thread_id === thread!.id)?.unread,
    ).toBe(0);

    const answered = await callAs(
      t.app,
      operationsApi.inboxReply,
      { thread_id: thread!.id, body: 'It ships once your provider has reviewed your visit.' },
      ops,
    );
    expect(answered.json()).toMatchObject({
      data: { message: { sender: 'care_team', author: operations.name } },
    });
    const after = await callAs(t.app, messagesApi.getAll, { leads_id: c.leadsId }, c.cookie);
    // The provider's note about the visit and this answer, both unread.
    expect(after.json()).toMatchObject({ data: { unread: 2 } });
    const mail = (await sentMessages(t)).filter(
      (m) => m.to === c.email && m.subject === 'You have a new message from your care team',
    );
    expect(mail.length).toBeGreaterThan(0);
    expect(mail.every((m) => !m.text.includes('reviewed your visit'))).toBe(true);
    expect(t.logs()).not.toContain('canary-order-question');
    const audited = await t.app.db
      .selectFrom('audit_log')
      .select(['action', 'subject_type'])
      .where('customer_id', '=', c.customerId)
      .where('subject_type', 'in', ['messages', 'thread'])
      .orderBy('id')
      .execute();
    expect(audited).toEqual([
      { action: 'view', subject_type: 'messages' },
      { action: 'message', subject_type: 'thread' },
    ]);
  });
});
