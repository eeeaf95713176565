import type Stripe from 'stripe';
/**
 * How the fake Stripe reads a request: form-encoded parameters with bracketed keys, Stripe's error
 * bodies, and the search query language. Shared by the fake's objects and its HTTP layer.
 */

export type ParamValue = string | Params | ParamValue[];
export interface Params {
  [key: string]: ParamValue;
}

/** Stripe's error body (https://docs.stripe.com/api/errors). */
export interface StripeErrorBody {
  type: 'card_error' | 'invalid_request_error' | 'idempotency_error' | 'api_error';
  message: string;
  code?: string;
  decline_code?: string;
  param?: string;
  doc_url?: string;
  charge?: string;
  payment_intent?: unknown;
  setup_intent?: unknown;
  payment_method?: unknown;
}

/**
 * An answer in Stripe's error shape. `saved` is false for a request that failed validation:
 * Stripe keeps no idempotent result for those, so the same key may be used again
 * (https://docs.stripe.com/api/idempotent_requests).
 */
export class FakeStripeError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
    readonly saved = true,
  ) {
    super(body.message);
  }
}

/** Error codes carry a link to their page, as Stripe's do (https://docs.stripe.com/error-codes). */
export function withDocUrl(body: StripeErrorBody): StripeErrorBody {
  return body.code
    ? { ...body, doc_url: `https://stripe.com/docs/error-codes/${body.code.replaceAll('_', '-')}` }
    : body;
}

export function invalidRequest(message: string, extra: Partial<StripeErrorBody> = {}) {
  return new FakeStripeError(400, withDocUrl({ type: 'invalid_request_error', message, ...extra }));
}

/** A parameter refused before any work began: nothing is saved under its idempotency key. */
export function invalidParam(message: string, param: string, code?: string) {
  return new FakeStripeError(
    400,
    withDocUrl({ type: 'invalid_request_error', message, param, ...(code ? { code } : {}) }),
    false,
  );
}

export function resourceMissing(kind: string, id: string, param = 'id') {
  return new FakeStripeError(
    404,
    withDocUrl({
      type: 'invalid_request_error',
      code: 'resource_missing',
      message: `No such ${kind}: '${id}'`,
      param,
    }),
  );
}

/**
 * Parses `a[b][c]=1&list[0]=x&list[]=y` into nested objects and arrays, as Stripe reads form
 * bodies: the Node SDK writes arrays as `list[0]` (its `stringifyRequestData`), the curl examples
 * of https://docs.stripe.com/api as `list[]`.
 */
export function parseForm(encoded: string): Params {
  const root: Params = {};
  for (const [key, value] of new URLSearchParams(encoded)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    const path = match
      ? [
          match[1] ?? key,
          ...[...(match[2] ?? '').matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] ?? ''),
        ]
      : [key];
    let container: Params = root;
    path.forEach((segment, index) => {
      const name = segment === '' ? String(Object.keys(container).length) : segment;
      if (index === path.length - 1) {
        container[name] = value;
        return;
      }
      const next = container[name];
      if (typeof next !== 'object' || Array.isArray(next)) container[name] = {};
      container = container[name] as Params;
    });
  }
  return arraysFromIndexes(root) as Params;
}

/** Objects keyed 0, 1, 2… become arrays, except metadata, whose keys are the caller's own. */
function arraysFromIndexes(value: ParamValue, key = ''): ParamValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const converted: Params = {};
  for (const k of keys) converted[k] = arraysFromIndexes(value[k] as ParamValue, k);
  if (key !== 'metadata' && keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((k) => converted[k] as ParamValue);
  }
  return converted;
}

/** Refuses parameters the endpoint does not know, with Stripe's parameter_unknown error. */
export function allowOnly(params: Params, names: readonly string[]): void {
  for (const name of Object.keys(params)) {
    if (name !== 'expand' && !names.includes(name)) {
      throw invalidParam(`Received unknown parameter: ${name}`, name, 'parameter_unknown');
    }
  }
}

export function text(params: Params, name: string): string | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    throw invalidParam(
      `Invalid string: ${name} must be a string.`,
      name,
      'parameter_invalid_string',
    );
  }
  return value;
}

export function requiredText(params: Params, name: string): string {
  const value = text(params, name);
  if (value === undefined || value === '') {
    throw invalidParam(`Missing required param: ${name}.`, name, 'parameter_missing');
  }
  return value;
}

export function integer(params: Params, name: string): number | undefined {
  const value = text(params, name);
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) {
    throw invalidParam(`Invalid integer: ${value}`, name, 'parameter_invalid_integer');
  }
  return Number(value);
}

export function boolean(params: Params, name: string): boolean | undefined {
  const value = text(params, name);
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') {
    throw invalidParam(`Invalid boolean: ${value}`, name);
  }
  return value === 'true';
}

