import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ErrorReporter } from '#server/adapters/error-reporter.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { AppError } from '#server/lib/errors.ts';
import { callAs, malformed, urlOf } from '#test/contract.ts';
import { cartApi } from '#shared/cart.ts';
import { catalogApi } from '#shared/catalog.ts';

/**
 * Routes this test adds for itself, outside the contract (no endpoint declares them): each throws
 * one kind of error for the handler to answer.
 */
const testRoutes = {
  boom: '/lapi/test/boom',
  databaseDetail: '/lapi/test/database-detail',
  refused: '/lapi/test/refused',
  strict: '/lapi/test/strict',
};

describe(`the error handler (${testDialect})`, () => {
  let t: TestApp;
  const reported: unknown[] = [];
  const reporter: ErrorReporter = { report: (error) => reported.push(error) };

  beforeAll(async () => {
    t = await buildTestApp({ errorReporter: reporter });
    t.app.get(testRoutes.boom, () => {
      throw new Error('internal detail: select * from secrets');
    });
    t.app.get(testRoutes.databaseDetail, () => {
      // What PostgreSQL attaches to a constraint failure: the row, values and all.
      throw Object.assign(
        new Error('new row for relation "visit_answers" violates check constraint'),
        {
          code: '23514',
          detail: 'Failing row contains (7, 12, melatonin with wine, jane@example.com).',
          parameters: ['melatonin with wine', 'jane@example.com'],
          cause: { answer: 'melatonin with wine' },
        },
      );
    });
    t.app.get(testRoutes.refused, () => {
      throw new AppError('ALREADY', 'That was done already.', { email: 'In use' });
    });
    t.app.post(
      testRoutes.strict,
      { schema: { body: z.strictObject({ email: z.email('Invalid Email'), age: z.number() }) } },
      () => ({ ok: true }),
    );
  });
  afterAll(() => t.close());

  it('an unexpected error answers 500 with a generic message, is logged and reported, and shows no detail', async () => {
    const response = await t.app.inject({ method: 'GET', url: testRoutes.boom });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toMatchObject({
      status: 'FAILURE',
      code: 'INTERNAL',
      message: 'Something went wrong on our side. Please try again in a moment.',
    });
    expect(response.body).not.toContain('internal detail');
    expect(reported).toHaveLength(1);
    expect(t.logs()).toContain('unexpected error');
  });

  it("logs an unexpected error's kind, code, message and stack, never its detail, parameters or cause", async () => {
    const response = await t.app.inject({ method: 'GET', url: testRoutes.databaseDetail });
    expect(response.statusCode).toBe(500);
    const logs = t.logs();
    expect(logs).toContain('violates check constraint');
    expect(logs).toContain('23514');
    expect(logs).not.toContain('melatonin');
    expect(logs).not.toContain('jane@example.com');
    expect(logs).not.toContain('Failing row');
  });

  it('an AppError keeps its status, code, message and field messages', async () => {
    const response = await t.app.inject({ method: 'GET', url: testRoutes.refused });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      status: 'FAILURE',
      code: 'ALREADY',
      message: 'That was done already.',
      fields: { email: 'In use' },
    });
  });

  it('a validation failure answers 400 with a message per field; unknown fields are refused', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: testRoutes.strict,
      payload: { email: 'nope', age: 'x', isAdmin: true },
    });
    expect(response.statusCode).toBe(400);
    const body = response.json<{ code: string; fields: Record<string, string> }>();
    expect(body.code).toBe('VALIDATION');
    expect(body.fields.email).toBe('Invalid Email');
    expect(body.fields.age).toBeDefined();
    expect(body.fields.isAdmin).toBe('Unknown field');
  });

  it('a body that is not JSON is refused with 4xx, never 500', async () => {
    for (const [type, payload] of [
      ['application/json', '{"email":'],
      ['text/plain', 'hello'],
      ['application/json', ''],
    ] as const) {
      const response = await t.app.inject({
        method: 'POST',
        url: testRoutes.strict,
        headers: { 'content-type': type },
        payload,
      });
      expect(response.statusCode, `${type} ${payload}`).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      expect(response.json()).toMatchObject({ status: 'FAILURE' });
    }
  });

  it('a NUL character anywhere in a JSON body is refused with 400, on both databases', async () => {
    // PostgreSQL text cannot hold U+0000: this coupon look-up used to fail there with a 500.
    for (const payload of [
      '{"code":"WELCOME10\\u0000","subtotal_cents":1000}',
      '{"code":"WELCOME10","nested":{"k\\u0000":1}}',
    ]) {
      const response = await callAs(t.app, cartApi.couponCode, malformed(payload), undefined, {
        headers: { 'content-type': 'application/json' },
      });
      expect(response.statusCode, payload).toBe(400);
      expect(response.json()).toMatchObject({ status: 'FAILURE', code: 'INVALID_CHARACTER' });
    }
    const escaped = await callAs(
      t.app,
      cartApi.couponCode,
      malformed('{"code":"NOPE\\\\u0000"}'),
      undefined,
      { headers: { 'content-type': 'application/json' } },
    );
    expect(escaped.json()).toMatchObject({ code: 'COUPON_REFUSED' });
  });

  it("the router's own refusals (a malformed or over-long path) answer with the one error body", async () => {
    for (const [url, status] of [
      // A malformed escape: literal, since urlOf would encode its `%`.
      ['/lapi/products/%zz', 400],
      [urlOf(catalogApi.product, { slug: 'a'.repeat(300) }), 414],
    ] as const) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(status);
      expect(response.json()).toEqual({
        status: 'FAILURE',
        code: expect.stringMatching(/^FST_ERR_/),
        message: expect.any(String),
        requestId: expect.any(String),
      });
      expect(response.body).not.toContain('aaaa');
    }
  });
});
