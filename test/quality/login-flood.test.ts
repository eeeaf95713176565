import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginLimits } from '#server/features/auth/auth.service.ts';
import { messages } from '#shared/wording.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { insertCustomer, randomLoopback, type TestCustomer } from '#test/factories.ts';

/**
 * A credential-stuffing flood from one address: many accounts, many guesses, all at once. The
 * address is throttled with the project's 429 message; the store keeps answering everyone, and a
 * customer elsewhere still logs in.
 */
describe(`a flood of log-ins from one address (${testDialect})`, () => {
  let t: TestApp;
  let customer: TestCustomer;
  beforeAll(async () => {
    t = await buildTestApp();
    customer = await insertCustomer(t.app);
  });
  afterAll(() => t.close());

  it('is throttled with 429 while the catalogue keeps answering 200', async () => {
    const attacker = randomLoopback();
    const attempts = loginLimits.perAddress * 3;
    const login = (i: number) =>
      t.app.inject({
        method: 'POST',
        url: '/lapi/account/login/',
        payload: { email: `victim-${i}@example.test`, password: `guess number ${i}` },
        remoteAddress: attacker,
      });
    const catalogue = () =>
      t.app.inject({ method: 'GET', url: '/lapi/products/', remoteAddress: attacker });

    // All in flight together, the catalogue calls interleaved with the guesses.
    const logins: ReturnType<typeof login>[] = [];
    const browsing: ReturnType<typeof catalogue>[] = [];
    for (let i = 0; i < attempts; i++) {
      logins.push(login(i));
      if (i % 3 === 0) browsing.push(catalogue());
    }
    const [loginResponses, catalogueResponses] = await Promise.all([
      Promise.all(logins),
      Promise.all(browsing),
    ]);

    const statuses = loginResponses.map((r) => r.statusCode);
    // Never more guesses checked than the address is allowed, however many arrive at once.
    expect(statuses.filter((s) => s === 401)).toHaveLength(loginLimits.perAddress);
    expect(statuses.filter((s) => s === 429)).toHaveLength(attempts - loginLimits.perAddress);
    for (const response of loginResponses.filter((r) => r.statusCode === 429)) {
      expect(response.json()).toMatchObject({
        status: 'FAILURE',
        code: 'TOO_MANY_ATTEMPTS',
        message: messages.tooManyRequests,
      });
      expect(response.cookies).toHaveLength(0);
    }
    expect(catalogueResponses.map((r) => r.statusCode)).toEqual(browsing.map(() => 200));
    expect(catalogueResponses[0]?.json()).toMatchObject({ status: 'SUCCESS' });

    // The throttled address stays throttled, even with the right password…
    const stillFlooding = await t.app.inject({
      method: 'POST',
      url: '/lapi/account/login/',
      payload: { email: customer.email, password: customer.password },
      remoteAddress: attacker,
    });
    expect(stillFlooding.statusCode).toBe(429);
    // …while the customer, from their own address, logs in as usual.
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/lapi/account/login/',
      payload: { email: customer.email, password: customer.password },
      remoteAddress: randomLoopback(),
    });
    expect(elsewhere.statusCode).toBe(200);

    // And when the window has passed, the address may try again.
    t.clock.advance(loginLimits.windowMs + 1000);
    const later = await t.app.inject({
      method: 'POST',
      url: '/lapi/account/login/',
      payload: { email: customer.email, password: customer.password },
      remoteAddress: attacker,
    });
    expect(later.statusCode).toBe(200);
  });
});
