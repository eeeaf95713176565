import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseName } from '#shared/error-reports.ts';
import { reportProcessErrors } from '#server/lib/process-errors.ts';
import { readBuildId } from '#server/lib/release.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { startSentryCapture, type SentryCapture } from '#test/sentry-capture.ts';
import { createErrorReporter } from './error-reporter.ts';

const recipient = 'jane.doe+pairwell@example.com';
const card = '4242 4242 4242 4242';
const token = crypto.randomBytes(32).toString('base64url');

/**
 * An SMTP server that takes the connection and the sender but refuses every recipient, as a real
 * one does for an unknown mailbox: nodemailer's error then names the address, as in production.
 */
async function startRejectingSmtp(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.write('220 mx.example ESMTP\r\n');
    let buffered = '';
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      let end = buffered.indexOf('\r\n');
      while (end >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 mx.example\r\n');
        else if (verb === 'MAIL') socket.write('250 2.1.0 Ok\r\n');
        else if (verb === 'RCPT') {
          const address = /<([^>]*)>/.exec(line)?.[1] ?? '';
          socket.write(`550 5.1.1 <${address}>: Recipient address rejected: User unknown\r\n`);
        } else if (verb === 'QUIT') socket.end('221 2.0.0 Bye\r\n');
        else socket.write('250 Ok\r\n');
        end = buffered.indexOf('\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe(`error reports from the server leave scrubbed (${testDialect})`, () => {
  let capture: SentryCapture;
  let smtp: Awaited<ReturnType<typeof startRejectingSmtp>>;
  let t: TestApp;

  beforeAll(async () => {
    capture = await startSentryCapture();
    smtp = await startRejectingSmtp();
    t = await buildTestApp({ env: { SENTRY_DSN: capture.dsn, SMTP_URL: smtp.url } });
    t.app.get('/lapi/test-only/visit/:category', async (request) => {
      throw new Error(`No plan for ${request.url}: ${recipient} paid with ${card}, reset ${token}`);
    });
    await t.app.ready();
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
    await capture.close();
  });

  const flush = async () => expect(await t.app.ctx.reporter.flush?.(10_000)).toBe(true);

  /** The envelopes received since `from`, and the error events in them. */
  const since = (from: number) => {
    const envelopes = capture.envelopes().slice(from);
    return { text: envelopes.join('\n'), count: envelopes.length };
  };

  it('a job whose email the SMTP server rejects is reported with the address scrubbed', async () => {
    const before = capture.envelopes().length;
    t.app.ctx.jobs.add({
      name: 'test-only-mail',
      intervalMs: 0,
      run: async () => {
        await t.app.ctx.mailer.send({
          messageId: `<${crypto.randomUUID()}@pairwell.example>`,
          to: recipient,
          subject: 'Your order',
          text: 'Thank you',
          html: '<p>Thank you</p>',
        });
        return false;
      },
    });
    await t.app.ctx.jobs.drain('test-only-mail');
    await flush();

    const sent = since(before);
    expect(sent.count).toBe(1);
    const event = capture.events().at(-1) as {
      release?: string;
      level?: string;
      tags?: Record<string, string>;
      exception?: { values?: { value?: string }[] };
    };
    expect(event.exception?.values?.at(-1)?.value).toMatch(
      /recipients were rejected: 550 5\.1\.1 <\[email\]>: Recipient address rejected/,
    );
    expect(event.tags).toMatchObject({ route: 'job:test-only-mail' });
    expect(event.level).toBe('error');
    expect(event.release).toBe(releaseName(readBuildId(t.dataDir)));
    expect(sent.text).not.toContain('jane.doe');
    expect(sent.text).not.toContain('example.com');
  });

  it('an unexpected failure of a request is reported without secrets, program or request data', async () => {
    const before = capture.envelopes().length;
    const response = await t.app.inject({
      method: 'GET',
      url: `/lapi/test-only/visit/ed?id=${token}&email=${encodeURIComponent(recipient)}`,
      headers: { cookie: 'pw_session=SESSION-COOKIE-VALUE', 'x-forwarded-for': '203.0.113.9' },
    });
    expect(response.statusCode).toBe(500);
    const { requestId } = response.json<{ requestId: string }>();
    await flush();

    const sent = since(before);
    expect(sent.count).toBe(1);
    const event = capture.events().at(-1) as {
      tags?: Record<string, string>;
      extra?: Record<string, string>;
      exception?: { values?: { value?: string }[] };
      request?: unknown;
      user?: unknown;
    };
    expect(event.exception?.values?.at(-1)?.value).toBe(
      'No plan for /lapi/test-only/visit/[program]: [email] paid with [card], reset [token]',
    );
    // The route's pattern names the parameter, not the program.
    expect(event.tags).toMatchObject({ route: '/lapi/test-only/visit/:category' });
    expect(event.extra).toMatchObject({ requestId });
    expect(event.request).toBeUndefined();
    expect(event.user).toBeUndefined();
    for (const secret of [
      token,
      recipient,
      encodeURIComponent(recipient),
      card,
      card.replaceAll(' ', ''),
      '/visit/ed',
      'SESSION-COOKIE-VALUE',
      '203.0.113.9',
    ])
      expect(sent.text, secret).not.toContain(secret);
  });

  it('closing the app sends what was reported before it closed', async () => {
    const before = capture.envelopes().length;
    const other = await buildTestApp({ env: { SENTRY_DSN: capture.dsn } });
    other.app.ctx.reporter.report(new Error('reported while shutting down'), {
      route: 'job:billing',
    });
    await other.close();
    const sent = since(before);
    expect(sent.count).toBe(1);
    expect(sent.text).toContain('reported while shutting down');
  });

  it('a reporter of its own sends what is left when it closes, with the release given', async () => {
    const before = capture.envelopes().length;
    const reporter = await createErrorReporter(t.env, { release: releaseName('9.9.9+test') });
    reporter.report(new Error(`reset link /reset-password?id=${token} failed`), {
      route: 'job:billing',
    });
    expect(await reporter.close?.(10_000)).toBe(true);
    const sent = since(before);
    expect(sent.count).toBe(1);
    expect(sent.text).toContain('"release":"pairwell@9.9.9+test"');
    expect(sent.text).toContain('reset link /reset-password failed');
    expect(sent.text).not.toContain(token);
  });
});

describe('errors nothing else caught', () => {
  const setup = () => {
    const target = new EventEmitter();
    const reported: { error: unknown; route?: string; level?: string }[] = [];
    const logged: string[] = [];
    const exits: number[] = [];
    let flushes = 0;
    let releaseFlush: (sent: boolean) => void = () => undefined;
    reportProcessErrors(target, {
      reporter: {
        report: (error, context) => reported.push({ error, ...context }),
        flush: () => {
          flushes++;
          return new Promise<boolean>((resolve) => {
            releaseFlush = resolve;
          });
        },
      },
      log: {
        fatal: (_fields, message) => logged.push(`fatal: ${message}`),
        error: (_fields, message) => logged.push(`error: ${message}`),
      },
      exit: (code) => exits.push(code),
    });
    return {
      target,
      reported,
      logged,
      exits,
      flushes: () => flushes,
      releaseFlush: () => releaseFlush(true),
    };
  };

  it('an uncaught exception is logged and reported as fatal, and the process exits 1 once the report is sent', async () => {
    const s = setup();
    const error = new Error('boom');
    s.target.emit('uncaughtException', error);
    expect(s.reported).toEqual([{ error, route: 'process:uncaughtException', level: 'fatal' }]);
    expect(s.logged).toEqual(['fatal: uncaught exception']);
    // Not before the report has left (or the bounded wait has ended).
    await new Promise((resolve) => setImmediate(resolve));
    expect(s.exits).toEqual([]);
    // A second one while waiting is reported too, and does not start a second exit.
    s.target.emit('uncaughtException', new Error('again'));
    expect(s.reported).toHaveLength(2);
    expect(s.flushes()).toBe(1);
    s.releaseFlush();
    await expect.poll(() => s.exits).toEqual([1]);
  });

  it('an unhandled rejection is logged and reported, and the server carries on', async () => {
    const s = setup();
    const reason = new Error('forgotten promise');
    s.target.emit('unhandledRejection', reason);
    expect(s.reported).toEqual([{ error: reason, route: 'process:unhandledRejection' }]);
    expect(s.logged).toEqual(['error: unhandled promise rejection']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(s.exits).toEqual([]);
    expect(s.flushes()).toBe(0);
  });
});
