import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { demoStaff } from '#server/db/seed-demo.ts';
import { MESSAGES_PAGE_SIZE, type Message, type Thread, messagesApi } from '#shared/messages.ts';
import { operationsApi } from '#shared/operations.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import { insertCustomer, staffCookie, type TestCustomer } from '#test/factories.ts';
import { expectIndexedReads, sqliteStatementsRun, statementsDuring } from '#test/sql-statements.ts';

const operations = demoStaff.find((s) => s.role === 'operations')!;

/**
 * A conversation a page at a time (issue 14): the list of conversations brings each one's newest
 * page, "Load earlier messages" asks for the page before with its cursor; pages neither repeat nor
 * skip a message written between two of them; another's conversation or cursor is not found.
 */
describe(`messages, a page at a time (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
  });
  afterAll(() => t.close());

  /** A conversation about an order of `count` messages (the first written through the API). */
  async function conversation(c: TestCustomer, count: number): Promise<number> {
    const started = await callAs(
      t.app,
      messagesApi.send,
      { leads_id: c.leadsId, subject: 'Where is my parcel?', topic: 'order', body: 'Message 1' },
      c.cookie,
    );
    expect(started.statusCode, started.body).toBe(200);
    const threadId = started.json<{ data: { message: Message } }>().data.message.thread_id;
    const start = t.clock.now().getTime();
    const rows = Array.from({ length: count - 1 }, (_, i) => {
      const at = new Date(start + (i + 1) * 1000).toISOString();
      const fromPatient = i % 2 === 1;
      return {
        thread_id: threadId,
        sender: fromPatient ? ('patient' as const) : ('care_team' as const),
        staff_id: null,
        body: `Message ${i + 2}`,
        created_at: at,
        // The care team's messages are unread, the patient's read.
        read_at: fromPatient ? at : null,
      };
    });
    for (let i = 0; i < rows.length; i += 100)
      await t.app.db
        .insertInto('messages')
        .values(rows.slice(i, i + 100))
        .execute();
    return threadId;
  }

  async function threads(c: TestCustomer) {
    const response = await callAs(t.app, messagesApi.getAll, { leads_id: c.leadsId }, c.cookie);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: { threads: Thread[]; unread: number } }>().data;
  }

  async function earlier(c: TestCustomer, threadId: number, cursor?: string | null) {
    return callAs(
      t.app,
      messagesApi.thread,
      { leads_id: c.leadsId, thread_id: threadId, ...(cursor ? { cursor } : {}) },
      c.cookie,
    );
  }

  async function pageOf(c: TestCustomer, threadId: number, cursor?: string | null) {
    const response = await earlier(c, threadId, cursor);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: { thread: Thread } }>().data.thread;
  }

  const bodies = (thread: Thread) => thread.messages.map((m) => m.body);
  const numbered = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => `Message ${from + i}`);

  it('the list brings the newest page of each conversation; earlier pages follow the cursor to the first message', async () => {
    const c = await insertCustomer(t.app);
    const threadId = await conversation(c, 75);
    const list = await threads(c);
    const newest = list.threads.find((th) => th.id === threadId)!;
    expect(bodies(newest)).toEqual(numbered(75 - MESSAGES_PAGE_SIZE + 1, 75));
    expect(newest.has_more).toBe(true);
    expect(newest.next_cursor).toBe(String(newest.messages[0]!.id));
    // Unread counts the whole conversation, not only the page shown: 37 of the care team's.
    expect(newest.unread).toBe(37);
    expect(list.unread).toBe(37);

    // The same newest page from the conversation's own call, then each page before it.
    const first = await pageOf(c, threadId);
    expect(bodies(first)).toEqual(bodies(newest));
    const second = await pageOf(c, threadId, first.next_cursor);
    expect(bodies(second)).toEqual(
      numbered(75 - 2 * MESSAGES_PAGE_SIZE + 1, 75 - MESSAGES_PAGE_SIZE),
    );
    expect(second.has_more).toBe(true);
    const third = await pageOf(c, threadId, second.next_cursor);
    expect(bodies(third)).toEqual(numbered(1, 75 - 2 * MESSAGES_PAGE_SIZE));
    expect(third.has_more).toBe(false);
    expect(third.next_cursor).toBeNull();
    expect([...bodies(third), ...bodies(second), ...bodies(first)]).toEqual(numbered(1, 75));
  });

  it('the list reads one statement for a customer without a conversation, two with conversations', async () => {
    // The patient's name, the conversations and their unread counts in one statement, the newest
    // pages in another. A session read a moment ago is kept (session-cache.ts); on PostgreSQL once
    // the instance listens, a moment after it starts.
    const c = await insertCustomer(t.app);
    const list = () => statementsDuring(() => threads(c));
    await vi.waitFor(async () => expect(await list()).toBe(1), { timeout: 15_000, interval: 50 });
    await conversation(c, 3);
    await conversation(c, 2);
    expect(await list()).toBe(2);
    const both = await threads(c);
    expect(both.threads.map((th) => th.unread).sort()).toEqual([1, 1]);
    expect(both.unread).toBe(2);
  });

  it.runIf(testDialect === 'sqlite')(
    'the list and a page before read every table through an index, never a whole table',
    async () => {
      const c = await insertCustomer(t.app);
      const threadId = await conversation(c, 75);
      const statements = await sqliteStatementsRun(async () => {
        const newest = (await threads(c)).threads.find((th) => th.id === threadId)!;
        await pageOf(c, threadId, newest.next_cursor);
      });
      expect(statements.length).toBeGreaterThanOrEqual(4);
      await expectIndexedReads(t.app.db, statements);
    },
  );

  it('a message written between two pages neither repeats nor hides one', async () => {
    const c = await insertCustomer(t.app);
    const threadId = await conversation(c, 45);
    const first = await pageOf(c, threadId);
    t.clock.advance(5 * 60_000);
    const reply = await callAs(
      t.app,
      messagesApi.send,
      { leads_id: c.leadsId, thread_id: threadId, body: 'Message 46' },
      c.cookie,
    );
    expect(reply.statusCode, reply.body).toBe(200);
    const second = await pageOf(c, threadId, first.next_cursor);
    expect(bodies(second)).toEqual(numbered(1, 45 - MESSAGES_PAGE_SIZE));
    expect(second.has_more).toBe(false);
    // A fresh newest page ends with the new message.
    expect(bodies(await pageOf(c, threadId)).at(-1)).toBe('Message 46');
  });

  it("another's conversation, or a cursor from another conversation, is not found; a cursor that is not one says so", async () => {
    const mine = await insertCustomer(t.app);
    const theirs = await insertCustomer(t.app);
    const myThread = await conversation(mine, 40);
    const theirThread = await conversation(theirs, 40);
    const theirCursor = (await pageOf(theirs, theirThread)).next_cursor;

    const other = await earlier(mine, theirThread);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ message: 'We could not find that conversation.' });
    const foreignCursor = await earlier(mine, myThread, theirCursor);
    expect(foreignCursor.statusCode).toBe(404);
    expect(foreignCursor.json()).toMatchObject({ message: 'We could not find those messages.' });
    expect(foreignCursor.body).not.toContain('Message');

    for (const cursor of ['0', 'abc', '12.5', '']) {
      const bad = await callAs(
        t.app,
        messagesApi.thread,
        { leads_id: mine.leadsId, thread_id: myThread, cursor },
        mine.cookie,
      );
      expect(bad.statusCode, cursor).toBe(400);
      expect(bad.json<{ fields: Record<string, string> }>().fields.cursor).toBe(
        'Use the cursor of the page before',
      );
    }
    const named = await callAs(
      t.app,
      messagesApi.thread,
      { leads_id: theirs.leadsId, thread_id: theirThread },
      mine.cookie,
    );
    expect(named.statusCode).toBe(403);
    const visitor = await callAs(t.app, messagesApi.thread, {
      leads_id: theirs.leadsId,
      thread_id: theirThread,
    });
    expect(visitor.statusCode).toBe(401);
  });

  it('the polling answer is bounded: at most a page of the newest messages since the instant', async () => {
    const c = await insertCustomer(t.app);
    await conversation(c, 50);
    const response = await callAs(t.app, messagesApi.getRecent, { leads_id: c.leadsId }, c.cookie);
    expect(response.statusCode, response.body).toBe(200);
    const recent = response.json<{ data: { messages: Message[]; unread: number } }>().data;
    expect(recent.messages.map((m) => m.body)).toEqual(numbered(50 - MESSAGES_PAGE_SIZE + 1, 50));
    expect(recent.unread).toBe(25);
  });

  it("the care team's inbox reads a conversation a page at a time too", async () => {
    const c = await insertCustomer(t.app);
    const threadId = await conversation(c, 40);
    const ops = await staffCookie(t, operations);
    const opened = await callAs(t.app, operationsApi.inboxThread, { thread_id: threadId }, ops);
    expect(opened.statusCode, opened.body).toBe(200);
    const first = opened.json<{ data: { thread: Thread } }>().data.thread;
    expect(bodies(first)).toEqual(numbered(40 - MESSAGES_PAGE_SIZE + 1, 40));
    const before = await callAs(
      t.app,
      operationsApi.inboxThread,
      { thread_id: threadId, cursor: first.next_cursor! },
      ops,
    );
    expect(before.statusCode, before.body).toBe(200);
    const second = before.json<{ data: { thread: Thread } }>().data.thread;
    expect(bodies(second)).toEqual(numbered(1, 40 - MESSAGES_PAGE_SIZE));
    expect(second.has_more).toBe(false);

    // A cursor from another patient's conversation is not found here either.
    const other = await insertCustomer(t.app);
    const otherThread = await conversation(other, 35);
    const otherCursor = (await pageOf(other, otherThread)).next_cursor;
    const foreign = await callAs(
      t.app,
      operationsApi.inboxThread,
      { thread_id: threadId, cursor: otherCursor! },
      ops,
    );
    expect(foreign.statusCode).toBe(404);
  });
});
