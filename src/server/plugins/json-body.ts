import type { FastifyInstance } from 'fastify';
import { AppError } from '#server/lib/errors.ts';

/** True when a string or key anywhere in a parsed JSON value holds a NUL character. */
function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value !== null && typeof value === 'object')
    return Object.entries(value).some(([key, item]) => key.includes('\u0000') || holdsNul(item));
  return false;
}

/**
 * JSON bodies: Fastify's own parser (which refuses `__proto__` and `constructor.prototype`), and
 * nothing with a NUL character (`\u0000`) in it. No form field needs one, and PostgreSQL text
 * cannot hold one: it would fail deep in a query as a 500 instead of a 400 here, and only on one
 * of the two databases.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // parseAs: 'string' hands the body over as a string.
    parse(request, body as string, (error, value) => {
      if (error) return done(error, undefined);
      if (holdsNul(value))
        return done(
          new AppError(
            'INVALID_CHARACTER',
            'The request contains a character that is not allowed.',
          ),
          undefined,
        );
      done(null, value);
    });
  });
}