export function oneOf<T extends string>(
  params: Params,
  name: string,
  allowed: readonly T[],
): T | undefined {
  const value = text(params, name);
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw invalidParam(
      `Invalid ${name}: must be one of ${allowed.slice(0, -1).join(', ')}, or ${allowed.at(-1)}`,
      name,
    );
  }
  return value as T;
}

export function nested(params: Params, name: string): Params | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  if (typeof value === 'string' || Array.isArray(value)) {
    throw invalidParam(`Invalid object`, name, 'parameter_invalid_object');
  }
  return value;
}

export function textList(params: Params, name: string): string[] | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw invalidParam(`Invalid array`, name, 'parameter_invalid_array');
  }
  return value as string[];
}

/**
 * Metadata as Stripe merges it on update: each key is set, and a key sent empty is removed
 * (https://docs.stripe.com/api/metadata). Keys up to 40 characters, values up to 500.
 */
export function mergeMetadata(
  current: Record<string, string>,
  params: Params,
): Record<string, string> {
  const given = nested(params, 'metadata');
  if (!given) return current;
  const merged = { ...current };
  for (const [key, value] of Object.entries(given)) {
    if (typeof value !== 'string') throw invalidParam('Invalid metadata value', `metadata[${key}]`);
    if (key.length > 40) {
      throw invalidParam('Metadata keys can be at most 40 characters.', `metadata[${key}]`);
    }
    if (value.length > 500) {
      throw invalidParam('Metadata values can be at most 500 characters.', `metadata[${key}]`);
    }
    if (value === '') delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

interface SearchClause {
  field: string;
  metadataKey: string | null;
  value: string;
  negated: boolean;
}

/**
 * Stripe's search query language (https://docs.stripe.com/search#search-query-language), the part
 * an integration reconciling by key needs: `field:'value'`, `metadata['key']:'value'`, `-` to negate,
 * numbers unquoted, and clauses joined by AND or by OR (never both in one query).
 */
export function searchFilter(query: string): (object: object) => boolean {
  const usesAnd = /\sAND\s/.test(query);
  const usesOr = /\sOR\s/.test(query);
  if (usesAnd && usesOr) {
    throw invalidParam('Queries cannot combine AND and OR.', 'query');
  }
  const clauses = query
    .trim()
    .split(usesOr ? /\s+OR\s+/ : /\s+AND\s+/)
    .map(parseClause);
  return (object) => {
    const hits = clauses.map((clause) => clauseMatches(object, clause));
    return usesOr ? hits.some(Boolean) : hits.every(Boolean);
  };
}

function parseClause(clause: string): SearchClause {
  const quoted =
    /^(-?)(?:metadata\[(['"])(.+?)\2\]|([a-z_.]+)):(['"])(.*)\5$/.exec(clause) ??
    /^(-?)(?:metadata\[(['"])(.+?)\2\]|([a-z_.]+)):()(\d+)$/.exec(clause);
  if (!quoted) {
    throw invalidParam(
      `We were unable to parse your search query. Try using the format \`metadata["key"]:"value"\` to query for metadata or \`key:"value"\` to query for other fields.`,
      'query',
    );
  }
  return {
    negated: quoted[1] === '-',
    metadataKey: quoted[3] ?? null,
    field: quoted[4] ?? 'metadata',
    value: quoted[6] ?? '',
  };
}

function clauseMatches(object: object, clause: SearchClause): boolean {
  let actual: unknown;
  if (clause.metadataKey !== null) {
    actual = (object as { metadata?: Record<string, string> }).metadata?.[clause.metadataKey];
  } else {
    actual = clause.field
      .split('.')
      .reduce<unknown>(
        (value, part) =>
          value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined,
        object,
      );
  }
  const equal = actual !== undefined && actual !== null && String(actual) === clause.value;
  return clause.negated ? !equal : equal;
}

/**
 * One page of a list endpoint (https://docs.stripe.com/api/pagination): newest first, `limit`
 * between 1 and 100 (10 when absent), and `starting_after` the id of the last object of the page
 * before, which must be in the list. `newestLast` is the objects in the order they were made.
 */
export function listPage<T extends { id: string }>(
  newestLast: T[],
  params: Params,
  url: string,
): Stripe.ApiList<T> {
  const limit = integer(params, 'limit') ?? 10;
  if (limit < 1 || limit > 100)
    throw invalidParam(
      'This value must be greater than or equal to 1 and less than or equal to 100.',
      'limit',
    );
  const newestFirst = [...newestLast].reverse();
  const after = text(params, 'starting_after');
  let start = 0;
  if (after !== undefined) {
    const index = newestFirst.findIndex((item) => item.id === after);
    if (index === -1) throw resourceMissing('object', after, 'starting_after');
    start = index + 1;
  }
  return {
    object: 'list',
    data: newestFirst.slice(start, start + limit),
    has_more: newestFirst.length > start + limit,
    url,
  };
}
