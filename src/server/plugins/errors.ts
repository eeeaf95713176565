import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { API_PREFIX, type ErrorBody } from '#shared/api.ts';
import { messages } from '#shared/wording.ts';
import type { ErrorReporter } from '#server/adapters/error-reporter.ts';
import { isDatabaseUnavailable } from '#server/db/unavailable.ts';
import { AppError } from '#server/lib/errors.ts';
import type { ErrorCode } from '#shared/errors.ts';

/** How long a caller waits before trying again while the database is unavailable. */
const RETRY_AFTER_SECONDS = 5;

/** One of ours (shared/errors.ts), or Fastify's own for a request it refused before any route. */
type WireCode = ErrorCode | `FST_${string}`;

function body(
  request: FastifyRequest,
  code: WireCode,
  message: string,
  fields?: Record<string, string>,
  action?: { client_secret: string },
): ErrorBody {
  return {
    status: 'FAILURE',
    code,
    message,
    ...(fields ? { fields } : {}),
    ...(action ? { action } : {}),
    requestId: request.id,
  };
}

/** The first message for each field of a failed validation, keyed by the dotted field path. */
function fieldMessages(
  issues: {
    keyword: string;
    instancePath: string;
    message?: string | undefined;
    params: unknown;
  }[],
): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    let key = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    let message = issue.message ?? messages.invalidRequest;
    if (issue.keyword === 'unrecognized_keys') {
      const { keys } = issue.params as { keys?: string[] };
      key = [key, keys?.[0]].filter(Boolean).join('.');
      message = 'Unknown field';
    } else if (issue.keyword === 'invalid_type' && /received undefined/.test(message)) {
      message = messages.fieldRequired;
    }
    fields[key || '_'] ??= message;
  }
  return fields;
}

/**
 * One error handler for the whole app, and the not-found rule: the JSON 404, except a form posted
 * to a page's path while the web app is served (`servesPages`; its pages have routes of their own,
 * web-app.ts).
 */
export function registerErrorHandling(
  app: FastifyInstance,
  reporter: ErrorReporter,
  servesPages = false,
): void {
  const unexpected = (request: FastifyRequest, error: unknown) => {
    request.log.error({ err: error }, 'unexpected error');
    reporter.report(error, { requestId: request.id, route: request.routeOptions.url });
  };

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.status >= 500) unexpected(request, error);
      return reply
        .status(error.status)
        .send(body(request, error.code, error.message, error.fields, error.action));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields = fieldMessages(error.validation);
      const first = Object.values(fields)[0];
      return reply
        .status(400)
        .send(body(request, 'VALIDATION', first ?? messages.invalidRequest, fields));
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 500 && isDatabaseUnavailable(error)) {
      // Down or restarting, not broken: the call may work in a moment, so 503 says when to try
      // again. Logged, not reported: one outage would otherwise send one report per call.
      request.log.error({ err: error }, 'database unavailable');
      return reply
        .status(503)
        .header('Retry-After', String(RETRY_AFTER_SECONDS))
        .send(body(request, 'UNAVAILABLE', messages.serviceUnavailable));
    }
    if (status >= 500) {
      unexpected(request, error);
      return reply.status(500).send(body(request, 'INTERNAL', messages.internalError));
    }
    // Fastify's own 4xx (bad JSON, body too large, unsupported media type): say what, never how.
    return reply.status(status).send(body(request, frameworkCode(error), publicMessage(error)));
  });

  app.setNotFoundHandler((request, reply) => {
    const url = request.raw.url ?? '';
    const isApi =
      url === API_PREFIX || url.startsWith(`${API_PREFIX}/`) || url.startsWith(`${API_PREFIX}?`);
    // A page's form sent before the page became interactive (decision 011): what was typed is
    // dropped, unread, and the browser goes back to the page to send it from there. The path alone,
    // with one leading slash, so the answer never points at another site (and home for a path
    // that is not plain ASCII).
    if (request.method === 'POST' && !isApi && servesPages) {
      const pathname = `/${url.split('?')[0]?.replace(/^[/\\]+/, '') ?? ''}`;
      return reply.redirect(/^[\x21-\x7e]*$/.test(pathname) ? pathname : '/', 303);
    }
    return reply.status(404).send(body(request, 'NOT_FOUND', messages.notFound));
  });
}

/**
 * Fastify's refusals before any route is found (a malformed percent-encoding in the path, a path
 * parameter over the length limit): the one error body too, not Fastify's own. Passed to Fastify
 * as `frameworkErrors`, since the error handler never sees them.
 */
export function sendFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const status = typeof error.statusCode === 'number' ? error.statusCode : 400;
  if (status >= 500) {
    request.log.error({ err: error }, 'unexpected error');
    void reply.status(500).send(body(request, 'INTERNAL', messages.internalError));
    return;
  }
  void reply.status(status).send(body(request, frameworkCode(error), publicMessage(error)));
}

/** Fastify's `FST_ERR_…` code as it is (clients may know them), anything else a bad request. */
function frameworkCode(error: FastifyError): WireCode {
  return error.code?.startsWith('FST_') ? (error.code as WireCode) : 'BAD_REQUEST';
}

function publicMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return 'This address is not valid.';
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return 'This address is too long.';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is not valid JSON.';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request is too large.';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'This content type is not accepted.';
    default:
      return error.message && error.message.length < 200 ? error.message : messages.invalidRequest;
  }
}
