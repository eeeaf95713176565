import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '#server/lib/tokens.ts';
import { accountsApi } from '#shared/accounts.ts';
import { authApi } from '#shared/auth.ts';
import { sessionApi } from '#shared/session.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import { insertCustomer, sessionCookie, type TestCustomer } from '#test/factories.ts';
import { sentMessages } from '#test/outbox.ts';

/**
 * Finding 7 of issue 11: a stolen session could change the email and then take the account
 * through a reset. Now a new email needs the current password, the old address is told and can
 * undo the change once, and every other session ends. Issue 26: the change takes effect only when
 * the link mailed to the new address is opened; a typed address proves nothing.
 */
describe(`changing the email protects the owner (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const newAddress = () => `moved-${Math.random().toString(36).slice(2, 10)}@example.test`;
  const update = (c: TestCustomer, email: string, currentPassword?: string) =>
    callAs(
      t.app,
      accountsApi.accountUpdate,
      {
        leads_id: c.leadsId,
        prospect: {
          first_name: 'Riley',
          last_name: 'Morgan',
          email,
          phoneNo: '(503) 555-0142',
          dob: '04/12/1990',
        },
        ...(currentPassword === undefined ? {} : { current_password: currentPassword }),
      },
      c,
    );
  const emailOf = async (customerId: number) =>
    (
      await t.app.db
        .selectFrom('customers')
        .select('email')
        .where('id', '=', customerId)
        .executeTakeFirstOrThrow()
    ).email;
  const authenticated = async (cookie: string) =>
    (await callAs(t.app, sessionApi.verifyAuthentication, {}, cookie)).json<{
      data: { authenticated: boolean };
    }>().data.authenticated;
  const noticesTo = async (email: string) =>
    (await sentMessages(t)).filter(
      (m) => m.to === email && m.subject === 'Your Pairwell email address was changed',
    );
  const undoToken = async (email: string): Promise<string> => {
    const token = (await noticesTo(email)).map(
      (m) => /\/undo-email-change\?id=([\w-]+)/.exec(m.text)?.[1],
    )[0];
    if (token === undefined) throw new Error(`no undo link was mailed to ${email}`);
    return token;
  };
  const logIn = (email: string, password: string) =>
    callAs(t.app, authApi.login, { email, password });
  const confirmTokens = async (email: string) =>
    (await sentMessages(t))
      .filter((m) => m.to === email && m.subject === 'Confirm your new email address')
      .map((m) => /\/verify-email\?id=([\w-]+)/.exec(m.text)?.[1]);
  /** The token of a confirmation link mailed to `email`: the first, or with -1 the latest. */
  const confirmToken = async (email: string, nth: 0 | -1 = 0): Promise<string> => {
    const token = (await confirmTokens(email)).at(nth);
    if (token === undefined) throw new Error(`no confirmation link was mailed to ${email}`);
    return token;
  };
  /** Asks for the change, then opens the link mailed to the new address from `cookie`'s browser. */
  const changeAndConfirm = async (c: TestCustomer, email: string, cookie?: string) => {
    expect((await update(c, email, c.password)).statusCode).toBe(200);
    const token = await confirmToken(email, -1);
    const opened = await callAs(t.app, accountsApi.emailVerify, { token }, cookie);
    expect(opened.statusCode).toBe(200);
    return opened;
  };

  it('needs the current password: without it, or with a wrong one, nothing changes and nobody is told', async () => {
    const customer = await insertCustomer(t.app);
    const target = newAddress();
    const missing = await update(customer, target);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      code: 'CURRENT_PASSWORD_REQUIRED',
      fields: { current_password: 'Enter your current password to change your email.' },
    });
    const wrong = await update(customer, target, 'not my password');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      code: 'WRONG_PASSWORD',
      fields: { current_password: 'Your current password is incorrect.' },
    });
    expect(await emailOf(customer.customerId)).toBe(customer.email);
    expect(await noticesTo(customer.email)).toEqual([]);
    const undos = await t.app.db
      .selectFrom('email_change_undos')
      .select('id')
      .where('customer_id', '=', customer.customerId)
      .execute();
    expect(undos).toEqual([]);

    // Other details change without it: only the email can hand the account to someone else.
    const sameEmail = await update(customer, customer.email.toUpperCase());
    expect(sameEmail.statusCode).toBe(200);
    expect(sameEmail.json()).toMatchObject({ message: 'Account updated successfully' });
  });

  it('with the right password nothing changes yet: a link goes to the new address, and the account keeps and logs in with the old one', async () => {
    const customer = await insertCustomer(t.app);
    const otherDevice = sessionCookie(await logIn(customer.email, customer.password));
    const target = newAddress();
    const ok = await update(customer, target, customer.password);
    expect(ok.statusCode).toBe(200);
    expect(await emailOf(customer.customerId)).toBe(customer.email);
    expect(await authenticated(otherDevice)).toBe(true);
    expect(await noticesTo(customer.email)).toEqual([]);
    expect((await logIn(customer.email, customer.password)).statusCode).toBe(200);
    expect((await logIn(target, customer.password)).statusCode).toBe(401);

    const [link] = (await sentMessages(t)).filter(
      (m) => m.to === target && m.subject === 'Confirm your new email address',
    );
    expect(link?.text).toMatch(/http:\/\/localhost:3000\/verify-email\?id=[\w-]{43}(\s|$)/);
    expect(link?.text).not.toContain(customer.password);
    // The details page says which address waits for its link.
    const data = await callAs(
      t.app,
      accountsApi.accountData,
      { leads_id: customer.leadsId },
      customer,
    );
    expect(data.json()).toMatchObject({
      data: { email: customer.email, pending_email: target, email_verified: true },
    });
  });

  it('opening the link switches the address, proved; every other session ends, and the old address gets a notice with an undo link', async () => {
    const customer = await insertCustomer(t.app);
    const otherDevice = sessionCookie(await logIn(customer.email, customer.password));
    const target = newAddress();
    const opened = await changeAndConfirm(customer, target, customer.cookie);
    expect(opened.json()).toMatchObject({ data: { email: target, changed: true } });
    expect(await emailOf(customer.customerId)).toBe(target);
    expect(await authenticated(otherDevice)).toBe(false);
    expect(await authenticated(customer.cookie)).toBe(true);
    const verified = await t.app.db
      .selectFrom('customers')
      .select('email_verified_at')
      .where('id', '=', customer.customerId)
      .executeTakeFirstOrThrow();
    expect(verified.email_verified_at).not.toBeNull();

    const [notice] = await noticesTo(customer.email);
    expect(notice?.text).toMatch(/http:\/\/localhost:3000\/undo-email-change\?id=[\w-]{43}(\s|$)/);
    expect(notice?.text).toContain(`m***@example.test`);
    expect(notice?.text).not.toContain(target);
    expect(notice?.text).not.toContain(customer.password);
    // The link's token is stored only as its hash.
    const token = await undoToken(customer.email);
    const rows = await t.app.db.selectFrom('email_change_undos').select('token_hash').execute();
    expect(rows.map((r) => r.token_hash)).toContain(hashToken(token));
    expect(rows.map((r) => r.token_hash)).not.toContain(token);

    expect((await logIn(target, customer.password)).statusCode).toBe(200);
    expect((await logIn(customer.email, customer.password)).statusCode).toBe(401);
  });

  it('the confirmation link works once and expires after 48 hours; a newer request voids an older one', async () => {
    const customer = await insertCustomer(t.app);
    const first = newAddress();
    const second = newAddress();
    expect((await update(customer, first, customer.password)).statusCode).toBe(200);
    const voided = await confirmToken(first);
    expect(voided).toMatch(/^[\w-]{43}$/);
    expect((await update(customer, second, customer.password)).statusCode).toBe(200);
    const stale = await callAs(t.app, accountsApi.emailVerify, { token: voided });
    expect(stale.json()).toMatchObject({
      code: 'EMAIL_VERIFY_INVALID',
      message:
        'This link has expired or has already been used. Log in and send yourself a new one.',
    });
    expect(await emailOf(customer.customerId)).toBe(customer.email);

    const third = newAddress();
    await changeAndConfirm(customer, third, customer.cookie);
    const used = await confirmToken(third);
    const again = await callAs(t.app, accountsApi.emailVerify, { token: used });
    expect(again.json()).toMatchObject({ code: 'EMAIL_VERIFY_INVALID' });
    expect(await emailOf(customer.customerId)).toBe(third);

    const fourth = newAddress();
    expect((await update(customer, fourth, customer.password)).statusCode).toBe(200);
    const late = await confirmToken(fourth);
    t.clock.advance(48 * 60 * 60_000 + 1000);
    const expired = await callAs(t.app, accountsApi.emailVerify, { token: late });
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toMatchObject({ code: 'EMAIL_VERIFY_INVALID' });
    expect(await emailOf(customer.customerId)).toBe(third);
  });

  it('an address another account took meanwhile is refused when the link is opened, and nothing moves', async () => {
    const customer = await insertCustomer(t.app);
    const target = newAddress();
    expect((await update(customer, target, customer.password)).statusCode).toBe(200);
    await insertCustomer(t.app, { email: target });
    const token = await confirmToken(target);
    const opened = await callAs(t.app, accountsApi.emailVerify, { token });
    expect(opened.statusCode).toBe(409);
    expect(opened.json()).toMatchObject({ code: 'EMAIL_TAKEN' });
    expect(await emailOf(customer.customerId)).toBe(customer.email);
  });

  it('the undo link puts the old address back once, ends every session and spends the reset links sent meanwhile', async () => {
    const customer = await insertCustomer(t.app);
    const target = newAddress();
    // Someone with the password, the session and the new address's mail moves the account and
    // asks for a reset there.
    await changeAndConfirm(customer, target, customer.cookie);
    await callAs(t.app, authApi.reset, { email: target });
    const resetToken =
      (await sentMessages(t))
        .filter((m) => m.to === target && m.subject === 'Reset your Pairwell password')
        .map((m) => /\/reset-password\?id=([\w-]+)/.exec(m.text)?.[1])[0] ?? '';
    expect(resetToken).toMatch(/^[\w-]{43}$/);

    const token = await undoToken(customer.email);
    const undone = await callAs(t.app, accountsApi.emailRestore, { token });
    expect(undone.statusCode).toBe(200);
    expect(undone.json()).toMatchObject({
      status: 'SUCCESS',
      message:
        'Your email address is back, and every device was logged out. Please choose a new password now.',
      data: { email: customer.email },
    });
    expect(await emailOf(customer.customerId)).toBe(customer.email);
    expect(await authenticated(customer.cookie)).toBe(false);
    const reset = await callAs(t.app, authApi.passwordUpdate, {
      token: resetToken,
      password: 'the intruder passphrase',
    });
    expect(reset.json()).toMatchObject({ code: 'RESET_LINK_INVALID' });
    expect((await logIn(customer.email, customer.password)).statusCode).toBe(200);

    const again = await callAs(t.app, accountsApi.emailRestore, { token });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({
      code: 'EMAIL_UNDO_INVALID',
      message:
        'This link has expired or has already been used. If someone else changed your email, please write to us.',
    });
  });

  it('after the owner undoes, the link sent to an intermediate address moves nothing', async () => {
    const customer = await insertCustomer(t.app);
    const first = newAddress();
    const second = newAddress();
    await changeAndConfirm(customer, first, customer.cookie);
    await changeAndConfirm(customer, second, customer.cookie);
    const ownersLink = await undoToken(customer.email);
    const intruderLink = await undoToken(first);
    expect(intruderLink).toMatch(/^[\w-]{43}$/);
    expect((await callAs(t.app, accountsApi.emailRestore, { token: ownersLink })).statusCode).toBe(
      200,
    );
    const moved = await callAs(t.app, accountsApi.emailRestore, { token: intruderLink });
    expect(moved.statusCode).toBe(400);
    expect(await emailOf(customer.customerId)).toBe(customer.email);
  });

  it('an undo link older than 7 days, or a made-up one, is refused and changes nothing', async () => {
    const customer = await insertCustomer(t.app);
    const target = newAddress();
    await changeAndConfirm(customer, target, customer.cookie);
    const token = await undoToken(customer.email);
    t.clock.advance(7 * 24 * 60 * 60_000 + 1000);
    const late = await callAs(t.app, accountsApi.emailRestore, { token });
    expect(late.statusCode).toBe(400);
    expect(late.json()).toMatchObject({ code: 'EMAIL_UNDO_INVALID' });
    const madeUp = await callAs(t.app, accountsApi.emailRestore, { token: 'x'.repeat(43) });
    expect(madeUp.json()).toMatchObject({ code: 'EMAIL_UNDO_INVALID' });
    expect(await emailOf(customer.customerId)).toBe(target);
  });
});
