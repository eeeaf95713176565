import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { authApi } from '#shared/auth.ts';
import { cartApi } from '#shared/cart.ts';
import { buildSecondInstance, buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import { insertCustomer, sessionCookie, type TestCustomer } from '#test/factories.ts';
import { statementsDuring } from '#test/sql-statements.ts';
import { SESSION_CACHE_TTL_MS } from './session-cache.ts';

/**
 * The session cache (issue 14): a session read a moment ago costs no statement, and whatever ends
 * sessions on one instance ends them on every other one at once (well within a second; a kept
 * session would otherwise live SESSION_CACHE_TTL_MS). On PostgreSQL the instances notify each
 * other; on SQLite each asks the file whether another connection wrote (PRAGMA data_version).
 */
describe(`sessions kept for a moment, ended everywhere (${testDialect})`, () => {
  let t: TestApp;
  let second: FastifyInstance;
  beforeAll(async () => {
    t = await buildTestApp();
    second = await buildSecondInstance(t);
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  const cart = (app: FastifyInstance, cookie: string) => callAs(app, cartApi.cart, {}, cookie);
  /** Well inside the cache's lifetime: a pass here is the notice, not the expiry. */
  const promptly = { timeout: Math.min(2000, SESSION_CACHE_TTL_MS / 4), interval: 20 };
  const logIn = async (who: TestCustomer) =>
    sessionCookie(await callAs(t.app, authApi.login, { email: who.email, password: who.password }));

  it('a warm session costs no statement', async () => {
    const who = await insertCustomer(t.app);
    // statementsDuring leaves out SQLite's check of PRAGMA data_version, which reads no table.
    const warmCart = () =>
      statementsDuring(async () => {
        expect((await cart(second, who.cookie)).statusCode).toBe(200);
      });
    // The cart itself is one statement (cart.queries.ts). A PostgreSQL instance keeps sessions
    // once its listening connection is up, a moment after it starts (longer on a loaded machine);
    // a SQLite one forgets what it keeps when it sees the other instance's writes (the customer's
    // insert), so the second call may read the session again.
    await vi.waitFor(async () => expect(await warmCart()).toBe(1), {
      timeout: 15_000,
      interval: 50,
    });
  });

  it('log out on one instance: the other refuses the session', async () => {
    const who = await insertCustomer(t.app);
    expect((await cart(second, who.cookie)).statusCode).toBe(200);
    expect((await cart(second, who.cookie)).statusCode).toBe(200);
    expect((await callAs(t.app, authApi.logout, {}, who)).statusCode).toBe(200);
    await vi.waitFor(async () => {
      expect((await cart(second, who.cookie)).statusCode).toBe(401);
    }, promptly);
  });

  it('a password change on one instance ends the other devices on every instance', async () => {
    const who = await insertCustomer(t.app);
    const otherDevice = await logIn(who);
    expect((await cart(second, otherDevice)).statusCode).toBe(200);
    expect((await cart(second, otherDevice)).statusCode).toBe(200);
    const changed = await callAs(
      t.app,
      authApi.changePassword,
      { current_password: who.password, password: 'a new long passphrase 7' },
      who,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    await vi.waitFor(async () => {
      expect((await cart(second, otherDevice)).statusCode).toBe(401);
    }, promptly);
    // The device that changed it stays logged in, on both.
    expect((await cart(second, who.cookie)).statusCode).toBe(200);
    expect((await cart(t.app, who.cookie)).statusCode).toBe(200);
  });
});
