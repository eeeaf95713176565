import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsApi } from '#shared/accounts.ts';
import { authApi } from '#shared/auth.ts';
import { sessionApi } from '#shared/session.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { cookieValue, placesTheAppWrites, secretsIn } from '#test/canary.ts';
import { callAs, malformed, type Malformed } from '#test/contract.ts';
import { buildSignup, insertCustomer, randomLoopback, sessionCookie } from '#test/factories.ts';
import { sentMessages } from '#test/outbox.ts';

describe(`sign-up, log-in and sessions (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const verify = (cookie?: string) => callAs(t.app, sessionApi.verifyAuthentication, {}, cookie);

  it('sign-up creates the account and logs it in with an HttpOnly, SameSite=Lax session cookie', async () => {
    const signup = buildSignup();
    const response = await callAs(t.app, accountsApi.accountCreate, signup);
    expect(response.statusCode).toBe(200);
    const body = response.json<{
      data: { leads_id: string; user: { email: string; first_name: string } };
    }>();
    expect(body.data.user).toMatchObject({ email: signup.email, first_name: 'Riley' });
    const cookie = response.cookies.find((c) => c.name === 'pw_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.value).toMatch(/^[\w-]{43}$/);
    const session = await verify(sessionCookie(response));
    expect(session.json()).toMatchObject({
      data: { authenticated: true, user: { leads_id: body.data.leads_id } },
    });
    expect((await verify()).json()).toMatchObject({ data: { authenticated: false, user: null } });
  });

  it('an email already in use gets a clear message and no second account', async () => {
    const first = await insertCustomer(t.app);
    const again = await callAs(
      t.app,
      accountsApi.accountCreate,
      buildSignup({ email: first.email.toUpperCase() }),
    );
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'EMAIL_TAKEN',
      fields: {
        email: 'An account with this email already exists. Log in or reset your password.',
      },
    });
    const rows = await t.app.db
      .selectFrom('customers')
      .select('id')
      .where('email', '=', first.email)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it.each([
    ['email', '', 'Field required'],
    ['email', 'not-an-email', 'Invalid Email'],
    ['first_name', '', 'Field required'],
    ['last_name', '   ', 'Field required'],
    ['password', 'short', 'Password must be at least 8 characters'],
    ['password', 'x'.repeat(129), 'Password must be at most 128 characters'],
    ['dob', '', 'You must enter a date of birth.'],
    ['dob', '1/2/1990', 'Date format must be MM/DD/YYYY.'],
    ['dob', '02/30/1990', 'Invalid date'],
    ['dob', '01/01/2015', 'Minimum age is 19'],
    ['dob', '01/01/1900', 'Maximum age is 99'],
    ['phoneNo', '', 'Field required'],
    ['phoneNo', '12345', 'Enter a 10-digit US phone number'],
    ['consent', false, 'Continue your online visit by checking the box above'],
  ] as const)(
    'sign-up refuses %s = %j with %j and stores nothing',
    async (field, value, message) => {
      const signup = { ...buildSignup(), [field]: value };
      const response = await callAs(t.app, accountsApi.accountCreate, malformed(signup));
      expect(response.statusCode).toBe(400);
      expect(response.json<{ fields: Record<string, string> }>().fields[field]).toBe(message);
      const typed = typeof signup.email === 'string' ? signup.email.toLowerCase() : '';
      expect(
        await t.app.db.selectFrom('customers').select('id').where('email', '=', typed).execute(),
      ).toHaveLength(0);
    },
  );

  it('a missing field says Field required; an unknown field is refused', async () => {
    const { first_name: _omitted, ...rest } = buildSignup();
    const missing = await callAs(t.app, accountsApi.accountCreate, malformed(rest));
    expect(missing.json<{ fields: Record<string, string> }>().fields.first_name).toBe(
      'Field required',
    );
    const extra = await callAs(
      t.app,
      accountsApi.accountCreate,
      malformed({ ...buildSignup(), is_admin: true }),
    );
    expect(extra.statusCode).toBe(400);
    expect(extra.json<{ fields: Record<string, string> }>().fields.is_admin).toBe('Unknown field');
  });

  it('a common breached password is refused', async () => {
    const response = await callAs(
      t.app,
      accountsApi.accountCreate,
      buildSignup({ password: 'Password123' }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      fields: { password: 'This password is too common. Please choose another.' },
    });
  });

  it('log-in with the right password opens a new session; a wrong one or an unknown email says the same', async () => {
    const customer = await insertCustomer(t.app);
    const wrong = await callAs(t.app, authApi.login, {
      email: customer.email,
      password: 'wrong password!',
    });
    const unknown = await callAs(t.app, authApi.login, {
      email: 'nobody@example.test',
      password: 'wrong password!',
    });
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({
        code: 'INVALID_CREDENTIALS',
        message: 'The email or password you entered is incorrect.',
      });
      expect(response.cookies.find((c) => c.name === 'pw_session')).toBeUndefined();
    }
    const ok = await callAs(t.app, authApi.login, {
      email: customer.email.toUpperCase(),
      password: customer.password,
    });
    expect(ok.statusCode).toBe(200);
    expect(sessionCookie(ok)).not.toBe(customer.cookie);
    expect(ok.json()).toMatchObject({
      data: { leads_id: customer.leadsId, user: { customer_id: customer.customerId } },
    });
  });

  it('log-in is limited per account: after 5 failures a device that never logged in waits, even with the right password', async () => {
    const customer = await insertCustomer(t.app);
    for (let i = 0; i < 5; i++) {
      const response = await callAs(
        t.app,
        authApi.login,
        { email: customer.email, password: `guess number ${i}` },
        undefined,
        { remoteAddress: randomLoopback() },
      );
      expect(response.statusCode).toBe(401);
    }
    const locked = await callAs(t.app, authApi.login, {
      email: customer.email,
      password: customer.password,
    });
    // The owner on a device they have logged in with gets in (login-protection.test.ts).
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ code: 'LOGIN_LOCKED' });
    expect(locked.cookies).toHaveLength(0);
    t.clock.advance(15 * 60_000);
    const later = await callAs(t.app, authApi.login, {
      email: customer.email,
      password: customer.password,
    });
    expect(later.statusCode).toBe(200);
  });

  it('log-in is rate-limited per address across accounts', async () => {
    const address = randomLoopback();
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) {
      const response = await callAs(
        t.app,
        authApi.login,
        { email: `someone-${i}@example.test`, password: 'not their password' },
        undefined,
        { remoteAddress: address },
      );
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(30)).toEqual([429, 429]);
  });

  it('log-out ends the session on the server: the old cookie no longer works', async () => {
    const customer = await insertCustomer(t.app);
    const out = await callAs(t.app, authApi.logout, {}, customer);
    expect(out.statusCode).toBe(200);
    expect((await verify(customer.cookie)).json()).toMatchObject({
      data: { authenticated: false },
    });
    const basics = await callAs(t.app, accountsApi.basics, {}, customer);
    expect(basics.statusCode).toBe(401);
  });

  it('a session ends after 30 idle minutes, and after 12 hours however busy', async () => {
    const idle = await insertCustomer(t.app);
    t.clock.advance(29 * 60_000);
    expect((await verify(idle.cookie)).json()).toMatchObject({ data: { authenticated: true } });
    t.clock.advance(30 * 60_000 + 1);
    expect((await verify(idle.cookie)).json()).toMatchObject({ data: { authenticated: false } });

    const busy = await insertCustomer(t.app);
    for (let minutes = 0; minutes < 12 * 60 - 20; minutes += 20) {
      t.clock.advance(20 * 60_000);
      expect((await verify(busy.cookie)).json(), `at ${minutes + 20} minutes`).toMatchObject({
        data: { authenticated: true },
      });
    }
    t.clock.advance(20 * 60_000);
    expect((await verify(busy.cookie)).json()).toMatchObject({ data: { authenticated: false } });
  });

  it('lists the signed-in devices and logs out everywhere else', async () => {
    const customer = await insertCustomer(t.app);
    const other = sessionCookie(
      await callAs(t.app, authApi.login, {
        email: customer.email,
        password: customer.password,
      }),
    );
    const list = await callAs(t.app, authApi.sessions, {}, customer);
    const sessions = list.json<{ data: { sessions: { current: boolean; device: string }[] } }>()
      .data.sessions;
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    const revoke = await callAs(t.app, authApi.sessionsRevoke, {}, customer);
    expect(revoke.json()).toMatchObject({ data: { ended: 1 } });
    expect((await verify(other)).json()).toMatchObject({ data: { authenticated: false } });
    expect((await verify(customer.cookie)).json()).toMatchObject({ data: { authenticated: true } });
  });

  it("tells devices apart and logs out one of them, only ever one of the customer's own", async () => {
    const customer = await insertCustomer(t.app);
    const phone = await callAs(
      t.app,
      authApi.login,
      { email: customer.email, password: customer.password },
      undefined,
      {
        remoteAddress: '10.20.30.40',
        headers: {
          'user-agent':
            'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1',
        },
      },
    );
    expect(phone.statusCode).toBe(200);
    const phoneCookie = sessionCookie(phone);
    const listOf = async (cookie: string) =>
      (await callAs(t.app, authApi.sessions, {}, cookie)).json<{
        data: {
          sessions: { id: string; current: boolean; device: string; network: string | null }[];
        };
      }>().data.sessions;
    const sessions = await listOf(customer.cookie);
    const other = sessions.find((s) => !s.current);
    const mine = sessions.find((s) => s.current);
    expect(other).toMatchObject({ device: 'Safari on iOS', network: '10.20.30.x' });
    // Another customer cannot end it, nor learn whether it exists.
    const stranger = await insertCustomer(t.app);
    const refused = await callAs(t.app, authApi.sessionEnd, { id: other!.id }, stranger);
    expect(refused.statusCode).toBe(404);
    expect((await verify(phoneCookie)).json()).toMatchObject({ data: { authenticated: true } });
    // This device logs out with Log out, not from the list.
    const self = await callAs(t.app, authApi.sessionEnd, { id: mine!.id }, customer);
    expect(self.statusCode).toBe(400);
    expect(self.json()).toMatchObject({ message: 'To log out of this device, use Log out.' });

    const ended = await callAs(t.app, authApi.sessionEnd, { id: other!.id }, customer);
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toMatchObject({ message: 'That device was logged out.' });
    expect((await verify(phoneCookie)).json()).toMatchObject({ data: { authenticated: false } });
    expect((await verify(customer.cookie)).json()).toMatchObject({ data: { authenticated: true } });
    const again = await callAs(t.app, authApi.sessionEnd, { id: other!.id }, customer);
    expect(again.statusCode).toBe(404);
    expect((await callAs(t.app, authApi.sessionEnd, malformed({}), customer)).statusCode).toBe(400);
  });

  it('a forged or malformed session cookie is simply not a session', async () => {
    for (const cookie of [
      'pw_session=forged-token-that-is-long-enough-to-look-real',
      'pw_session=',
      'pw_session=%00%01',
    ]) {
      expect((await verify(cookie)).json()).toMatchObject({ data: { authenticated: false } });
    }
  });
});

describe(`password reset and change (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const resetLinks = async (email: string) =>
    (await sentMessages(t))
      .filter((m) => m.to === email && m.subject === 'Reset your Pairwell password')
      .map((m) => /\/reset-password\?id=([\w-]+)/.exec(m.text)?.[1]);
  /** The first reset link's token, which the test goes on to use. */
  const resetLink = async (email: string): Promise<string> => {
    const [token] = await resetLinks(email);
    if (token === undefined) throw new Error(`no reset link was mailed to ${email}`);
    return token;
  };

  it('answers the same for known and unknown addresses, and emails a link only to a real account', async () => {
    const customer = await insertCustomer(t.app);
    const known = await callAs(t.app, authApi.reset, {
      email: customer.email,
      clicks_id: null,
      token: null,
    });
    const unknown = await callAs(t.app, authApi.reset, {
      email: 'nobody-here@example.test',
    });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(known.json()).toEqual({
      status: 'SUCCESS',
      message:
        'If an account under that email address is found we will email you a password reset email',
    });
    expect(await resetLinks(customer.email)).toHaveLength(1);
    expect((await sentMessages(t)).filter((m) => m.to === 'nobody-here@example.test')).toHaveLength(
      0,
    );
  });

  it.each([
    ['', 'Email is required'],
    ['nope', 'Invalid Email'],
  ])('the reset request refuses %j with %j', async (email, message) => {
    const response = await callAs(t.app, authApi.reset, { email });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ fields: { email: message } });
  });

  it('a reset token works once, ends every session, and the password-changed email follows', async () => {
    const customer = await insertCustomer(t.app);
    await callAs(t.app, authApi.reset, { email: customer.email });
    const token = await resetLink(customer.email);
    expect(token).toMatch(/^[\w-]{43}$/);
    const stored = await t.app.db.selectFrom('password_resets').select('token_hash').execute();
    expect(stored.map((r) => r.token_hash)).not.toContain(token);

    const update = await callAs(t.app, authApi.passwordUpdate, {
      token,
      password: 'a brand new passphrase',
    });
    expect(update.statusCode).toBe(200);
    expect(update.json()).toMatchObject({ status: 'SUCCESS' });
    expect(
      (await callAs(t.app, sessionApi.verifyAuthentication, {}, customer)).json(),
    ).toMatchObject({
      data: { authenticated: false },
    });
    const again = await callAs(t.app, authApi.passwordUpdate, {
      token,
      password: 'another new passphrase',
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({
      status: 'FAILURE',
      message: 'This reset link has expired or has already been used. Please request a new one.',
    });
    const login = await callAs(t.app, authApi.login, {
      email: customer.email,
      password: 'a brand new passphrase',
    });
    expect(login.statusCode).toBe(200);
    const changed = (await sentMessages(t)).filter(
      (m) => m.to === customer.email && m.subject === 'Your Pairwell password was changed',
    );
    expect(changed).toHaveLength(1);
    expect(changed[0]?.text).not.toContain('a brand new passphrase');
  });

  it('a reset token older than 60 minutes is refused', async () => {
    const customer = await insertCustomer(t.app);
    await callAs(t.app, authApi.reset, { email: customer.email });
    const token = await resetLink(customer.email);
    t.clock.advance(60 * 60_000 + 1000);
    const response = await callAs(t.app, authApi.passwordUpdate, {
      token,
      password: 'too late passphrase',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'RESET_LINK_INVALID' });
  });

  describe('asking whether a reset link can still be used', () => {
    const check = (token: string | Malformed, from = '127.0.0.9') =>
      callAs(
        t.app,
        authApi.passwordResetCheck,
        typeof token === 'string' ? { token } : token,
        undefined,
        { remoteAddress: from },
      );

    it('says yes to a fresh link without spending it, and no once it is used', async () => {
      const customer = await insertCustomer(t.app);
      await callAs(t.app, authApi.reset, { email: customer.email });
      const token = await resetLink(customer.email);
      const fresh = await check(token);
      expect(fresh.statusCode).toBe(200);
      // The answer names no account: only whether the link works.
      expect(fresh.json()).toEqual({ status: 'SUCCESS', message: '', data: { valid: true } });
      expect((await check(token)).json()).toMatchObject({ data: { valid: true } });
      const update = await callAs(t.app, authApi.passwordUpdate, {
        token,
        password: 'checked then changed',
      });
      expect(update.statusCode).toBe(200);
      expect((await check(token)).json()).toMatchObject({ data: { valid: false } });
    });

    it('says no to an expired link and a made-up one, the same way', async () => {
      const customer = await insertCustomer(t.app);
      await callAs(t.app, authApi.reset, { email: customer.email });
      const token = await resetLink(customer.email);
      t.clock.advance(60 * 60_000 + 1000);
      const expired = await check(token);
      const madeUp = await check('made-up');
      expect(expired.json()).toEqual(madeUp.json());
      expect(madeUp.json()).toMatchObject({ data: { valid: false } });
      expect((await check('')).json()).toMatchObject({ data: { valid: false } });
    });

    it('refuses a body that is not a token, and limits how often one address may ask', async () => {
      expect((await check(malformed({ token: 42 }))).statusCode).toBe(400);
      expect((await check('x'.repeat(300))).statusCode).toBe(400);
      const from = randomLoopback();
      const answers: number[] = [];
      for (let i = 0; i < 31 * t.env.ADDRESS_LIMIT_FACTOR; i += 1)
        answers.push((await check(`guess-${i}`, from)).statusCode);
      expect(answers.slice(0, 30 * t.env.ADDRESS_LIMIT_FACTOR).every((s) => s === 200)).toBe(true);
      expect(answers.at(-1)).toBe(429);
    });
  });

  it('a made-up token is refused the same way', async () => {
    const response = await callAs(t.app, authApi.passwordUpdate, {
      token: 'made-up',
      password: 'whatever passphrase',
    });
    expect(response.json()).toMatchObject({ code: 'RESET_LINK_INVALID' });
  });

  it('changing the password from Accounts needs the current one and logs out the other devices', async () => {
    const customer = await insertCustomer(t.app);
    const other = sessionCookie(
      await callAs(t.app, authApi.login, {
        email: customer.email,
        password: customer.password,
      }),
    );
    const wrong = await callAs(
      t.app,
      authApi.changePassword,
      { current_password: 'not it at all', password: 'next passphrase here' },
      customer,
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      fields: { current_password: 'Your current password is incorrect.' },
    });
    const ok = await callAs(
      t.app,
      authApi.changePassword,
      { current_password: customer.password, password: 'next passphrase here' },
      customer,
    );
    expect(ok.statusCode).toBe(200);
    expect((await callAs(t.app, sessionApi.verifyAuthentication, {}, other)).json()).toMatchObject({
      data: { authenticated: false },
    });
    expect(
      (await callAs(t.app, sessionApi.verifyAuthentication, {}, customer)).json(),
    ).toMatchObject({ data: { authenticated: true } });
    const visitor = await callAs(t.app, authApi.changePassword, {
      current_password: 'x',
      password: 'next passphrase here',
    });
    expect(visitor.statusCode).toBe(401);
  });

  it('no password, token or session ever reaches a log line or the database', async () => {
    const canary = 'canary-passphrase-7731';
    const customer = await insertCustomer(t.app, { password: canary });
    await callAs(t.app, authApi.login, { email: customer.email, password: canary });
    await callAs(t.app, authApi.login, {
      email: customer.email,
      password: `${canary}-wrong`,
    });
    await callAs(t.app, authApi.reset, { email: customer.email });
    const token = await resetLink(customer.email);
    await t.app.inject({ method: 'GET', url: `/reset-password?id=${token}` });
    await callAs(t.app, authApi.passwordUpdate, { token, password: `${canary}-new` });
    // The log and the database (every row; on SQLite the files too) hold none of them; the reset
    // link is only in its email. test/quality/canary.test.ts follows a whole account's life.
    const places = (await placesTheAppWrites(t)).filter((p) => !p.name.startsWith('outbox/'));
    expect(places.find((p) => p.name === 'logs')?.text.length).toBeGreaterThan(0);
    expect(
      secretsIn(places, {
        password: canary,
        'reset token': token ?? 'missing',
        'session token': cookieValue(customer.cookie),
      }),
    ).toEqual([]);
  });
});
