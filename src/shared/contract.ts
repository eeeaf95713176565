import type * as z from 'zod/mini';
import type { ApiPath } from './api.ts';
import type { ErrorCode, TransportErrorCode, anyCallErrors } from './errors.ts';

/**
 * One endpoint of the API, declared once in `shared/<feature>.ts`: the server registers it with
 * `route()` (server/lib/route.ts), the browser calls it with `call()` (client/lib/api.ts), and the
 * OpenAPI document describes it, all from this declaration.
 *
 * - `path` starting with `/v2/` answers `{ data }` (spec §7's v2 commerce calls); every other path
 *   answers the v1 envelope `{ status: 'SUCCESS', message, data? }` (DESIGN §5).
 * - `access` says who may call it; `route()` checks it before the handler runs.
 * - `response` is the schema of `data`; without it a v1 call answers its `message` alone.
 * - `errors` lists the codes the endpoint itself can answer with, besides those of any call and of
 *   its access.
 */
export interface Endpoint {
  readonly method?: 'GET' | 'POST';
  readonly path: ApiPath;
  readonly access: Access;
  readonly body?: Schema;
  readonly params?: Schema;
  readonly response?: Schema;
  /**
   * A file upload: the request is multipart form data, which the handler reads part by part; `body`
   * then describes the form's fields (for the API reference and the browser's call) and is not
   * validated as JSON.
   */
  readonly upload?: true;
  /**
   * The answer is a file, not JSON: its bytes, as one of these media types (the handler returns
   * them; `response` is not used).
   */
  readonly file?: readonly string[];
  /** The v1 success message, when the call has one of its own (shown to the customer). */
  readonly message?: string;
  readonly errors: readonly ErrorCode[];
  /**
   * How the answer wraps the data, when not as its path says: `v2` is `{ data }` on a v1 path
   * (`/order/create/`, the twin of v2 place-order); `message` is a v1 answer whose `message` is
   * the data (spec §7 "Orders details": "a message that becomes lander"); `flat` is the data's
   * fields beside `status` (spec §7 `/click/create/`: `{ status, click_id }`).
   */
  readonly envelope?: 'v2' | 'message' | 'flat';
  /**
   * A staff call that only shows records (a queue, a chart, a thread; opening a thread also marks
   * the patient's messages read, which is not a change anyone audits). Only such a call is audited
   * by `route()`, after it answered; a staff call that changes something writes its audit entry in
   * the transaction that makes the change (DESIGN §7, docs/architecture.md).
   */
  readonly view?: true;
  /**
   * Why no screen of ours calls this endpoint: a call of spec §7 kept for other clients (the v1
   * twins, the question-by-question calls) or one another call's answer already carries. Required
   * exactly when no client code names the endpoint (scripts/check-features.mjs), so an endpoint
   * whose screen went away is either deleted or says why it stays.
   */
  readonly apiOnly?: string;
  /**
   * A request body as a client sends it, shown in the API reference (test/quality/openapi.test.ts
   * checks that `body` accepts it).
   */
  readonly example?: unknown;
}

/**
 * - `public`: anyone; the handler gets the session if there is one.
 * - `customer`: a logged-in customer (401 otherwise).
 * - `patient`: a logged-in customer naming their own `leads_id` in the body (403 for another's).
 * - `staff`, `provider`, `operations`: the staff console, any role or the one named (401 / 403).
 */
export type Access = 'public' | 'customer' | 'patient' | 'staff' | 'provider' | 'operations';

type Schema = z.core.$ZodType;

/** Declares an endpoint; the literal types are kept so both sides are typed from it. */
export function endpoint<const E extends Endpoint>(declaration: E): E {
  return declaration;
}

export const methodOf = (endpoint: Endpoint): 'GET' | 'POST' => endpoint.method ?? 'POST';
export const isV2 = (endpoint: Endpoint): boolean =>
  endpoint.envelope === 'v2' || endpoint.path.startsWith('/v2/');

export type BodyOf<E extends Endpoint> = E extends { body: infer S extends Schema }
  ? z.input<S>
  : undefined;
export type ParamsOf<E extends Endpoint> = E extends { params: infer S extends Schema }
  ? z.input<S>
  : undefined;
/** What a call resolves to in the browser: its `data`, or its message when it has no data. */
export type DataOf<E extends Endpoint> = E extends { response: infer S extends Schema }
  ? z.output<S>
  : { message: string };

type AccessErrors<A extends Access> = A extends 'public'
  ? never
  : A extends 'customer'
    ? 'UNAUTHENTICATED'
    : A extends 'patient'
      ? 'UNAUTHENTICATED' | 'FORBIDDEN'
      : A extends 'staff'
        ? 'STAFF_UNAUTHENTICATED'
        : 'STAFF_UNAUTHENTICATED' | 'FORBIDDEN';

/** Every code a call to E can fail with, as the browser sees it. */
export type ErrorsOf<E extends Endpoint> =
  | E['errors'][number]
  | AccessErrors<E['access']>
  | (typeof anyCallErrors)[number]
  | TransportErrorCode;

/** The codes access adds to an endpoint's own, for the server's OpenAPI description. */
export function accessErrors(access: Access): ErrorCode[] {
  switch (access) {
    case 'public':
      return [];
    case 'customer':
      return ['UNAUTHENTICATED'];
    case 'patient':
      return ['UNAUTHENTICATED', 'FORBIDDEN'];
    case 'staff':
      return ['STAFF_UNAUTHENTICATED'];
    default:
      return ['STAFF_UNAUTHENTICATED', 'FORBIDDEN'];
  }
}
