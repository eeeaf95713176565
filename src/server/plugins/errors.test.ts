import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ErrorReporter } from '#server/adapters/error-reporter.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { AppError } from './errors.ts';

describe(`the error handler (${testDialect})`, () => {
  let t: TestApp;
  const reported: unknown[] = [];
  const reporter: ErrorReporter = { report: (error) => reported.push(error) };

  beforeAll(async () => {
    t = await buildTestApp({ errorReporter: reporter });
    t.app.get('/lapi/test/boom', () => {
      throw new Error('internal detail: select * from secrets');
    });
    t.app.get('/lapi/test/refused', () => {
      throw new AppError(409, 'ALREADY', 'That was done already.', { email: 'In use' });
    });
    t.app.post(
      '/lapi/test/strict',
      { schema: { body: z.strictObject({ email: z.email('Invalid Email'), age: z.number() }) } },
      () => ({ ok: true }),
    );
  });
  afterAll(() => t.close());

  it('an unexpected error answers 500 with a generic message, is logged and reported, and shows no detail', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/lapi/test/boom' });
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

  it('an AppError keeps its status, code, message and field messages', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/lapi/test/refused' });
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
      url: '/lapi/test/strict',
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
        url: '/lapi/test/strict',
        headers: { 'content-type': type },
        payload,
      });
      expect(response.statusCode, `${type} ${payload}`).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      expect(response.json()).toMatchObject({ status: 'FAILURE' });
    }
  });
});
