import type { RouteOptions } from 'fastify';
import type { LightMyRequestResponse } from 'fastify';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startSession } from '#server/features/auth/auth.service.ts';
import { API_PREFIX, ErrorBodySchema } from '#shared/api.ts';
import { buildTestApp, testDialect } from '#test/app.ts';
import { databaseState } from '#test/database.ts';
import { insertCustomer } from '#test/factories.ts';

/**
 * Every `/lapi` route, taken from the app's own route table as it registers (a new route is fuzzed
 * without anyone editing this file), called with generated bad input: wrong types, missing and
 * unknown fields, huge strings, odd Unicode, prototype-pollution keys, bodies that are not JSON,
 * junk query strings and path parameters. Never a 5xx; every refusal is the one error body; and a
 * refused request stores nothing.
 */

interface FuzzRoute {
  method: string;
  url: string;
  body: z.ZodType | undefined;
}

const routes: FuzzRoute[] = [];
const t = await buildTestApp({
  onRoute: (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const schema = route.schema as { body?: z.ZodType } | undefined;
    for (const method of methods) {
      if (method === 'HEAD' || !route.url.startsWith(`${API_PREFIX}/`)) continue;
      // The API reference's own files (Swagger UI's scripts and styles, and the redirect of its
      // index.html to the page): static files, not calls; app.test.ts serves the page.
      if (route.url.startsWith(`${API_PREFIX}/docs/static/`)) continue;
      routes.push({ method, url: route.url, body: schema?.body });
    }
  },
});
afterAll(() => t.close());

// Every table's rows. Not the rate limits' counters (a refused log-in still counts towards its
// limit), and only the number of sessions (each request moves its session's last-seen time).
const databaseNow = await databaseState(t, {
  skip: ['rate_limits'],
  countOnly: ['sessions', 'staff_sessions'],
});

// --- What bad input looks like -------------------------------------------------------------------

const oddStrings = [
  '',
  ' ',
  '\u0000',
  'nul\u0000inside',
  '\ud800',
  'lone\udfffsurrogate',
  '\u202egnp.exe',
  'zero\u200bwidth\u200d',
  '\ufeffbom',
  'line\u2028separator',
  'ﷺ𝕏e\u0301',
  "' or 1=1 --",
  '<script>alert(1)</script>',
  '../../../etc/passwd',
  '%00',
  '${7*7}',
  '__proto__',
  'constructor',
  'NaN',
  '-0',
  '1e999',
];
const hugeStrings = ['x'.repeat(200_000), '\u202e'.repeat(30_000), '𝕏'.repeat(40_000)];
const pollutionKeys = ['__proto__', 'constructor', 'prototype'];

const oddString = fc.constantFrom(...oddStrings);
const badScalar = fc.oneof(
  oddString,
  fc.constantFrom(...hugeStrings),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer(),
  fc.constantFrom(-1, 0, 0.5, 2 ** 53 + 1, 1e308, -1e308, Number.MAX_SAFE_INTEGER),
  fc.boolean(),
  fc.constant(null),
);
const badValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: badScalar },
  { weight: 1, arbitrary: fc.array(badScalar, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(oddString, badScalar, { maxKeys: 2 }) },
  { weight: 1, arbitrary: fc.constant({ polluted: true, isAdmin: true }) },
);

/** The JSON Schema of a route's body: what fields it names, so the fuzz can miss and twist them. */
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
  maximum?: number;
};

function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

/** Values a field of this name would accept, so that some bodies get past validation. */
function hintsFor(key: string, leadsId: string | undefined): string[] {
  const hints: [RegExp, string[]][] = [
    [/^leads_id$/, leadsId ? [leadsId] : ['Lnot-yours']],
    [/email/, ['someone@example.test']],
    [/dob|date_of_birth/, ['04/12/1990']],
    [/phone/, ['5035550142']],
    [/zip/, ['97204']],
    [/state/, ['OR']],
    [/ccnum/, ['4242 4242 4242 4242']],
    [/ccexp/, ['12/30']],
    [/cccvv/, ['123']],
    [/password/, ['correct horse battery']],
    [/since|_at$/, ['2026-01-01T00:00:00.000Z']],
    [/code/, ['WELCOME10', '123456']],
  ];
  return hints.find(([pattern]) => pattern.test(key))?.[1] ?? ['Riley', 'ed', '1'];
}

/**
 * A value that could pass the field's own check, sometimes with odd Unicode added, so that some
 * generated bodies reach the service (and the database) with it.
 */
