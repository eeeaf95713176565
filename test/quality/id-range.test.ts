import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { demoStaff } from '#server/db/seed-demo.ts';
import { API_PREFIX } from '#shared/api.ts';
import { MAX_ID } from '#shared/ids.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { insertCustomer, multipartBody, staffCookie } from '#test/factories.ts';
import { jpegWithGps } from '#test/visits.ts';

/**
 * Issue 11, finding 11: an id outside its column's range (PostgreSQL `integer`: 1 to 2³¹ − 1) is
 * bad input, refused by the route's schema with 400 naming the field, never a database error (500).
 * Every route that takes an id is found from the app's own route table, so a new one is checked
 * without anyone editing this file.
 */

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  items?: JsonSchema;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  default?: unknown;
};

interface IdRoute {
  method: string;
  url: string;
  schema: JsonSchema;
}

// leads_id is text; clicks_id is a tracking code the spec lets come as a number too, kept as text.
const textIds = new Set(['leads_id', 'clicks_id']);
const isIdName = (key: string) => /(^|_)id$/.test(key) && !textIds.has(key);
const isNumeric = (s: JsonSchema) =>
  [s.type].flat().some((type) => type === 'integer' || type === 'number');

/** The dotted paths of numeric id fields in a schema (array items as `.0`). */
function idPaths(schema: JsonSchema, prefix = ''): string[] {
  const options = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
  const own = Object.entries(schema.properties ?? {}).flatMap(([key, field]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    const numeric = isNumeric(field) || (field.anyOf ?? []).some(isNumeric);
    return [...(isIdName(key) && numeric ? [path] : []), ...idPaths(field, path)];
  });
  const items = schema.items ? idPaths(schema.items, prefix ? `${prefix}.0` : '0') : [];
  return [...own, ...items, ...options.flatMap((o) => idPaths(o, prefix))];
}

/** Every numeric id field's own schema, to check its range. */
function idFields(schema: JsonSchema, name = ''): [string, JsonSchema][] {
  const options = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
  return [
    ...(isIdName(name) && isNumeric(schema) ? [[name, schema] as [string, JsonSchema]] : []),
    ...Object.entries(schema.properties ?? {}).flatMap(([key, field]) => idFields(field, key)),
    ...(schema.items ? idFields(schema.items, name) : []),
    ...options.flatMap((o) => idFields(o, name)),
  ];
}

/** A body that fits the schema as far as a simple guess can (with ids set to `id` later). */
function example(schema: JsonSchema, key = ''): unknown {
  const options = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  if (options.length > 0)
    return example(options.find((o) => idPaths(o).length > 0) ?? options[0]!, key);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const type = [schema.type].flat()[0];
  if (type === 'object' || schema.properties)
    return Object.fromEntries(
      Object.entries(schema.properties ?? {}).map(([k, field]) => [k, example(field, k)]),
    );
  if (type === 'array') return [example(schema.items ?? {}, key)];
  if (type === 'integer' || type === 'number') return Math.max(schema.minimum ?? 1, 1);
  if (type === 'boolean') return true;
  if (type === 'null') return null;
  if (/email/.test(key)) return 'someone@example.test';
  if (/state/.test(key)) return 'OR';
  if (/zip/.test(key)) return '97204';
  if (/phone/.test(key)) return '5035550142';
  if (/date|until/.test(key)) return '2030-01-01';
  return 'Sure';
}

/** JSON text with every id path holding `literal` exactly as written (1e309 stays 1e309). */
function bodyText(schema: JsonSchema, paths: string[], literal: string, leadsId: string): string {
  const body = example(schema) as Record<string, unknown>;
  if ('leads_id' in body) body.leads_id = leadsId;
  const marker = '__ID_LITERAL__';
  for (const path of paths) {
    const keys = path.split('.');
    let at: Record<string, unknown> = body;
    for (const k of keys.slice(0, -1)) at = (at[k] ?? {}) as Record<string, unknown>;
    at[keys.at(-1)!] = marker;
  }
  return JSON.stringify(body).replaceAll(`"${marker}"`, literal);
}

const outOfRange = ['2147483648', '9007199254740993', '-1', '0', '1e309', '2.5'];

const routes: IdRoute[] = [];
let t: TestApp;
const cookies: Record<'visitor' | 'customer' | 'provider' | 'operations', string | undefined> = {
  visitor: undefined,
  customer: undefined,
  provider: undefined,
  operations: undefined,
};
let leadsId = '';

