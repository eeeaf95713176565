import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsApi } from '#shared/accounts.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import { insertCustomer, type TestCustomer } from '#test/factories.ts';
import { sentMessages } from '#test/outbox.ts';

/**
 * Issue 26: an address is proved by a one-time link mailed to it. Sign-up sends one and does not
 * wait for it; the member area can send it again, a few times an hour.
 */
describe(`proving the email address (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const tokens = async (to: string) =>
    (await sentMessages(t))
      .filter((m) => m.to === to && m.subject === 'Confirm your email address')
      .map((m) => /\/verify-email\?id=([\w-]+)/.exec(m.text)?.[1]);
  /** The token of the `nth` link mailed to `to`, which the test goes on to open. */
  const linkToken = async (to: string, nth = 0): Promise<string> => {
    const token = (await tokens(to))[nth];
    if (token === undefined) throw new Error(`no link ${nth} was mailed to ${to}`);
    return token;
  };
  const verify = (token: string) => callAs(t.app, accountsApi.emailVerify, { token });
  const verified = async (c: TestCustomer) =>
    (await callAs(t.app, accountsApi.accountData, { leads_id: c.leadsId }, c)).json<{
      data: { email_verified: boolean };
    }>().data.email_verified;
  const sendAgain = (c: TestCustomer) => callAs(t.app, accountsApi.emailVerifySend, {}, c);

  it('sign-up mails a link and the account works at once, unproved; the link proves it once', async () => {
    const customer = await insertCustomer(t.app, { verified: false });
    expect(await verified(customer)).toBe(false);
    const token = await linkToken(customer.email);
    expect(token).toMatch(/^[\w-]{43}$/);
    // Only the hash is stored.
    const rows = await t.app.db.selectFrom('email_verifications').select('token_hash').execute();
    expect(rows.map((r) => r.token_hash)).not.toContain(token);

    const opened = await verify(token);
    expect(opened.statusCode).toBe(200);
    expect(await verified(customer)).toBe(true);
    const again = await verify(token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({
      code: 'EMAIL_VERIFY_INVALID',
      message:
        'This link has expired or has already been used. Log in and send yourself a new one.',
    });
    expect((await verify('x'.repeat(43))).json()).toMatchObject({ code: 'EMAIL_VERIFY_INVALID' });
  });

  it('a link expires after 48 hours; "Send the link again" mails a new one that works, and the old one no longer does', async () => {
    const customer = await insertCustomer(t.app, { verified: false });
    const first = await linkToken(customer.email);
    const sent = await sendAgain(customer);
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({
      data: { sent_to: customer.email, email_verified: false },
    });
    const second = await linkToken(customer.email, 1);
    expect(second).toMatch(/^[\w-]{43}$/);
    expect((await verify(first)).json()).toMatchObject({ code: 'EMAIL_VERIFY_INVALID' });

    t.clock.advance(48 * 60 * 60_000 + 1000);
    expect((await verify(second)).json()).toMatchObject({ code: 'EMAIL_VERIFY_INVALID' });
    const other = await insertCustomer(t.app, { verified: false });
    const fresh = await linkToken(other.email);
    expect((await verify(fresh)).statusCode).toBe(200);
  });

  it('"Send the link again" is limited to 5 an hour, and sends nothing once the address is proved', async () => {
    const customer = await insertCustomer(t.app, { verified: false });
    for (let i = 0; i < 5; i++) expect((await sendAgain(customer)).statusCode).toBe(200);
    const limited = await sendAgain(customer);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });

    const proved = await insertCustomer(t.app);
    const answer = await sendAgain(proved);
    expect(answer.json()).toMatchObject({ data: { email_verified: true } });
    expect(await tokens(proved.email)).toHaveLength(1);
  });
});
