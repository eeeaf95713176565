import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { readOutbox } from '#server/adapters/mailer.ts';
import { demoStaff } from '#server/db/seed-demo.ts';
import { authApi } from '#shared/auth.ts';
import { cartApi } from '#shared/cart.ts';
import { offers } from '#shared/catalog.ts';
import { checkoutApi } from '#shared/checkout.ts';
import { operationsApi } from '#shared/operations.ts';
import { outboxApi, type OutboxProblem } from '#shared/outbox.ts';
import { buildSecondInstance, buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import { buildPlaceOrder, insertCustomer, staffCookie } from '#test/factories.ts';
import { notWelcome } from '#test/outbox.ts';
import { TestSmtpServer } from '#test/smtp.ts';
import {
  BACKOFF_MS,
  MAX_ATTEMPTS,
  OUTBOX_JOB,
  maskRecipient,
  queueEmail,
} from './outbox.service.ts';

const [provider, ops] = demoStaff;

/** Logs a demo staff member in with the code their authenticator shows now. */
const consoleCookie = (t: TestApp, who = ops!) => staffCookie(t, who, { advanceClock: false });

/** The outbox rows, oldest first, as the worker sees them. */
function outboxRows(t: TestApp) {
  return t.app.db
    .selectFrom('outbox_messages')
    .select(['id', 'message_id', 'recipient', 'subject', 'status', 'attempts', 'last_error'])
    .orderBy('id')
    .execute();
}

/** An email body as sent over SMTP (quoted-printable), decoded enough to read a link from it. */
function decodedBody(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

describe(`outbox: email survives an SMTP outage and arrives exactly once (${testDialect})`, () => {
  const smtp = new TestSmtpServer();
  let t: TestApp;
  const reports: string[] = [];

  beforeAll(async () => {
    // A real SMTP server, stopped: its port is known and nothing answers there.
    await smtp.start();
    await smtp.stop();
    t = await buildTestApp({
      env: { SEED_DEMO: 'true', SMTP_URL: smtp.url, LOG_LEVEL: 'info' },
      errorReporter: { report: (error) => reports.push(String(error)) },
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  it('with SMTP down, place-order, reset and mark-shipped answer 2xx; once it is back each email arrives once, with the Message-ID it was given when queued', async () => {
    const customer = await insertCustomer(t.app);
    await callAs(
      t.app,
      cartApi.addProduct,
      { product_id: offers.sleep.oneTime, quantity: 1 },
      customer.cookie,
    );
    const placed = await callAs(t.app, checkoutApi.placeOrder, buildPlaceOrder(), customer.cookie);
    expect(placed.statusCode, placed.body).toBe(200);
    const orderId = placed.json<{ data: { orders_id: number } }>().data.orders_id;

    const reset = await callAs(t.app, authApi.reset, { email: customer.email });
    expect(reset.statusCode, reset.body).toBe(200);

    const cookie = await consoleCookie(t);
    const shipped = await callAs(
      t.app,
      operationsApi.ship,
      { order_id: orderId, tracking_number: '9400111899223197428490' },
      cookie,
    );
    expect(shipped.statusCode, shipped.body).toBe(200);
    expect(shipped.json()).toMatchObject({ data: { order: { order_status: 'SHIPPED' } } });

    // The worker tries while SMTP is down: every message stays pending with a retry planned.
    await t.app.ctx.jobs.drain(OUTBOX_JOB);
    const queued = (await outboxRows(t)).filter(
      (r) => r.recipient === customer.email && notWelcome(r),
    );
    expect(queued.map((r) => r.subject)).toEqual([
      expect.stringMatching(/^Your Pairwell order /),
      'Reset your Pairwell password',
      expect.stringMatching(/has shipped$/),
    ]);
    for (const row of queued) {
      expect(row).toMatchObject({ status: 'pending', attempts: 1 });
      expect(row.message_id).toMatch(/^<[0-9a-f-]{36}@pairwell\.example>$/);
      expect(row.last_error).not.toContain('@');
    }

    // SMTP is back on the same port; the retry is due after the first backoff.
    await smtp.start();
    t.clock.advance(BACKOFF_MS[0]);
    await t.app.ctx.jobs.drain(OUTBOX_JOB);
    for (const row of queued) expect(smtp.deliveries(row.message_id)).toBe(1);
    expect(
      (await outboxRows(t)).filter((r) => r.recipient === customer.email && notWelcome(r)),
    ).toEqual(
      queued.map((row) => expect.objectContaining({ id: row.id, status: 'sent', attempts: 2 })),
    );

    // The reset link was made when the email went out, and it works.
    const resetMail = smtp.accepted.find((m) => m.messageId === queued[1]!.message_id);
    const token = /\/reset-password\?id=([\w-]{43})/.exec(decodedBody(resetMail?.raw ?? ''))?.[1];
    expect(token).toBeDefined();
    const used = await callAs(t.app, authApi.passwordUpdate, {
      token: token!,
      password: 'a fresh passphrase after the outage',
    });
    expect(used.statusCode, used.body).toBe(200);

    // Nothing is sent twice, however often the worker runs later.
    t.clock.advance(24 * 60 * 60_000);
    await t.app.ctx.jobs.drain(OUTBOX_JOB);
    for (const row of queued) expect(smtp.deliveries(row.message_id)).toBe(1);
  });

  it('a message whose first delivery was refused goes again with the same Message-ID', async () => {
    smtp.deferFirstAttempt = true;
    try {
      const customer = await insertCustomer(t.app);
      expect((await callAs(t.app, authApi.reset, { email: customer.email })).statusCode).toBe(200);
      await t.app.ctx.jobs.drain(OUTBOX_JOB);
      const [row] = (await outboxRows(t)).filter(
        (r) => r.recipient === customer.email && notWelcome(r),
      );
      expect(row).toMatchObject({
        status: 'pending',
        attempts: 1,
        last_error: 'SMTP 451 EMESSAGE',
      });
      expect(smtp.seen.filter((id) => id === row!.message_id)).toHaveLength(1);
      expect(smtp.deliveries(row!.message_id)).toBe(0);

      t.clock.advance(BACKOFF_MS[0]);
      await t.app.ctx.jobs.drain(OUTBOX_JOB);
      expect(smtp.seen.filter((id) => id === row!.message_id)).toHaveLength(2);
      expect(smtp.deliveries(row!.message_id)).toBe(1);
    } finally {
      smtp.deferFirstAttempt = false;
    }
  });

  it(`a message refused ${MAX_ATTEMPTS} times is failed; operations see it without its words, retry it, and it is sent`, async () => {
    const customer = await insertCustomer(t.app);
    smtp.refuse.add(customer.email);
    const bodyWords = 'Thank you, Riley.';
    await callAs(
      t.app,
      cartApi.addProduct,
      { product_id: offers.sleep.oneTime, quantity: 1 },
      customer.cookie,
    );
    expect(
      (await callAs(t.app, checkoutApi.placeOrder, buildPlaceOrder(), customer.cookie)).statusCode,
    ).toBe(200);

    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await t.app.ctx.jobs.drain(OUTBOX_JOB);
      t.clock.advance(BACKOFF_MS[attempt - 1] ?? 0);
    }
    const [row] = (await outboxRows(t)).filter(
      (r) => r.recipient === customer.email && notWelcome(r),
    );
    expect(row).toMatchObject({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
      last_error: 'SMTP 550 EENVELOPE',
    });
    expect(smtp.deliveries(row!.message_id)).toBe(0);
    // Once failed, the worker leaves it alone.
    t.clock.advance(24 * 60 * 60_000);
    await t.app.ctx.jobs.drain(OUTBOX_JOB);
    expect((await outboxRows(t)).find((r) => r.id === row!.id)?.attempts).toBe(MAX_ATTEMPTS);

    // The failure was logged and reported, without the address or the message's words.
    expect(t.logs()).toContain('outbox message will be retried');
    expect(t.logs()).toContain('outbox message failed for good');
    expect(reports.some((r) => r.includes(`id ${row!.id}) failed after ${MAX_ATTEMPTS}`))).toBe(
      true,
    );
    for (const place of [t.logs(), reports.join('\n')]) {
      expect(place).not.toContain(customer.email);
      expect(place).not.toContain(bodyWords);
    }

    // Only operations staff see the list; it carries no body and masks the recipient.
    t.clock.advance(60_000);
    const cookie = await consoleCookie(t);
    expect((await callAs(t.app, outboxApi.problems, undefined, customer.cookie)).statusCode).toBe(
      401,
    );
    expect(
      (await callAs(t.app, outboxApi.problems, undefined, await consoleCookie(t, provider!)))
        .statusCode,
    ).toBe(403);
    const list = await callAs(t.app, outboxApi.problems, undefined, cookie);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.body).not.toContain(customer.email);
    expect(list.body).not.toContain(bodyWords);
    const problem = list
      .json<{ data: { messages: OutboxProblem[] } }>()
      .data.messages.find((m) => m.outbox_id === row!.id);
    expect(problem).toEqual({
      outbox_id: row!.id,
      kind: 'email',
      recipient: maskRecipient('email', customer.email),
      subject: row!.subject,
      status: 'failed',
      attempts: MAX_ATTEMPTS,
      last_error: 'SMTP 550 EENVELOPE',
      created_at: expect.any(String),
      next_attempt_at: null,
    });
    expect(problem?.recipient).toBe(`c***@example.test`);

    // The mailbox is fixed; operations retry; the message goes once, with its Message-ID.
    smtp.refuse.delete(customer.email);
    const retried = await callAs(t.app, outboxApi.retry, { outbox_id: row!.id }, cookie);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(
      retried
        .json<{ data: { messages: OutboxProblem[] } }>()
        .data.messages.find((m) => m.outbox_id === row!.id),
    ).toMatchObject({ status: 'pending', attempts: 0, last_error: 'SMTP 550 EENVELOPE' });
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select(['action', 'subject_type', 'subject_id'])
      .where('subject_type', '=', 'outbox_message')
      .execute();
    expect(audit).toEqual([
      { action: 'retry', subject_type: 'outbox_message', subject_id: String(row!.id) },
    ]);
    await t.app.ctx.jobs.drain(OUTBOX_JOB);
    expect(smtp.deliveries(row!.message_id)).toBe(1);
    const after = await callAs(t.app, outboxApi.problems, undefined, cookie);
    expect(
      after
        .json<{ data: { messages: OutboxProblem[] } }>()
        .data.messages.some((m) => m.outbox_id === row!.id),
    ).toBe(false);

    const again = await callAs(t.app, outboxApi.retry, { outbox_id: row!.id }, cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'MESSAGE_SENT' });
    const unknown = await callAs(t.app, outboxApi.retry, { outbox_id: 987_654_321 }, cookie);
    expect(unknown.statusCode).toBe(404);
    const bad = await callAs(t.app, outboxApi.retry, { outbox_id: 2 ** 31 }, cookie);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ fields: { outbox_id: 'Choose a message' } });
  });
});

describe(`outbox: queued with its transaction, sent once by one of many workers (${testDialect})`, () => {
  let t: TestApp;
  const extra: { close: () => Promise<void> }[] = [];
  const smtp = new TestSmtpServer();

  beforeAll(async () => {
    await smtp.start();
    t = await buildTestApp({ env: { SMTP_URL: smtp.url } });
  });
  afterEach(async () => {
    await Promise.all(extra.splice(0).map((app) => app.close()));
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  const message = (to: string) => ({
    to,
    subject: 'A test message',
    text: 'Words that stay inside the outbox.',
    html: '<p>Words that stay inside the outbox.</p>',
  });

  it('a message queued in a transaction that rolls back is never sent; one that commits is', async () => {
    await expect(
      t.app.db.transaction().execute(async (trx) => {
        await queueEmail({ ...t.app.ctx, db: trx }, message('rolled-back@example.test'));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const committedId = await t.app.db
      .transaction()
      .execute((trx) => queueEmail({ ...t.app.ctx, db: trx }, message('committed@example.test')));
    await t.app.ctx.jobs.drain(OUTBOX_JOB);
    expect((await outboxRows(t)).map((r) => r.recipient)).not.toContain('rolled-back@example.test');
    expect(smtp.accepted.flatMap((m) => m.to)).not.toContain('rolled-back@example.test');
    expect(smtp.deliveries(committedId)).toBe(1);
  });

  it('two instances draining at once send each of 25 messages exactly once', async () => {
    const second = await buildSecondInstance(t);
    extra.push(second);
    const ids: string[] = [];
    for (let i = 0; i < 25; i++)
      ids.push(await queueEmail(t.app.ctx, message(`many-${i}@example.test`)));
    await Promise.all([t.app.ctx.jobs.drain(OUTBOX_JOB), second.ctx.jobs.drain(OUTBOX_JOB)]);
    expect(ids.map((id) => smtp.deliveries(id))).toEqual(ids.map(() => 1));
    const rows = (await outboxRows(t)).filter((r) => r.recipient.startsWith('many-'));
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
  });

  it('a sent message keeps its envelope but not its words', async () => {
    const id = await queueEmail(t.app.ctx, message('envelope@example.test'));
    await t.app.ctx.jobs.drain(OUTBOX_JOB);
    expect(smtp.deliveries(id)).toBe(1);
    const row = await t.app.db
      .selectFrom('outbox_messages')
      .select(['recipient', 'subject', 'text', 'html', 'sent_at'])
      .where('message_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      recipient: 'envelope@example.test',
      subject: 'A test message',
      text: '',
      html: null,
      sent_at: t.clock.now().toISOString(),
    });
  });
});

describe(`outbox: the worker sends on its own, to the development outbox (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { OUTBOX_INTERVAL_SECONDS: '1' } });
    await t.app.ready();
  });
  afterAll(() => t.close());

  it('a reset request is in /dev/outbox soon after it answers, without anyone draining the job', async () => {
    const customer = await insertCustomer(t.app);
    const reset = await callAs(t.app, authApi.reset, { email: customer.email });
    expect(reset.statusCode).toBe(200);
    const mail = await vi.waitFor(
      () => {
        const sent = readOutbox(t.dataDir).find((m) => m.to === customer.email && notWelcome(m));
        if (!sent) throw new Error(`no mail to ${customer.email} in the outbox yet`);
        return sent;
      },
      { timeout: 10_000, interval: 25 },
    );
    expect(mail).toMatchObject({
      kind: 'email',
      subject: 'Reset your Pairwell password',
      messageId: expect.stringMatching(/^<[0-9a-f-]{36}@pairwell\.example>$/),
    });
    expect(mail.text).toMatch(/\/reset-password\?id=[\w-]{43}\n/);
  });

  it('masks recipients for the console: the first letter and the domain, the last four digits', () => {
    expect(maskRecipient('email', 'jane.doe@example.com')).toBe('j***@example.com');
    expect(maskRecipient('sms', '5035550142')).toBe('***0142');
    expect(maskRecipient('email', 'not-an-address')).toBe('***');
  });
});
