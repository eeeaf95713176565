// Types and parsing from zod/mini: they take a classic or a mini schema alike (both are zod core
// schemas), so the storefront's calls need no classic zod.
import * as z from 'zod/mini';
import { ErrorBodySchema, apiUrl, type ApiPath } from '#shared/api.ts';
import {
  isV2,
  methodOf,
  type BodyOf,
  type DataOf,
  type Endpoint,
  type ErrorsOf,
  type ParamsOf,
} from '#shared/contract.ts';
import type { ErrorCode } from '#shared/errors.ts';
import { messages } from '#shared/wording.ts';

/** The one error every API call throws: field messages go onto form fields, the rest to a toast. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string>;
  /** With CARD_AUTHENTICATION: the client secret the card processor's script confirms. */
  readonly action: { client_secret: string } | undefined;

  constructor(
    status: number,
    code: string,
    message: string,
    fields: Record<string, string> = {},
    action?: { client_secret: string },
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.action = action;
  }
}

/**
 * Calls an endpoint as `shared/<feature>.ts` declares it: the body and params are typed from the
 * declaration, the answer is checked against its response schema and comes back as its `data` (or
 * `{ message }` for a v1 call without data). Failures throw `ApiError`; branch on them with
 * `failedWith`, which accepts only codes the endpoint can answer with.
 */
export async function call<E extends Endpoint>(
  endpoint: E,
  ...[options]: CallArgs<E>
): Promise<DataOf<E>> {
  return (await answerOf(endpoint, (options ?? {}) as CallOptions)).data as DataOf<E>;
}

/**
 * Calls a v1 endpoint with data whose handler words its message at run time
 * (`answer(message, data)` on the server: a gift accepted whose first payment did not go through,
 * a subscription change with its new date), and resolves to the data and that message together,
 * so the customer reads what the server said rather than a guess made in the browser. An endpoint
 * without data needs no sibling: `call()` already resolves to its `{ message }`.
 */
export async function callWithMessage<E extends Endpoint & { readonly response: z.core.$ZodType }>(
  endpoint: E,
  ...[options]: CallArgs<E>
): Promise<{ data: DataOf<E>; message: string }> {
  const { data, message } = await answerOf(endpoint, (options ?? {}) as CallOptions);
  return { data: data as DataOf<E>, message };
}

/** One call: its data (as `call()` resolves) and the v1 envelope's message ('' when it has none). */
async function answerOf(
  endpoint: Endpoint,
  options: CallOptions,
): Promise<{ data: unknown; message: string }> {
  const { body, params, signal, fallbackMessage } = options;
  const payload = (await send(methodOf(endpoint), endpoint.path, {
    ...(body === undefined ? {} : { body: endpoint.upload ? formData(body) : body }),
    ...(params ? { params } : {}),
    ...(signal ? { signal } : {}),
    ...(fallbackMessage ? { fallbackMessage } : {}),
  })) as { status?: unknown; message?: unknown; data?: unknown } | undefined;
  const v1 = !isV2(endpoint);
  const messageIsText = endpoint.envelope === undefined;
  if (
    v1 &&
    (payload?.status !== 'SUCCESS' || (messageIsText && typeof payload.message !== 'string'))
  )
    throw new ApiError(200, 'BAD_RESPONSE', fallbackMessage ?? messages.somethingWentWrong);
  const message = v1 && messageIsText ? (payload?.message as string) : '';
  if (!endpoint.response) return { data: { message: v1 ? payload?.message : '' }, message };
  return { data: parse(endpoint.response, dataIn(endpoint, payload), fallbackMessage), message };
}

/**
 * What to tell the customer about a failed call: an `ApiError`'s message is the server's own words
 * (or the call's fallback for a 5xx, see `send`); anything else is a bug or a lost connection, and
 * gets the caller's wording, never an internal message.
 */
export function errorText(error: unknown, fallback: string = messages.somethingWentWrong): string {
  return error instanceof ApiError ? error.message : fallback;
}

/** Where the answer keeps its data (`Endpoint.envelope`). */
function dataIn(endpoint: Endpoint, payload: { message?: unknown; data?: unknown } | undefined) {
  if (endpoint.envelope === 'message') return payload?.message;
  if (endpoint.envelope === 'flat') return payload;
  return payload?.data;
}

export type CallArgs<E extends Endpoint> =
  undefined extends BodyOf<E>
    ? undefined extends ParamsOf<E>
      ? [options?: CallOptionsFor<E>]
      : [options: CallOptionsFor<E>]
    : [options: CallOptionsFor<E>];

type CallOptionsFor<E extends Endpoint> = {
  signal?: AbortSignal;
  /** Message when the server gives none (spec §8: each call has its own). */
  fallbackMessage?: string;
} & (undefined extends BodyOf<E> ? { body?: BodyOf<E> } : { body: BodyOf<E> }) &
  (undefined extends ParamsOf<E> ? { params?: never } : { params: ParamsOf<E> });

/** Whether `error` is the endpoint's failure with one of these codes (typed: no misspelt code). */
export function failedWith<E extends Endpoint>(
  error: unknown,
  _endpoint: E,
  ...codes: ErrorsOf<E>[]
): error is ApiError {
  return error instanceof ApiError && (codes as string[]).includes(error.code);
}

/**
 * Whether `error` is any call's failure with one of these codes: for what every call of a kind can
 * answer (a session that ended), where no one endpoint is asked. Typed by the shared table.
 */
export function failedWithCode(error: unknown, ...codes: ErrorCode[]): error is ApiError {
  return error instanceof ApiError && (codes as string[]).includes(error.code);
}

interface CallOptions {
  params?: Record<string, string>;
  body?: unknown;
  signal?: AbortSignal;
  /** Message when the server gives none (spec §8: each call has its own). */
  fallbackMessage?: string;
}

/** An upload's fields (`Endpoint.upload`) as the multipart form the server reads. */
function formData(fields: unknown): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields as Record<string, string | Blob>))
    form.append(name, value);
  return form;
}

async function send(method: 'GET' | 'POST', path: ApiPath, options: CallOptions): Promise<unknown> {
  const fallback = options.fallbackMessage ?? messages.somethingWentWrong;
  const json = options.body !== undefined && !(options.body instanceof FormData);
  let response: Response;
  try {
    response = await fetch(apiUrl(path, options.params), {
      method,
      credentials: 'same-origin',
      // Form data carries its own Content-Type (with the boundary the browser chooses).
      headers: {
        Accept: 'application/json',
        ...(json ? { 'Content-Type': 'application/json' } : {}),
      },
      ...(options.body === undefined
        ? {}
        : { body: json ? JSON.stringify(options.body) : (options.body as FormData) }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'NETWORK', fallback);
  }
  const payload: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const parsed = ErrorBodySchema.safeParse(payload);
    if (parsed.success) {
      const { code, message, fields, action } = parsed.data;
      // 5xx messages are generic on purpose; the call's own wording says more to the customer.
      const text = response.status >= 500 ? fallback : message;
      throw new ApiError(response.status, code, text, fields, action);
    }
    throw new ApiError(response.status, 'HTTP', fallback);
  }
  return payload;
}

function parse<T extends z.core.$ZodType>(
  schema: T,
  payload: unknown,
  fallback?: string,
): z.output<T> {
  const result = z.safeParse(schema, payload);
  if (!result.success)
    throw new ApiError(200, 'BAD_RESPONSE', fallback ?? messages.somethingWentWrong);
  return result.data;
}
