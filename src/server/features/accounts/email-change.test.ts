import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '#server/lib/tokens.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { insertCustomer, post, sessionCookie, type TestCustomer } from '#test/factories.ts';
import { sentMessages } from '#test/outbox.ts';

/**
 * Finding 7 of issue 11: a stolen session could change the email and then take the account
 * through a reset. Now a new email needs the current password, the old address is told and can
 * undo the change once, and every other session ends.
 */
describe(`changing the email protects the owner (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const newAddress = () => `moved-${Math.random().toString(36).slice(2, 10)}@example.test`;
  const update = (c: TestCustomer, email: string, currentPassword?: string) =>
    post(
      t.app,
      '/lapi/account/update/',
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
      c.cookie,
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
    (await post(t.app, '/lapi/account/verifyauthentication/', {}, cookie)).json<{
      data: { authenticated: boolean };
    }>().data.authenticated;
  const noticesTo = async (email: string) =>
    (await sentMessages(t)).filter(
      (m) => m.to === email && m.subject === 'Your Pairwell email address was changed',
    );
  const undoToken = async (email: string) =>
    (await noticesTo(email)).map((m) => /\/undo-email-change\?id=([\w-]+)/.exec(m.text)?.[1])[0];
  const logIn = (email: string, password: string) =>
    post(t.app, '/lapi/account/login/', { email, password });

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

  it('with the right password the email changes, every other session ends, and the old address gets a notice with an undo link', async () => {
    const customer = await insertCustomer(t.app);
    const otherDevice = sessionCookie(await logIn(customer.email, customer.password));
    const target = newAddress();
    const ok = await update(customer, target, customer.password);
    expect(ok.statusCode).toBe(200);
    expect(await emailOf(customer.customerId)).toBe(target);
    expect(await authenticated(otherDevice)).toBe(false);
    expect(await authenticated(customer.cookie)).toBe(true);

    const [notice] = await noticesTo(customer.email);
    expect(notice?.text).toMatch(/http:\/\/localhost:3000\/undo-email-change\?id=[\w-]{43}(\s|$)/);
    expect(notice?.text).toContain(`m***@example.test`);
    expect(notice?.text).not.toContain(target);
    expect(notice?.text).not.toContain(customer.password);
    // The link's token is stored only as its hash.
    const token = await undoToken(customer.email);
    const rows = await t.app.db.selectFrom('email_change_undos').select('token_hash').execute();
    expect(rows.map((r) => r.token_hash)).toContain(hashToken(token ?? ''));
    expect(rows.map((r) => r.token_hash)).not.toContain(token);

    expect((await logIn(target, customer.password)).statusCode).toBe(200);
    expect((await logIn(customer.email, customer.password)).statusCode).toBe(401);
  });

  it('the undo link puts the old address back once, ends every session and spends the reset links sent meanwhile', async () => {
    const customer = await insertCustomer(t.app);
    const target = newAddress();
    // Someone with the password and the session moves the account and asks for a reset there.
    expect((await update(customer, target, customer.password)).statusCode).toBe(200);
    await post(t.app, '/lapi/account/reset/', { email: target });
    const resetToken = (await sentMessages(t))
      .filter((m) => m.to === target && m.subject === 'Reset your Pairwell password')
      .map((m) => /\/reset-password\?id=([\w-]+)/.exec(m.text)?.[1])[0];
    expect(resetToken).toMatch(/^[\w-]{43}$/);

    const token = await undoToken(customer.email);
    const undone = await post(t.app, '/lapi/account/email/restore/', { token });
    expect(undone.statusCode).toBe(200);
    expect(undone.json()).toMatchObject({
      status: 'SUCCESS',
      message:
        'Your email address is back, and every device was logged out. Please choose a new password now.',
      data: { email: customer.email },
    });
    expect(await emailOf(customer.customerId)).toBe(customer.email);
    expect(await authenticated(customer.cookie)).toBe(false);
    const reset = await post(t.app, '/lapi/account/passwordupdate/', {
      token: resetToken,
      password: 'the intruder passphrase',
    });
    expect(reset.json()).toMatchObject({ code: 'RESET_LINK_INVALID' });
    expect((await logIn(customer.email, customer.password)).statusCode).toBe(200);

    const again = await post(t.app, '/lapi/account/email/restore/', { token });
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
    expect((await update(customer, first, customer.password)).statusCode).toBe(200);
    expect((await update(customer, second, customer.password)).statusCode).toBe(200);
    const ownersLink = await undoToken(customer.email);
    const intruderLink = await undoToken(first);
    expect(intruderLink).toMatch(/^[\w-]{43}$/);
    expect(
      (await post(t.app, '/lapi/account/email/restore/', { token: ownersLink })).statusCode,
    ).toBe(200);
    const moved = await post(t.app, '/lapi/account/email/restore/', { token: intruderLink });
    expect(moved.statusCode).toBe(400);
    expect(await emailOf(customer.customerId)).toBe(customer.email);
  });

  it('an undo link older than 7 days, or a made-up one, is refused and changes nothing', async () => {
    const customer = await insertCustomer(t.app);
    const target = newAddress();
    expect((await update(customer, target, customer.password)).statusCode).toBe(200);
    const token = await undoToken(customer.email);
    t.clock.advance(7 * 24 * 60 * 60_000 + 1000);
    const late = await post(t.app, '/lapi/account/email/restore/', { token });
    expect(late.statusCode).toBe(400);
    expect(late.json()).toMatchObject({ code: 'EMAIL_UNDO_INVALID' });
    const madeUp = await post(t.app, '/lapi/account/email/restore/', { token: 'x'.repeat(43) });
    expect(madeUp.json()).toMatchObject({ code: 'EMAIL_UNDO_INVALID' });
    expect(await emailOf(customer.customerId)).toBe(target);
  });
});
