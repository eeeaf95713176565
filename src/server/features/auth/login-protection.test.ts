import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStaff } from '#server/db/seed-demo.ts';
import { hashToken } from '#server/lib/tokens.ts';
import { totpCode, totpStep } from '#server/lib/totp.ts';
import { authApi } from '#shared/auth.ts';
import { staffApi } from '#shared/staff.ts';
import { buildSecondInstance, buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import { insertCustomer, randomLoopback } from '#test/factories.ts';
import { notWelcome, sentMessages } from '#test/outbox.ts';

/**
 * Finding 8 of issue 11: wrong passwords from anywhere used to lock the owner out. Now a browser
 * that has logged in to the account (a known device) still gets in with the right password while
 * unknown devices are paused, and an owner on a new device gets an emailed one-time link that lets
 * that device log in. The same for staff, whose second factor stays required.
 */

const LOCKED = {
  status: 'FAILURE',
  code: 'LOGIN_LOCKED',
  message:
    'Too many wrong passwords were tried for this account, so log-ins from new devices are paused. If it is your account, we can email you a link that lets this device log in.',
};

/** `name=value` of a cookie the response set, for the next request's Cookie header. */
function cookieFrom(response: LightMyRequestResponse, name: string): string | undefined {
  const cookie = response.cookies.find((c) => c.name === name);
  return cookie ? `${cookie.name}=${cookie.value}` : undefined;
}

function deviceCookie(response: LightMyRequestResponse): string {
  const cookie = cookieFrom(response, 'pw_device');
  if (!cookie) throw new Error(`no device cookie (${response.statusCode}: ${response.body})`);
  return cookie;
}

/** The one-time token of the latest email to `to` whose link goes to `path`. */
async function linkToken(t: TestApp, to: string, path: string): Promise<string> {
  const mail = (await sentMessages(t)).filter((m) => m.to === to && m.text.includes(path));
  const pattern = new RegExp(`${path.replace(/\//g, '\\/')}\\?id=([\\w-]+)`);
  const token = mail.map((m) => pattern.exec(m.text)?.[1])[0];
  if (token === undefined) throw new Error(`no ${path} link was mailed to ${to}`);
  return token;
}

describe(`customers: lock-out that stops attackers, not owners (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const login = (
    body: { email: string; password: string },
    device?: string,
    address = randomLoopback(),
  ) => callAs(t.app, authApi.login, body, device, { remoteAddress: address });

  it('a flood of wrong passwords from unknown devices pauses them, while the owner on a known device still logs in', async () => {
    const owner = await insertCustomer(t.app);
    const right = { email: owner.email, password: owner.password };
    const first = await login(right);
    expect(first.statusCode).toBe(200);
    const device = deviceCookie(first);
    expect(first.cookies.find((c) => c.name === 'pw_device')).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: '/',
    });
    // Only the hash of the device token is stored.
    const token = device.split('=')[1] ?? '';
    const stored = await t.app.db.selectFrom('known_devices').select('token_hash').execute();
    expect(stored.map((r) => r.token_hash)).toContain(hashToken(token));
    expect(stored.map((r) => r.token_hash)).not.toContain(token);

    // 30 guesses at once, each from an address and browser of its own: no more than 5 are checked.
    const flood = await Promise.all(
      Array.from({ length: 30 }, (_, i) => login({ email: owner.email, password: `guess ${i}!` })),
    );
    const statuses = flood.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(25);
    for (const response of flood.filter((r) => r.statusCode === 429)) {
      expect(response.json()).toMatchObject(LOCKED);
    }
    // The right password from an unknown device is not even checked: it gets the same answer.
    const thief = await login(right);
    expect(thief.statusCode).toBe(429);
    expect(thief.json()).toMatchObject(LOCKED);
    expect(thief.cookies).toHaveLength(0);

    // The owner, on the device they logged in with, from any address, gets in…
    const owners = await login(right, device);
    expect(owners.statusCode).toBe(200);
    expect(cookieFrom(owners, 'pw_session')).toBeDefined();
    // …and the device gets a fresh token; the old one no longer counts.
    const renewed = deviceCookie(owners);
    expect(renewed).not.toBe(device);
    expect((await login(right, device)).json()).toMatchObject(LOCKED);

    // The attacker keeps hammering; the owner keeps getting in, on this instance and another.
    for (let i = 0; i < 5; i++) {
      expect((await login({ email: owner.email, password: `more ${i}!` })).statusCode).toBe(429);
    }
    const again = await login(right, renewed);
    expect(again.statusCode).toBe(200);
    const second = await buildSecondInstance(t);
    try {
      const elsewhere = await callAs(second, authApi.login, right, deviceCookie(again), {
        remoteAddress: randomLoopback(),
      });
      expect(elsewhere.statusCode).toBe(200);
      const stranger = await callAs(second, authApi.login, right, undefined, {
        remoteAddress: randomLoopback(),
      });
      expect(stranger.json()).toMatchObject(LOCKED);
    } finally {
      await second.close();
    }
  });

  it('a known device gets 10 wrong passwords of its own, then waits too', async () => {
    const owner = await insertCustomer(t.app);
    const device = deviceCookie(await login({ email: owner.email, password: owner.password }));
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push(
        (await login({ email: owner.email, password: `typo ${i}!` }, device)).statusCode,
      );
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
    const waiting = await login({ email: owner.email, password: owner.password }, device);
    expect(waiting.statusCode).toBe(429);
    expect(waiting.json()).toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
  });

  it('a device that logged in to one account is a stranger to another', async () => {
    const mine = await insertCustomer(t.app);
    const victim = await insertCustomer(t.app);
    const device = deviceCookie(await login({ email: mine.email, password: mine.password }));
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      statuses.push(
        (await login({ email: victim.email, password: `guess ${i}!` }, device)).statusCode,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });

  it('an owner on a new device is offered an emailed link that lets that device log in, once', async () => {
    const owner = await insertCustomer(t.app);
    const right = { email: owner.email, password: owner.password };
    for (let i = 0; i < 5; i++) await login({ email: owner.email, password: `guess ${i}!` });
    expect((await login(right)).json()).toMatchObject(LOCKED);

    // The same answer for the owner, a stranger's address and an address with no account.
    const ask = (email: string) =>
      callAs(t.app, authApi.loginUnlock, { email }, undefined, {
        remoteAddress: randomLoopback(),
      });
    const asked = await ask(owner.email);
    const nobody = await ask('nobody-at-all@example.test');
    expect(asked.statusCode).toBe(200);
    expect(nobody.statusCode).toBe(200);
    expect(asked.json()).toEqual(nobody.json());
    expect(asked.json()).toEqual({
      status: 'SUCCESS',
      message:
        'If that address has an account whose log-ins are paused, we have emailed it a link. Open it on this device within 30 minutes to log in.',
    });

    const mail = (await sentMessages(t)).filter(
      (m) => m.to === owner.email && m.subject === 'Log in to Pairwell on a new device',
    );
    expect(mail).toHaveLength(1);
    expect(mail[0]?.text).toContain('http://localhost:3000/login/unlock?id=');
    expect(mail[0]?.text).not.toContain(owner.password);
    expect((await sentMessages(t)).filter((m) => m.to === 'nobody-at-all@example.test')).toEqual(
      [],
    );
    const token = await linkToken(t, owner.email, '/login/unlock');
    expect(token).toMatch(/^[\w-]{43}$/);
    const rows = await t.app.db.selectFrom('login_unlocks').select('token_hash').execute();
    expect(rows.map((r) => r.token_hash)).toContain(hashToken(token));
    expect(rows.map((r) => r.token_hash)).not.toContain(token);

    // A staff link it is not.
    const wrongKind = await callAs(t.app, staffApi.unlockConfirm, { token });
    expect(wrongKind.statusCode).toBe(400);

    // The new phone opens the link: it becomes a known device and logs in with the password.
    const opened = await callAs(t.app, authApi.loginUnlockConfirm, { token });
    expect(opened.statusCode).toBe(200);
    expect(opened.json()).toMatchObject({ status: 'SUCCESS' });
    const phone = deviceCookie(opened);
    expect((await login({ ...right, password: 'not the password' }, phone)).statusCode).toBe(401);
    expect((await login(right, phone)).statusCode).toBe(200);

    // Once only, and the attacker's devices are still paused.
    const reused = await callAs(t.app, authApi.loginUnlockConfirm, { token });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toMatchObject({
      code: 'UNLOCK_LINK_INVALID',
      message:
        'This link has expired or has already been used. Try to log in again to ask for a new one.',
    });
    expect(reused.cookies).toHaveLength(0);
    expect((await login(right)).json()).toMatchObject(LOCKED);
  });

  it('an unlock link expires after 30 minutes, and none is sent while the account is not paused', async () => {
    const calm = await insertCustomer(t.app);
    await callAs(t.app, authApi.loginUnlock, { email: calm.email });
    expect((await sentMessages(t)).filter((m) => m.to === calm.email && notWelcome(m))).toEqual([]);

    const owner = await insertCustomer(t.app);
    for (let i = 0; i < 5; i++) await login({ email: owner.email, password: `guess ${i}!` });
    await callAs(t.app, authApi.loginUnlock, { email: owner.email });
    const token = await linkToken(t, owner.email, '/login/unlock');
    t.clock.advance(30 * 60_000 + 1000);
    const late = await callAs(t.app, authApi.loginUnlockConfirm, { token });
    expect(late.statusCode).toBe(400);
    expect(late.json()).toMatchObject({ code: 'UNLOCK_LINK_INVALID' });
    const madeUp = await callAs(t.app, authApi.loginUnlockConfirm, { token: 'made-up' });
    expect(madeUp.json()).toMatchObject({ code: 'UNLOCK_LINK_INVALID' });
  });
});

describe(`staff: lock-out that stops attackers, not staff (${testDialect})`, () => {
  let t: TestApp;
  const ops = demoStaff.find((s) => s.role === 'operations')!;
  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
  });
  afterAll(() => t.close());

  /** Each authenticator code works once: every log-in moves the clock to the next step. */
  function freshCode(): string {
    t.clock.advance(31_000);
    return totpCode(ops.totpSecret, totpStep(t.clock.now()));
  }

  const staffLogin = (body: { password: string; code: string }, device?: string) =>
    callAs(t.app, staffApi.login, { email: ops.email, ...body }, device, {
      remoteAddress: randomLoopback(),
    });

  it('wrong passwords from unknown devices pause them; the staff member on a known device still needs password and code, and gets in', async () => {
    const first = await staffLogin({ password: ops.password, code: freshCode() });
    expect(first.statusCode).toBe(200);
    const device = deviceCookie(first);

    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      statuses.push((await staffLogin({ password: `guess ${i}!`, code: '123456' })).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    const thief = await staffLogin({ password: ops.password, code: freshCode() });
    expect(thief.json()).toMatchObject(LOCKED);

    // The known device: the second factor is still required…
    const noCode = await staffLogin({ password: ops.password, code: '000000' }, device);
    expect(noCode.statusCode).toBe(401);
    expect(noCode.json()).toMatchObject({ message: 'The email, password or code is incorrect.' });
    // …and with it, the staff member is in.
    const inside = await staffLogin({ password: ops.password, code: freshCode() }, device);
    expect(inside.statusCode).toBe(200);
    const staff = cookieFrom(inside, 'pw_staff');
    expect((await callAs(t.app, staffApi.me, {}, staff)).json()).toMatchObject({
      data: { authenticated: true, staff: { email: ops.email } },
    });
  });

  it('a staff member on a new device gets an emailed link that works once', async () => {
    // Still paused from the test above (the window is 15 minutes); make sure of it.
    for (let i = 0; i < 5; i++) await staffLogin({ password: `again ${i}!`, code: '123456' });
    expect((await staffLogin({ password: ops.password, code: freshCode() })).json()).toMatchObject(
      LOCKED,
    );

    const ask = (email: string) => callAs(t.app, staffApi.unlock, { email });
    const asked = await ask(ops.email);
    const nobody = await ask('nobody-staff@example.test');
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toEqual(nobody.json());
    const mail = (await sentMessages(t)).filter(
      (m) => m.to === ops.email && m.subject === 'Log in to Pairwell Staff on a new device',
    );
    expect(mail).toHaveLength(1);
    expect(mail[0]?.text).toContain('http://localhost:3000/staff/login/unlock?id=');
    const token = await linkToken(t, ops.email, '/staff/login/unlock');

    // A customer link it is not.
    expect((await callAs(t.app, authApi.loginUnlockConfirm, { token })).statusCode).toBe(400);
    const opened = await callAs(t.app, staffApi.unlockConfirm, { token });
    expect(opened.statusCode).toBe(200);
    const laptop = deviceCookie(opened);
    expect((await staffLogin({ password: ops.password, code: '000000' }, laptop)).statusCode).toBe(
      401,
    );
    expect(
      (await staffLogin({ password: ops.password, code: freshCode() }, laptop)).statusCode,
    ).toBe(200);
    const reused = await callAs(t.app, staffApi.unlockConfirm, { token });
    expect(reused.json()).toMatchObject({ code: 'UNLOCK_LINK_INVALID' });
  });
});
