import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { outboxDir } from '#server/adapters/mailer.ts';
import { parseEnv } from '#server/env.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { insertCustomer } from '#test/factories.ts';
import { edVisitAtCheckout, insertProvider } from '#test/visits.ts';
import { devOutboxAllowed } from './dev-outbox.routes.ts';

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

/** Issue 11, finding 10: the outbox page and the data files fail closed. */
describe(`fail closed: the development outbox and the data files (${testDialect})`, () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const outboxPages = async (app: TestApp, headers: Record<string, string> = {}) => {
    await app.app.ctx.sms.send('5035550142', 'Your code is 123456');
    const list = await app.app.inject({ method: 'GET', url: '/dev/outbox', headers });
    const json = await app.app.inject({ method: 'GET', url: '/dev/outbox.json', headers });
    return [list.statusCode, json.statusCode];
  };

  it('has no outbox page with the defaults (HOST 0.0.0.0, NODE_ENV unset)', () => {
    expect(devOutboxAllowed(parseEnv({}))).toBe(false);
    expect(devOutboxAllowed(parseEnv({ NODE_ENV: 'development' }))).toBe(false);
    expect(devOutboxAllowed(parseEnv({ HOST: '192.168.1.20' }))).toBe(false);
  });

  it('serves the outbox on loopback outside production, and never in production', () => {
    for (const HOST of ['127.0.0.1', '::1', 'localhost', '[::1]', '127.0.0.2'])
      expect(devOutboxAllowed(parseEnv({ HOST })), HOST).toBe(true);
    expect(
      devOutboxAllowed({ NODE_ENV: 'production', HOST: '127.0.0.1' }),
      'production on loopback',
    ).toBe(false);
  });

  it('answers 404 for the outbox when bound to every interface, even with NODE_ENV=development', async () => {
    t = await buildTestApp({ env: { NODE_ENV: 'development', HOST: '0.0.0.0' } });
    expect(await outboxPages(t)).toEqual([404, 404]);
  });

  it('lists the messages on loopback, but not to a request relayed by a reverse proxy', async () => {
    t = await buildTestApp({ env: { NODE_ENV: 'development', HOST: '127.0.0.1' } });
    expect(await outboxPages(t)).toEqual([200, 200]);
    expect(await outboxPages(t, { 'x-forwarded-for': '203.0.113.9' })).toEqual([404, 404]);
    expect(await outboxPages(t, { forwarded: 'for=203.0.113.9' })).toEqual([404, 404]);
  });

  it('writes the database, its WAL, the outbox and photo IDs readable by the server alone', async () => {
    t = await buildTestApp();
    const customer = await insertCustomer(t.app);
    await t.app.ctx.sms.send('5035550142', 'Your code is 123456');
    await t.app.ctx.mailer.send({
      messageId: '<mode-test@pairwell.test>',
      to: customer.email,
      subject: 'Hello',
      text: 'Hello',
      html: '<p>Hello</p>',
    });
    await insertProvider(t.app, ['OR']);
    await edVisitAtCheckout(t.app, customer); // uploads a photo ID on its way

    const outbox = outboxDir(t.dataDir);
    const uploads = path.join(t.dataDir, 'uploads');
    const files = [
      ...fs.readdirSync(outbox).map((name) => path.join(outbox, name)),
      ...fs.readdirSync(uploads).map((name) => path.join(uploads, name)),
    ];
    if (testDialect === 'sqlite') {
      const db = path.join(t.dataDir, 'pairwell.db');
      files.push(db, `${db}-wal`, `${db}-shm`);
    }
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const file of files) expect(modeOf(file).toString(8), file).toBe('600');
    for (const dir of [outbox, uploads]) expect(modeOf(dir).toString(8), dir).toBe('700');
  });

  it.runIf(testDialect === 'sqlite')(
    'tightens a database file an older version left readable to all',
    async () => {
      const first = await buildTestApp();
      const db = path.join(first.dataDir, 'pairwell.db');
      await first.app.close();
      fs.chmodSync(db, 0o644);
      try {
        t = await buildTestApp({ env: { DATA_DIR: first.dataDir } });
        expect(modeOf(db).toString(8)).toBe('600');
      } finally {
        await t?.close();
        t = undefined;
        fs.rmSync(first.dataDir, { recursive: true, force: true });
      }
    },
  );
});
