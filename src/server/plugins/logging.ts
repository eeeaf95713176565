import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import pino from 'pino';
import type { Env } from '#server/env.ts';
import { scrubText } from '#shared/error-reports.ts';

/**
 * Keys whose values never reach a log line: secrets (cookies, passwords, card data, tokens) and
 * health data (questionnaire answers, messages, uploads). Request bodies are never logged at all;
 * this catches anything a developer passes to a log call by mistake, at the top of the logged
 * object and two levels below it (`{ user: { form: { password } } }`), in objects and arrays, and
 * at the top of a child logger's bindings.
 */
export const secretKeys: ReadonlySet<string> = new Set([
  'cookie',
  'set-cookie',
  'authorization',
  'x-csrf-token',
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
]);

const CENSOR = '[redacted]';
/** Logged under these keys, a value is written by its serializer below, which picks safe fields. */
const serializedKeys: ReadonlySet<string> = new Set(['req', 'res', 'err']);
const DEPTH = 2;

/**
 * The object a log call was given with every secret key's value replaced, copied where it
 * changed (the caller's object is never touched). This is pino's `formatters.log`, in place of its
 * `redact` option: with the same keys as wildcard paths (`*.password`, `*.*.password`) pino matched
 * them against every line and every request's logger binding, a quarter of the CPU time of a
 * cached catalogue request (issue 14, decision 017); this walk costs a few key lookups per line.
 */
export function censorSecrets(object: Record<string, unknown>): Record<string, unknown> {
  return censorLevel(object, 0);
}

function censorLevel<T extends object>(object: T, depth: number): T {
  let copy: Record<string, unknown> | undefined;
  const entries = object as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    const value = entries[key];
    let next = value;
    if (secretKeys.has(key)) next = CENSOR;
    else if (
      depth < DEPTH &&
      typeof value === 'object' &&
      value !== null &&
      !(depth === 0 && serializedKeys.has(key)) &&
      !(value instanceof Error) &&
      !(value instanceof Date) &&
      !ArrayBuffer.isView(value)
    )
      next = censorLevel(value, depth + 1);
    if (next !== value) {
      copy ??= (Array.isArray(object) ? [...object] : { ...object }) as Record<string, unknown>;
      copy[key] = next;
    }
  }
  return (copy ?? object) as T;
}

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

/**
 * Standard output, written in batches (pino's asynchronous logging): lines gather up to 4 KiB, or
 * for a second at most, and go out in one write. Written line by line, the request log's one
 * write per request cost more than the request's own work on a machine where system calls are
 * dear (issue 14: the catalogue took 47 µs of CPU a request at `info` against 27 at `warn`). Pino
 * writes what is gathered when the process exits, an uncaught exception included; a process killed
 * outright loses at most that last second. Should standard output not keep up, lines beyond
 * 8 MiB waiting are dropped rather than held in memory.
 */
function standardOutput(): pino.DestinationStream {
  return pino.destination({
    dest: 1,
    sync: false,
    minLength: 4096,
    periodicFlush: 1000,
    maxLength: 8 * 1024 * 1024,
  });
}

export function loggerOptions(
  env: Env,
  stream?: NodeJS.WritableStream,
): FastifyServerOptions['logger'] {
  return {
    level: stream ? 'info' : env.LOG_LEVEL,
    stream: stream ?? standardOutput(),
    // Top-level keys, in log calls and in a child logger's bindings, by pino's own redaction with
    // exact paths (no wildcards, so no cost on a line without them); nested ones by censorSecrets.
    redact: { paths: [...secretKeys].map((key) => `["${key}"]`), censor: CENSOR },
    formatters: { log: censorSecrets },
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
