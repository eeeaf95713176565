import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '#test/app.ts';

/**
 * Issue 12: the API reference is generated from the endpoint declarations in `shared/` and must
 * lint clean under Redocly's recommended rules, every operation named and summarised, and its
 * errors described with the error body.
 */
describe('the OpenAPI document', () => {
  let t: TestApp;
  let source: string;
  beforeAll(async () => {
    t = await buildTestApp();
    source = (await t.app.inject({ method: 'GET', url: '/lapi/docs' })).body;
  });
  afterAll(() => t.close());

  it("has no error under Redocly's recommended rules", async () => {
    const problems = await lintFromString({
      source,
      absoluteRef: 'openapi.json',
      // Spec §7's paths end in a slash and are binding word for word (`/account/login/`): the
      // one recommended rule they cannot meet is a warning here, every other stays an error.
      config: await createConfig({
        extends: ['recommended'],
        rules: { 'no-path-trailing-slash': 'warn' },
      }),
    });
    const errors = problems
      .filter((problem) => problem.severity === 'error')
      .map((problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`);
    expect(errors).toEqual([]);
  });

  it('names, summarises and secures every API operation, and describes its errors', () => {
    type Operation = {
      operationId?: string;
      summary?: string;
      security?: unknown[];
      responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
    };
    const doc = JSON.parse(source) as { paths: Record<string, Record<string, Operation>> };
    const operations = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/lapi/') && path !== '/lapi/docs')
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => ({ path, method, op })),
      );
    expect(operations.length).toBeGreaterThan(70);
    for (const { path, method, op } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(op.operationId, where).toBeTruthy();
      expect(op.summary, where).toBeTruthy();
      const errorStatuses = Object.keys(op.responses).filter((status) => Number(status) >= 400);
      expect(errorStatuses, where).toContain('500');
      for (const status of errorStatuses)
        expect(
          op.responses[status]?.content?.['application/json']?.schema,
          `${where} ${status}`,
        ).toBeTruthy();
    }
    const ids = operations.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
