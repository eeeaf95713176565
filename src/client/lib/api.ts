// Types and parsing from zod/mini: they take a classic or a mini schema alike (both are zod core
// schemas), so the storefront's calls need no classic zod.
import * as z from 'zod/mini';
import { ErrorBodySchema, apiUrl, type ApiPath } from '#shared/api.ts';
import { messages } from '#shared/messages.ts';

/** The one error every API call throws: field messages go onto form fields, the rest to a toast. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string>;

  constructor(status: number, code: string, message: string, fields: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

interface CallOptions {
  params?: Record<string, string>;
  body?: unknown;
  signal?: AbortSignal;
  /** Message when the server gives none (spec §8: each call has its own). */
  fallbackMessage?: string;
}

async function call(method: 'GET' | 'POST', path: ApiPath, options: CallOptions): Promise<unknown> {
  const fallback = options.fallbackMessage ?? messages.somethingWentWrong;
  let response: Response;
  try {
    response = await fetch(apiUrl(path, options.params), {
      method,
      credentials: 'same-origin',
      headers: {
        Accept: 'application/json',
        ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
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
      const { code, message, fields } = parsed.data;
      // 5xx messages are generic on purpose; the call's own wording says more to the customer.
      const text = response.status >= 500 ? fallback : message;
      throw new ApiError(response.status, code, text, fields);
    }
    throw new ApiError(response.status, 'HTTP', fallback);
  }
  return payload;
}

/** A v1 call (`{ status, message, data }`), validated against its response schema. */
export async function apiGet<T extends z.core.$ZodType>(
  path: ApiPath,
  schema: T,
  options: CallOptions = {},
): Promise<z.output<T>> {
  return parse(schema, await call('GET', path, options), options.fallbackMessage);
}

export async function apiPost<T extends z.core.$ZodType>(
  path: ApiPath,
  schema: T,
  options: CallOptions = {},
): Promise<z.output<T>> {
  return parse(schema, await call('POST', path, options), options.fallbackMessage);
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