function plausible(
  schema: JsonSchema,
  key: string,
  leadsId: string | undefined,
): fc.Arbitrary<unknown> {
  const options = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  if (options.length > 0) return fc.oneof(...options.map((s) => plausible(s, key, leadsId)));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'boolean':
      return fc.boolean();
    case 'integer':
    case 'number':
      return fc.integer({ min: schema.minimum ?? 0, max: Math.min(schema.maximum ?? 50, 50) });
    case 'object':
      return objectFor(schema, leadsId, 'nearly-valid').map((e) => Object.fromEntries(e));
    case 'array':
      return fc.array(plausible(schema.items ?? {}, key, leadsId), { maxLength: 2 });
    case 'null':
      return fc.constant(null);
    default: {
      const base = fc.constantFrom(...hintsFor(key, leadsId));
      return fc.oneof(
        { weight: 3, arbitrary: base },
        { weight: 2, arbitrary: fc.tuple(base, oddString).map(([a, b]) => `${a}${b}`) },
      );
    }
  }
}

type Entries = [string, unknown][];

/**
 * An object over the schema's fields. Hostile: each field missing, plausible or wrong, and maybe
 * unknown or prototype-polluting keys too. Nearly valid: every field plausible.
 */
function objectFor(
  schema: JsonSchema,
  leadsId: string | undefined,
  mode: 'hostile' | 'nearly-valid',
): fc.Arbitrary<Entries> {
  const parts = [schema, ...(schema.allOf ?? [])];
  const fields = Object.fromEntries(parts.flatMap((p) => Object.entries(p.properties ?? {})));
  const known = Object.entries(fields).map(([key, field]) =>
    (mode === 'hostile'
      ? fc.oneof(
          { weight: 1, arbitrary: fc.constant(undefined) },
          { weight: 2, arbitrary: plausible(field, key, leadsId) },
          { weight: 2, arbitrary: badValue },
        )
      : plausible(field, key, leadsId)
    ).map((value): Entries => (value === undefined ? [] : [[key, value]])),
  );
  const extras =
    mode === 'hostile'
      ? fc.array(
          fc.tuple(
            fc.oneof(fc.constantFrom(...pollutionKeys, 'is_admin', 'customer_id'), oddString),
            badValue,
          ),
          { maxLength: 2 },
        )
      : fc.constant([] as Entries);
  return fc.tuple(fc.tuple(...known), extras).map(([k, e]) => [...k.flat(), ...e]);
}

/** JSON text with keys exactly as given (`__proto__` stays a key, duplicates stay duplicates). */
function toJson(entries: Entries): string {
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
}

interface Attempt {
  contentType: string | undefined;
  payload: string | undefined;
  query: string;
  /** For a route with `:params`, the raw (already-encoded) value of each. */
  param: string;
}

const rawBodies: [string | undefined, string][] = [
  ['application/json', '{'],
  ['application/json', '{"a":'],
  ['application/json', "{'single':'quotes'}"],
  ['application/json', 'undefined'],
  ['application/json', '\u0000'],
  ['application/json', ''],
  ['application/json', '[]'],
  ['application/json', 'null'],
  ['application/json', '"just a string"'],
  ['application/json', '1e999'],
  ['application/json', '['.repeat(10_000) + ']'.repeat(10_000)],
  ['application/json', `{"a":"${'x'.repeat(1_100_000)}"}`],
  ['application/json', '{"__proto__":{"polluted":true}}'],
  ['application/json', '{"constructor":{"prototype":{"polluted":true}}}'],
  ['application/json; charset=utf-16', '{}'],
  ['text/plain', 'hello'],
  ['application/x-www-form-urlencoded', 'a=1&__proto__[polluted]=1'],
  [
    'multipart/form-data; boundary=xyz',
    '--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\n1',
  ],
  ['multipart/form-data', 'no boundary at all'],
  ['application/xml', '<a>1</a>'],
  [undefined, 'no content type'],
];

const queries = [
  '',
  '',
  '?__proto__[polluted]=1',
  '?constructor[prototype][polluted]=1',
  '?a=%ED%A0%80',
  '?a=%E2%80%AE%00',
  '?%zz=%',
  '?a[]=1&a[]=2',
  `?long=${'y'.repeat(8_000)}`,
];
const params = [
  '1',
  '0',
  '-1',
  '1e3',
  '99999999999999999999999',
  '%00',
  '%ED%A0%80',
  '%E2%80%AE',
  '..%2F..%2Fetc%2Fpasswd',
  '%',
  '%zz',
  'a'.repeat(300),
  '__proto__',
];

function attempts(route: FuzzRoute, leadsId: string | undefined): fc.Arbitrary<Attempt> {
  const shape = route.body ? jsonSchemaOf(route.body) : {};
  const json = fc.oneof(
    { weight: 5, arbitrary: objectFor(shape, leadsId, 'hostile').map(toJson) },
    { weight: 3, arbitrary: objectFor(shape, leadsId, 'nearly-valid').map(toJson) },
    { weight: 1, arbitrary: badValue.map((v) => JSON.stringify(v) ?? 'null') },
  );
  const body = fc.oneof(
    { weight: 4, arbitrary: json.map((payload) => ['application/json', payload] as const) },
    { weight: 1, arbitrary: fc.constantFrom(...rawBodies) },
  );
  const target = fc.record({
    query: fc.constantFrom(...queries),
    param: fc.constantFrom(...params),
  });
  if (route.method === 'GET')
    return target.map((a) => ({ ...a, contentType: undefined, payload: undefined }));
  return fc
    .tuple(target, body)
    .map(([a, [contentType, payload]]) => ({ ...a, contentType, payload }));
}

