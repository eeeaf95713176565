import path from 'node:path';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifySchema, type RouteOptions } from 'fastify';
import * as z from 'zod/mini';
import { lintFromString, loadConfig } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '#test/app.ts';
import { checkAnswersAgainstOpenApi } from '#test/openapi-conformance.ts';

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
    source = (await t.app.inject({ method: 'GET', url: '/lapi/docs/json' })).body;
  });
  afterAll(() => t.close());

  it("has no error under Redocly's recommended rules", async () => {
    const problems = await lintFromString({
      source,
      absoluteRef: 'openapi.json',
      // The rules `npm run lint:api` gives Redocly's CLI: recommended, spec §7's trailing slashes
      // a warning (redocly.yaml).
      config: await loadConfig({
        configPath: path.join(import.meta.dirname, '../../redocly.yaml'),
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
      .filter(([path]) => path.startsWith('/lapi/') && !path.startsWith('/lapi/docs'))
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

describe("every API test's answers are checked against the document (test/openapi-conformance.ts)", () => {
  it('checks success and error answers', async () => {
    const t = await buildTestApp();
    try {
      expect((await t.app.inject({ method: 'GET', url: '/lapi/products/' })).statusCode).toBe(200);
      const refused = await t.app.inject({
        method: 'POST',
        url: '/lapi/partners/shared/',
        payload: {},
      });
      expect(refused.statusCode).toBe(401);
      const invalid = await t.app.inject({
        method: 'POST',
        url: '/lapi/account/login/',
        payload: { email: 'not an address' },
      });
      expect(invalid.statusCode).toBe(400);
      expect(t.conformance.checked).toBe(3);
      expect(t.conformance.problems).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('has every API route in the document, so none escapes the check', async () => {
    const routes: string[] = [];
    const t = await buildTestApp({
      onRoute: (route: RouteOptions) => {
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        for (const method of methods)
          if (
            method !== 'HEAD' &&
            route.url.startsWith('/lapi/') &&
            !route.url.startsWith('/lapi/docs')
          )
            routes.push(
              `${method.toLowerCase()} ${route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`,
            );
      },
    });
    try {
      const doc = (await t.app.inject({ method: 'GET', url: '/lapi/docs/json' })).json<{
        paths: Record<string, Record<string, unknown>>;
      }>();
      const described = Object.entries(doc.paths).flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => `${method} ${path}`),
      );
      expect(routes.length).toBeGreaterThan(70);
      expect(routes.filter((route) => !described.includes(route))).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('reports a body that breaks its schema and a status the document does not describe', async () => {
    const app = Fastify();
    await app.register(fastifySwagger, {
      openapi: { openapi: '3.1.0', info: { title: 't', version: '1' } },
    });
    const described: FastifySchema = {
      response: {
        200: {
          type: 'object',
          required: ['code'],
          properties: { code: { type: 'string' } },
        },
      },
    };
    // Each sends its own bytes, as a cached body or a hand-written error would.
    app.get('/lapi/broken', { schema: described }, (_request, reply) => {
      void reply.type('application/json').send(JSON.stringify({ message: 'no code' }));
    });
    app.get('/lapi/teapot', { schema: described }, (_request, reply) => {
      void reply
        .code(418)
        .type('application/json')
        .send(JSON.stringify({ code: 'TEAPOT' }));
    });
    const conformance = checkAnswersAgainstOpenApi(app);
    await app.inject({ method: 'GET', url: '/lapi/broken' });
    await app.inject({ method: 'GET', url: '/lapi/teapot' });
    await app.close();
    expect(conformance.checked).toBe(2);
    expect(conformance.problems).toEqual([
      expect.stringMatching(/^GET \/lapi\/broken 200: \(body\) must have required property 'code'/),
      'GET /lapi/teapot 418: the status is not described',
    ]);
  });
});

describe('request examples in the API reference', () => {
  it("are accepted by their calls and shown as each request body's example", async () => {
    const examples: { url: string; body: z.ZodMiniType; example: unknown }[] = [];
    const t = await buildTestApp({
      onRoute: (route: RouteOptions) => {
        const schema = route.schema as
          { body?: z.ZodMiniType; 'x-body-example'?: unknown } | undefined;
        if (schema?.body && schema['x-body-example'] !== undefined)
          examples.push({ url: route.url, body: schema.body, example: schema['x-body-example'] });
      },
    });
    try {
      const doc = (await t.app.inject({ method: 'GET', url: '/lapi/docs/json' })).json<{
        paths: Record<
          string,
          { post?: { requestBody?: { content?: Record<string, { example?: unknown }> } } }
        >;
      }>();
      expect(examples.map(({ url }) => url).sort()).toEqual(
        [
          '/lapi/account/login/',
          '/lapi/account/create/',
          '/lapi/account/address/',
          '/lapi/account/payment-method/',
          '/lapi/v2/ecom/add-product',
          '/lapi/v2/ecom/update-cart',
          '/lapi/v2/ecom/apply-coupon',
          '/lapi/messaging/send/',
          '/lapi/partners/invite/',
          '/lapi/account/treatment-requests/create/',
          '/lapi/staff/requests/decide/',
        ].sort(),
      );
      for (const { url, body, example } of examples) {
        const parsed = z.safeParse(body, example);
        expect(parsed.error?.issues ?? [], url).toEqual([]);
        expect(
          doc.paths[url]?.post?.requestBody?.content?.['application/json']?.example,
          url,
        ).toEqual(example);
      }
    } finally {
      await t.close();
    }
  });
});