describe(`ids out of their column's range are bad input, never a 500 (${testDialect})`, () => {
  beforeAll(async () => {
    t = await buildTestApp({
      env: { SEED_DEMO: 'true' },
      onRoute: (route: RouteOptions) => {
        const schema = route.schema as { body?: z.ZodType } | undefined;
        const methods = [route.method].flat();
        if (!schema?.body || !route.url.startsWith(`${API_PREFIX}/`)) return;
        const json = z.toJSONSchema(schema.body, {
          io: 'input',
          unrepresentable: 'any',
        }) as JsonSchema;
        if (idPaths(json).length === 0) return;
        for (const method of methods) routes.push({ method, url: route.url, schema: json });
      },
    });
    const customer = await insertCustomer(t.app);
    cookies.customer = customer.cookie;
    leadsId = customer.leadsId;
    for (const role of ['provider', 'operations'] as const) {
      cookies[role] = await staffCookie(
        t,
        demoStaff.find((s) => s.role === role)!,
      );
    }
  });
  afterAll(() => t.close());

  it('found the routes that take ids', () => {
    expect(routes.map((r) => r.url)).toEqual(
      expect.arrayContaining([
        '/lapi/visit/checkout/',
        '/lapi/staff/orders/refund/',
        '/lapi/messaging/send/',
        '/lapi/v2/ecom/update-cart',
        '/lapi/subscription/update/',
      ]),
    );
    expect(routes.length).toBeGreaterThan(30);
  });

  it('declares every id field as a whole number from 1 to 2,147,483,647', () => {
    for (const route of routes)
      for (const [name, field] of idFields(route.schema)) {
        const what = `${route.url} ${name}: ${JSON.stringify(field)}`;
        expect(field.maximum, what).toBeLessThanOrEqual(MAX_ID);
        expect(field.exclusiveMinimum ?? (field.minimum ?? 0) - 1, what).toBeGreaterThanOrEqual(0);
      }
  });

  it('refuses each out-of-range id with 400 naming the field, for every caller', async () => {
    for (const route of routes) {
      const paths = idPaths(route.schema);
      for (const literal of outOfRange)
        for (const [caller, cookie] of Object.entries(cookies)) {
          const response = await t.app.inject({
            method: route.method as 'POST',
            url: route.url,
            headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
            payload: bodyText(route.schema, paths, literal, leadsId),
          });
          const what = `${route.method} ${route.url} as ${caller} with ${literal}: ${response.statusCode} ${response.body.slice(0, 300)}`;
          expect(response.statusCode, what).toBe(400);
          const fields = Object.keys(response.json<{ fields?: object }>().fields ?? {});
          expect(
            fields.some((f) => paths.some((p) => p === f || p.replace(/\.0\./g, '.') === f)),
            what,
          ).toBe(true);
        }
    }
  });

  it('answers the largest id there can be without a database error (no such record)', async () => {
    for (const route of routes) {
      const paths = idPaths(route.schema);
      for (const [caller, cookie] of Object.entries(cookies)) {
        const response = await t.app.inject({
          method: route.method as 'POST',
          url: route.url,
          headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
          payload: bodyText(route.schema, paths, String(MAX_ID), leadsId),
        });
        const what = `${route.method} ${route.url} as ${caller}: ${response.statusCode} ${response.body.slice(0, 300)}`;
        expect(response.statusCode, what).toBeLessThan(500);
      }
    }
  });

  it('refuses an out-of-range visit in a photo upload (form data) with 400', async () => {
    for (const literal of outOfRange) {
      const body = multipartBody(
        { visit_id: literal },
        {
          field: 'fileToUpload',
          filename: 'id.jpg',
          contentType: 'image/jpeg',
          bytes: jpegWithGps,
        },
      );
      const response = await t.app.inject({
        method: 'POST',
        url: '/lapi/upload_image/',
        payload: body.payload,
        headers: { ...body.headers, cookie: cookies.customer ?? '' },
      });
      expect(response.statusCode, `${literal}: ${response.body}`).toBe(400);
      expect(response.json()).toMatchObject({ fields: { visit_id: 'Choose a visit' } });
    }
  });

  it('answers 404 for a photo named by any number, with or without a session', async () => {
    for (const literal of [...outOfRange, String(MAX_ID), '1'])
      for (const [caller, cookie] of Object.entries(cookies)) {
        const response = await t.app.inject({
          method: 'GET',
          url: `/lapi/uploads/${encodeURIComponent(literal)}`,
          headers: cookie ? { cookie } : {},
        });
        expect(response.statusCode, `${literal} as ${caller}: ${response.body}`).toBe(404);
      }
  });
});