// --- The calls -----------------------------------------------------------------------------------

function send(route: FuzzRoute, attempt: Attempt, cookie: string | undefined) {
  const url = route.url.replace(/:\w+/g, attempt.param) + attempt.query;
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  if (attempt.contentType) headers['content-type'] = attempt.contentType;
  return t.app.inject({
    method: route.method as 'GET' | 'POST',
    url,
    headers,
    ...(attempt.payload !== undefined ? { payload: attempt.payload } : {}),
  });
}

/** What fastify would have handed the route's validator, when the body was JSON it could parse. */
function parsedBody(attempt: Attempt): { ok: true; value: unknown } | { ok: false } {
  if (!attempt.contentType?.startsWith('application/json') || attempt.payload === undefined)
    return { ok: false };
  try {
    return { ok: true, value: JSON.parse(attempt.payload) };
  } catch {
    return { ok: false };
  }
}

function expectErrorBody(response: LightMyRequestResponse, what: string) {
  expect(response.headers['content-type'], what).toMatch(/^application\/json/);
  const parsed = ErrorBodySchema.safeParse(response.json());
  expect(parsed.success, `${what}: not the error body: ${response.body.slice(0, 300)}`).toBe(true);
}

const customer = await insertCustomer(t.app);
let customerCookie = customer.cookie;

/**
 * A call that ended or replaced the session (log-out, sign-up, log-in) leaves the customer logged
 * in again, whatever the fuzz did to their email or password.
 */
async function keepCustomerLoggedIn(response: LightMyRequestResponse): Promise<boolean> {
  if (!response.cookies.some((c) => c.name === 'pw_session')) return false;
  const { token } = await startSession(t.app.ctx, customer.customerId, {
    userAgent: 'fuzz',
    ip: '127.0.0.1',
  });
  customerCookie = `pw_session=${token}`;
  return true;
}

const roles = ['visitor', 'customer'] as const;

describe(`fuzz: every /lapi route refuses bad input cleanly (${testDialect})`, () => {
  it('found the routes in the app', () => {
    expect(routes.length).toBeGreaterThan(60);
    expect(routes.map((r) => r.url)).toContain('/lapi/account/login/');
  });

  describe.each(roles)('as a %s', (role) => {
    it.each(routes.map((r) => [`${r.method} ${r.url}`, r] as const))('%s', async (name, route) => {
      // The database as it was after the last call that might have been accepted, and the calls
      // refused since: a body the route's own schema refuses is refused before any handler runs
      // (asserted below), so a run of them needs one look at the database, not one each.
      let before = await databaseNow();
      let refusedSince: string[] = [];
      const expectNothingStored = async () => {
        const now = await databaseNow();
        expect(
          now,
          `one of these refused calls stored something:\n${refusedSince.join('\n')}`,
        ).toEqual(before);
        refusedSince = [];
        return now;
      };
      await fc.assert(
        fc.asyncProperty(
          attempts(route, role === 'customer' ? customer.leadsId : undefined),
          async (attempt) => {
            const body = parsedBody(attempt);
            const schemaRefuses =
              route.method !== 'GET' &&
              route.body !== undefined &&
              (!body.ok || !route.body.safeParse(body.value).success);
            if (!schemaRefuses) before = await expectNothingStored();

            const cookie = role === 'customer' ? customerCookie : undefined;
            const response = await send(route, attempt, cookie);
            const what = `${name}${attempt.query.slice(0, 60)} (${attempt.param.slice(0, 40)}) ${attempt.contentType}: ${attempt.payload?.slice(0, 200)} → ${response.statusCode}`;
            expect(response.statusCode, what).toBeLessThan(500);
            if (response.statusCode >= 300) {
              expectErrorBody(response, what);
              refusedSince.push(what);
              if (!schemaRefuses) before = await expectNothingStored();
            } else {
              // Accepted: then it was input the route's own schema allows, and JSON.
              expect(schemaRefuses, `${what}: accepted input its schema refuses`).toBe(false);
              if (route.body && route.method !== 'GET')
                expect(body.ok, `${what}: accepted a body that is not JSON`).toBe(true);
              before = await databaseNow();
              refusedSince = [];
            }
            if (role === 'customer' && (await keepCustomerLoggedIn(response)))
              before = await databaseNow();
          },
        ),
        { seed: 20_261_121, numRuns: 20, endOnFailure: true },
      );
      await expectNothingStored();
    });
  });

  it('left every prototype as it was, whatever keys came in', () => {
    for (const prototype of [Object.prototype, Array.prototype, Function.prototype]) {
      expect(Object.getOwnPropertyNames(prototype)).not.toEqual(
        expect.arrayContaining(['polluted']),
      );
      expect(Object.getOwnPropertyNames(prototype)).not.toEqual(
        expect.arrayContaining(['isAdmin']),
      );
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
