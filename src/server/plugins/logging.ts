import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Env } from '#server/env.ts';
import { scrubText } from '#shared/error-reports.ts';

/**
 * Paths pino removes before a line is written: secrets (cookies, passwords, card data, tokens) and
 * health data (questionnaire answers, messages, uploads). Request bodies are never logged at all;
 * these catch anything a developer passes to a log call by mistake.
 */
export const redactPaths = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  ...[
    'password',
    'currentPassword',
    'newPassword',
    'password_confirm',
    'token',
    'resetToken',
    'sessionToken',
    'invite_token',
    'inviteToken',
    'ccnum',
    'cccvv',
    'ccexp',
    'cardNumber',
    'cvv',
    'answers',
    'answer',
    'message_body',
    'messageBody',
    'dob',
    'date_of_birth',
    'fileToUpload',
    'totp',
    'totpCode',
    'smsCode',
  ].flatMap((key) => [key, `*.${key}`, `*.*.${key}`]),
];

interface LoggedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

/**
 * An error as the log shows it: its kind, code, message and stack, scrubbed like an error report.
 * Nothing else: a database error's `detail` can hold a whole row ("Failing row contains (…)"), its
 * `parameters` the values of the query, and a wrapped cause anything at all.
 */
export function loggedError(error: unknown): LoggedError {
  if (!(error instanceof Error))
    return { type: typeof error, message: '[not an Error]', stack: '' };
  const code = (error as { code?: unknown }).code;
  const statusCode = (error as { statusCode?: unknown }).statusCode;
  return {
    type: error.name,
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    ...(typeof statusCode === 'number' ? { statusCode } : {}),
    message: scrubText(error.message),
    stack: scrubText(error.stack ?? ''),
  };
}

/** A URL as the log shows it: the path only, since query strings can carry tokens (`?id=`). */
export function pathOnly(url: string | undefined): string {
  if (!url) return '';
  const q = url.indexOf('?');
  return q === -1 ? url : `${url.slice(0, q)}?…`;
}

export function loggerOptions(
  env: Env,
  stream?: NodeJS.WritableStream,
): FastifyServerOptions['logger'] {
  return {
    level: stream ? 'info' : env.LOG_LEVEL,
    ...(stream ? { stream } : {}),
    redact: { paths: redactPaths, censor: '[redacted]' },
    serializers: {
      err: loggedError,
      // The client's address as Fastify reads it: the socket's, or behind a trusted proxy
      // (TRUST_PROXY) the address the proxy put in X-Forwarded-For (deploy/nginx/pairwell.conf
      // writes the one it saw, never what the client sent).
      req(request: { method: string; url?: string; id: string; ip?: string }) {
        return {
          id: request.id,
          method: request.method,
          url: pathOnly(request.url),
          remoteAddress: request.ip,
        };
      },
    },
  };
}

/**
 * One line per request, written when it is answered: its id, method, path, status and time.
 * Fastify's own request logging (turned off in buildApp) writes two, the first before anything is
 * known.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      { req: request, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime },
      'request completed',
    );
    done();
  });
}
