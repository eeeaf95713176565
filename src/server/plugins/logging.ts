import type { FastifyServerOptions } from 'fastify';
import type { Env } from '#server/env.ts';

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
      req(request: { method: string; url?: string; id: string; ip?: string }) {
        return { id: request.id, method: request.method, url: pathOnly(request.url) };
      },
    },
  };
}
