import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '#server/adapters/mailer.ts';
import { demoStaff } from '#server/db/seed-demo.ts';
import { totpCode, totpStep } from '#server/lib/totp.ts';
import type { Thread } from '#shared/messaging.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { insertCustomer, post } from '#test/factories.ts';
import { edVisitAtCheckout } from '#test/visits.ts';

const provider = demoStaff.find((s) => s.role === 'provider')!;

describe(`messages between patients and their care team (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
  });
  afterAll(() => t.close());

  async function providerCookie(): Promise<string> {
    t.clock.advance(31_000);
    const response = await post(t.app, '/lapi/staff/login/', {
      email: provider.email,
      password: provider.password,
      code: totpCode(provider.totpSecret, totpStep(t.clock.now())),
    });
    return `pw_staff=${response.cookies.find((c) => c.name === 'pw_staff')?.value}`;
  }

  it('a provider writes about a visit; the patient sees it unread, is e-mailed without the text, replies, and the provider sees the reply', async () => {
    const c = await insertCustomer(t.app);
    const visitId = await edVisitAtCheckout(t.app, c);
    await post(
      t.app,
      '/lapi/visit/checkout/',
      {
        visit_id: visitId,
        shipping: {
          address: '5 Oak St',
          address2: '',
          city: 'Portland',
          state: 'OR',
          zip: '97201',
          phoneNo: '5035550142',
        },
        billing: null,
        payment: { method: 'card', ccnum: '4242424242424242', ccexp: '12/30', cccvv: '123' },
        consent: true,
      },
      c.cookie,
    );
    const staff = await providerCookie();
    const secret = 'Take one tablet about an hour before; canary-health-detail.';
    const sent = await post(
      t.app,
      '/lapi/staff/messages/send/',
      { visit_id: visitId, body: secret },
      staff,
    );
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({
      data: { message: { sender: 'care_team', author: provider.name } },
    });

    const mail = readOutbox(t.dataDir).find(
      (m) => m.to === c.email && m.subject === 'You have a new message from your care team',
    );
    expect(mail).toBeDefined();
    expect(mail?.text).not.toContain('canary-health-detail');
    expect(t.logs()).not.toContain('canary-health-detail');

    const basics = await post(t.app, '/lapi/account/basics', {}, c.cookie);
    expect(
      basics.json<{ data: { flags: { type: string }[] } }>().data.flags.map((f) => f.type),
    ).toContain('unread_messages');
    const all = await post(t.app, '/lapi/messaging/getall/', { leads_id: c.leadsId }, c.cookie);
    const [thread] = all.json<{ data: { threads: Thread[]; unread: number } }>().data.threads;
    expect(all.json()).toMatchObject({ data: { unread: 1 } });
    expect(thread).toMatchObject({
      visit_id: visitId,
      unread: 1,
      messages: [{ body: secret, read: false }],
    });

    const since = new Date(t.clock.now().getTime()).toISOString();
    t.clock.advance(1000);
    await post(
      t.app,
      '/lapi/messaging/read/',
      { leads_id: c.leadsId, thread_id: thread!.id },
      c.cookie,
    );
    const reply = await post(
      t.app,
      '/lapi/messaging/send/',
      { leads_id: c.leadsId, thread_id: thread!.id, body: 'Thank you, will do.' },
      c.cookie,
    );
    expect(reply.json()).toMatchObject({
      data: { message: { sender: 'patient', body: 'Thank you, will do.' } },
    });
    const recent = await post(
      t.app,
      '/lapi/messaging/getrecent/',
      { leads_id: c.leadsId, since },
      c.cookie,
    );
    expect(recent.json()).toMatchObject({
      data: { unread: 0, messages: [{ body: 'Thank you, will do.' }] },
    });

    const seen = await post(t.app, '/lapi/staff/messages/', { visit_id: visitId }, staff);
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
    const noSubject = await post(
      t.app,
      '/lapi/messaging/send/',
      { leads_id: c.leadsId, body: 'Hello' },
      c.cookie,
    );
    expect(noSubject.json()).toMatchObject({ fields: { subject: 'Add a subject' } });
    const empty = await post(
      t.app,
      '/lapi/messaging/send/',
      { leads_id: c.leadsId, subject: 'Question', body: '  ' },
      c.cookie,
    );
    expect(empty.json()).toMatchObject({ fields: { body: 'Write a message' } });
    const started = await post(
      t.app,
      '/lapi/messaging/send/',
      { leads_id: c.leadsId, subject: 'A question about shipping', body: 'When will it arrive?' },
      c.cookie,
    );
    const threadId = started.json<{ data: { message: { thread_id: number } } }>().data.message
      .thread_id;

    const other = await insertCustomer(t.app);
    const intrude = await post(
      t.app,
      '/lapi/messaging/send/',
      { leads_id: other.leadsId, thread_id: threadId, body: 'Hi' },
      other.cookie,
    );
    expect(intrude.statusCode).toBe(404);
    expect(
      (
        await post(
          t.app,
          '/lapi/messaging/read/',
          { leads_id: other.leadsId, thread_id: threadId },
          other.cookie,
        )
      ).statusCode,
    ).toBe(404);
    expect(
      (await post(t.app, '/lapi/messaging/getall/', { leads_id: c.leadsId }, other.cookie))
        .statusCode,
    ).toBe(403);
    const theirs = await post(
      t.app,
      '/lapi/messaging/getall/',
      { leads_id: other.leadsId },
      other.cookie,
    );
    expect(theirs.json()).toMatchObject({ data: { threads: [], unread: 0 } });
  });
});
