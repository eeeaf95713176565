import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import * as z from 'zod/mini';
import { apiUrl } from '#shared/api.ts';
import {
  isV2,
  methodOf,
  type BodyOf,
  type DataOf,
  type Endpoint,
  type ParamsOf,
} from '#shared/contract.ts';

/**
 * Server tests call the API the way the browser does: by the endpoint's declaration in
 * `shared/<feature>.ts`, never by a URL typed again. The body is typed from the declaration (a
 * test of bad input says so with `malformed(…)`), the path's parameters are filled in from
 * `params`, and `dataOf` reads the answer through the declared response schema. Literal URLs stay
 * only in the wire-level tests (`test/quality/`), which test the URLs themselves.
 */

const malformedBody = Symbol('malformed body');

/** A body sent exactly as given, whatever the declaration says: for the tests of bad input. */
export interface Malformed {
  readonly [malformedBody]: unknown;
}

export function malformed(body: unknown): Malformed {
  return { [malformedBody]: body };
}

function isMalformed(body: unknown): body is Malformed {
  return typeof body === 'object' && body !== null && malformedBody in body;
}

/** Who calls: a session cookie (customer or staff), anything holding one, or a visitor. */
export type Who = string | { readonly cookie: string } | undefined;

export type CallAsOptions<E extends Endpoint> = {
  /** Where the request comes from (the per-address limits see each address apart). */
  remoteAddress?: string;
  /** More headers (Origin, User-Agent…); the cookie comes from `who`. */
  headers?: Record<string, string>;
  /** A query string's fields, for the calls that read one. */
  query?: Record<string, string>;
} & (undefined extends ParamsOf<E> ? { params?: never } : { params: ParamsOf<E> });

type OptionsArg<E extends Endpoint> =
  undefined extends ParamsOf<E> ? [options?: CallAsOptions<E>] : [options: CallAsOptions<E>];

/** The endpoint's URL, its `:params` filled in, as `call()` in the browser builds it. */
export function urlOf<E extends Endpoint>(
  endpoint: E,
  ...[params]: undefined extends ParamsOf<E> ? [params?: never] : [params: ParamsOf<E>]
): string {
  return apiUrl(endpoint.path, params as Record<string, string> | undefined);
}

/** Calls `endpoint` on the in-process app as `who`, with `body` (typed by the declaration). */
export function callAs<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  body: BodyOf<E> | Malformed,
  who?: Who,
  ...[options]: OptionsArg<E>
): Promise<LightMyRequestResponse> {
  const { params, query, remoteAddress, headers } = (options ?? {}) as CallAsOptions<Endpoint> & {
    params?: Record<string, string>;
  };
  const cookie = typeof who === 'string' ? who : who?.cookie;
  const payload = isMalformed(body) ? body[malformedBody] : body;
  return app.inject({
    method: methodOf(endpoint),
    url: apiUrl(endpoint.path, params),
    ...(query ? { query } : {}),
    ...(payload === undefined ? {} : { payload: payload as string | object }),
    ...(remoteAddress ? { remoteAddress } : {}),
    headers: { ...headers, ...(cookie ? { cookie } : {}) },
  });
}

/**
 * The data of a successful answer, read as the browser reads it (the envelope the declaration
 * says, then its response schema); throws, naming the answer, when the call failed or the data
 * does not match.
 */
export function dataOf<E extends Endpoint>(
  endpoint: E,
  response: LightMyRequestResponse,
): DataOf<E> {
  if (response.statusCode !== 200)
    throw new Error(`${endpoint.path} answered ${response.statusCode}: ${response.body}`);
  const payload = response.json<{ status?: string; message?: unknown; data?: unknown }>();
  if (!isV2(endpoint) && payload.status !== 'SUCCESS')
    throw new Error(`${endpoint.path} answered without SUCCESS: ${response.body}`);
  if (!endpoint.response) return { message: payload.message } as DataOf<E>;
  const data =
    endpoint.envelope === 'message'
      ? payload.message
      : endpoint.envelope === 'flat'
        ? payload
        : payload.data;
  return z.parse(endpoint.response, data) as DataOf<E>;
}

/** Calls and reads the data in one step, for the calls a test makes on its way to what it tests. */
export async function dataAs<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  body: BodyOf<E> | Malformed,
  who?: Who,
  ...options: OptionsArg<E>
): Promise<DataOf<E>> {
  return dataOf(endpoint, await callAs(app, endpoint, body, who, ...options));
}
