import type { FastifyInstance } from 'fastify';
import { AppError } from '#server/lib/errors.ts';

/** What a field shows when its text holds a character no field accepts. */
export const UNREADABLE_CHARACTER =
  "This contains a character we can't read. Please type it again.";

/**
 * A NUL, which PostgreSQL text cannot hold, or half of a UTF-16 surrogate pair without its other
 * half (`"\ud800"` in JSON), which is no character at all: SQLite would store it as invalid UTF-8
 * and PostgreSQL as U+FFFD, so the two databases would keep different text.
 */
const unstorable = (text: string) => text.includes('\u0000') || /\p{Surrogate}/u.test(text);

/** How many levels of a body a field's name goes down (`items.0.options.1.label` is five). */
const MAX_NAMED_DEPTH = 8;

/**
 * The dotted path (as validation names fields: `shipping.address`, `items.0.name`) of the first
 * string in a parsed JSON body that holds an unstorable character; a key holding one names the
 * object it is in, so the answer never repeats it. Undefined when there is none. A loop, not
 * recursion: a body nested a million deep must not exhaust the stack.
 */
function unstorableAt(body: unknown): string | undefined {
  const pending: { value: unknown; path: string; depth: number }[] = [
    { value: body, path: '', depth: 0 },
  ];
  const inside = (path: string, depth: number, key: string | number) => ({
    // Deeper than any form, the field is named by where it starts.
    path: depth >= MAX_NAMED_DEPTH ? path : path ? `${path}.${key}` : String(key),
    depth: depth + 1,
  });
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, path, depth } = next;
    if (typeof value === 'string') {
      if (unstorable(value)) return path;
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--)
        pending.push({ value: value[i], ...inside(path, depth, i) });
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      if (entries.some(([key]) => unstorable(key))) return path;
      for (const [key, item] of entries.reverse())
        pending.push({ value: item, ...inside(path, depth, key) });
    }
  }
  return undefined;
}

/**
 * JSON bodies: Fastify's own parser (which refuses `__proto__` and `constructor.prototype`), and
 * no string holding a NUL or a lone surrogate, for any call: no form field needs one, and each
 * would otherwise fail deep in a query as a 500, or be stored differently on the two databases.
 * The refusal names the field, as a validation failure does, so a form shows it under that field.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // parseAs: 'string' hands the body over as a string.
    parse(request, body as string, (error, value) => {
      if (error) return done(error, undefined);
      const field = unstorableAt(value);
      if (field !== undefined)
        return done(
          new AppError('INVALID_CHARACTER', UNREADABLE_CHARACTER, {
            [field || '_']: UNREADABLE_CHARACTER,
          }),
          undefined,
        );
      done(null, value);
    });
  });
}

/**
 * In one plugin scope (a webhook's), JSON is kept as the exact bytes received instead of parsed:
 * a sender's signature covers those bytes, so the body is parsed only after it is verified.
 * Anything over `bodyLimit` is refused by Fastify before it is read.
 */
export function keepRawJsonBody(app: FastifyInstance, bodyLimit: number): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit },
    (_request, body, done) => done(null, body),
  );
}
