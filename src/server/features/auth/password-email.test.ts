import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsApi } from '#shared/accounts.ts';
import { authApi } from '#shared/auth.ts';
import { messages } from '#shared/wording.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import { buildSignup, insertCustomer, randomLoopback } from '#test/factories.ts';
import { sentMessages } from '#test/outbox.ts';

/** An address of its own each time, with a local part long enough to count (`riley.k3f9a2`). */
const newEmail = () => `riley.${crypto.randomBytes(3).toString('hex')}@example.test`;
const localPart = (email: string) => email.slice(0, email.indexOf('@'));

/** The refusal every path answers with, on the password field. */
const refused = {
  status: 'FAILURE',
  code: 'WEAK_PASSWORD',
  message: "Your password can't contain your email address.",
  fields: { password: "Your password can't contain your email address." },
};

/**
 * OWASP ASVS V6.2.11: a password may not be, or hold, the account's email address, nor its part
 * before the @ once that is 4 characters or more, in any case: wherever a customer sets one
 * (sign-up, in the shop's and the visit's checkouts too, a change from Accounts, a reset link).
 */
describe(`a password holding the email address (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const signUp = (email: string, password: string) =>
    callAs(t.app, accountsApi.accountCreate, buildSignup({ email, password }), undefined, {
      remoteAddress: randomLoopback(),
    });

  const logsIn = async (email: string, password: string) =>
    (await callAs(t.app, authApi.login, { email, password })).statusCode === 200;

  it('sign-up refuses the address, in any case, inside the password or as it is, and its part before the @; no account is made', async () => {
    expect(messages.passwordHoldsEmail).toBe(refused.message);
    const email = newEmail();
    for (const password of [
      email,
      email.toUpperCase(),
      `my ${email} login`,
      `${localPart(email).toUpperCase()}-2024!`,
      `secret ${localPart(email)} here`,
    ]) {
      const response = await signUp(email, password);
      expect(response.statusCode, password).toBe(400);
      expect(response.json()).toMatchObject(refused);
    }
    const rows = await t.app.db
      .selectFrom('customers')
      .select('id')
      .where('email', '=', email)
      .execute();
    expect(rows).toEqual([]);

    // A local part of 3 characters is inside too many passphrases by chance; the domain alone
    // says nothing about the person; a password merely like the address is theirs to choose.
    expect((await signUp('kim@example.test', 'kim plays the cello')).statusCode).toBe(200);
    expect((await signUp(newEmail(), 'example.test is my passphrase')).statusCode).toBe(200);
    const like = await signUp(email, 'riley rides to example town');
    expect(like.statusCode, like.body).toBe(200);
  });

  it('a change from Accounts refuses it and keeps the old password', async () => {
    const email = newEmail();
    const customer = await insertCustomer(t.app, { email });
    const change = await callAs(
      t.app,
      authApi.changePassword,
      { current_password: customer.password, password: `${localPart(email)}!2024` },
      customer,
    );
    expect(change.statusCode).toBe(400);
    expect(change.json()).toMatchObject(refused);
    expect(await logsIn(email, customer.password)).toBe(true);
    expect(await logsIn(email, `${localPart(email)}!2024`)).toBe(false);
  });

  it('a reset link refuses it, and the link still works with a better password', async () => {
    const email = newEmail();
    const customer = await insertCustomer(t.app, { email });
    await callAs(t.app, authApi.reset, { email });
    const token =
      (await sentMessages(t))
        .filter((m) => m.to === email && m.subject === 'Reset your Pairwell password')
        .map((m) => /\/reset-password\?id=([\w-]+)/.exec(m.text)?.[1])[0] ?? '';
    expect(token).toMatch(/^[\w-]{43}$/);

    const holding = await callAs(t.app, authApi.passwordUpdate, {
      token,
      password: email.toUpperCase(),
    });
    expect(holding.statusCode).toBe(400);
    expect(holding.json()).toMatchObject(refused);
    expect(await logsIn(email, customer.password)).toBe(true);

    const better = await callAs(t.app, authApi.passwordUpdate, {
      token,
      password: 'a brand new passphrase',
    });
    expect(better.statusCode, better.body).toBe(200);
    expect(await logsIn(email, 'a brand new passphrase')).toBe(true);
  });
});
