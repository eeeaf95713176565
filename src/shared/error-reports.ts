/**
 * What an error report may carry (DESIGN §3, §7): the one scrubber the browser's and the server's
 * Sentry clients (and the browser's data-layer error events) pass everything through before it
 * leaves. It removes what identifies a person or opens their account, and what says what they are
 * being treated for:
 *
 * - query strings and fragments of URLs (reset tokens, email addresses, searches);
 * - email addresses → `[email]`; card-like digit runs (12–19 digits, spaces or dashes allowed)
 *   → `[card]`; long random-looking strings (hex, base64url: tokens, ids) → `[token]`;
 * - `/visit/<program>` paths and everything below them → `/visit/[program]`, and program words
 *   (`ed`, `sleep`, `hair`) or category fields in tags, extras and breadcrumb data → `[program]`;
 * - request bodies, cookies, headers other than the user agent, and the user.
 *
 * Pure and free of imports, so the browser's first download carries it cheaply.
 */

/**
 * The telehealth programs' words (the same as `programCategories` in telehealth.ts, which a unit
 * test checks: that module brings zod, which the browser's first download must not).
 */
export const programWords = ['ed', 'sleep', 'hair'] as const;

/** The release both sides report: `pairwell@<build id>` (see README "Error reports"). */
export function releaseName(buildId: string): string {
  return `pairwell@${buildId}`;
}

const EMAIL = /[A-Za-z0-9._%+-]+(?:@|%40)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
// 12–19 digits, each optionally preceded by one space or dash; not inside a longer digit run.
// (Capture groups instead of look-behind, which older Safari cannot parse.)
const CARD = /(^|[^\d])(\d(?:[ -]?\d){11,18})(?!\d)/g;
const TOKEN_RUN = /(^|[^A-Za-z0-9_-])([A-Za-z0-9_-]{16,})(?![A-Za-z0-9_-])/g;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ABSOLUTE_URL = /\bhttps?:\/\/[^\s"'<>()[\]{}`]+/gi;
// A route pattern (`/visit/:category`) names the parameter, not a program, and stays.
const PROGRAM_PATH = /\/visit\/(?!:)[^\s?#"'<>()[\]{}`]+?(?=[.,;:!]*(?:[\s?#"'<>()[\]{}`]|$))/gi;
// A path's query string or fragment, up to the next space or bracket; punctuation just before it
// (`…?id=x: failed`) belongs to the sentence.
const PATH_QUERY =
  /(\/[^\s?#"'<>()[\]{}`]*)[?#][^\s"'<>()[\]{}`]*?(?=[.,;:!?]*(?:[\s"'<>()[\]{}`]|$))/g;

/**
 * A random-looking run of 16 or more base64url characters: a digit and a lower-case letter in it,
 * or, for a token that happens to draw no digit (one 32-byte token in about 1,500), 20 or more
 * characters whose letters change case as often as chance does. Random letters change case at
 * about half of their neighbours; words joined in camel case ("useSyncExternalStore",
 * "HTMLInputElementPrototype") at a third or less, and stay.
 */
function looksRandom(run: string): boolean {
  if (UUID.test(run)) return false;
  if (/\d/.test(run) && /[a-z]/.test(run)) return true;
  if (run.length < 20) return false;
  let pairs = 0;
  let changes = 0;
  for (let i = 1; i < run.length; i++) {
    const [a, b] = [run.charAt(i - 1), run.charAt(i)];
    if (!/[A-Za-z]/.test(a) || !/[A-Za-z]/.test(b)) continue;
    pairs += 1;
    if ((a === a.toUpperCase()) !== (b === b.toUpperCase())) changes += 1;
  }
  return pairs > 0 && changes >= pairs * 0.35;
}

const UUID_IN_TEXT = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

/**
 * Email addresses, card-like numbers and tokens in a piece of text that holds no URL. A UUID (a
 * request id) stays whole: its digit groups ("…-4136-9510-092d…") would otherwise read as a card.
 */
function scrubWords(text: string): string {
  let out = '';
  let last = 0;
  for (const found of text.matchAll(UUID_IN_TEXT)) {
    out += scrubWordsOutsideIds(text.slice(last, found.index)) + found[0];
    last = found.index + found[0].length;
  }
  return out + scrubWordsOutsideIds(text.slice(last));
}

function scrubWordsOutsideIds(text: string): string {
  return text
    .replace(EMAIL, '[email]')
    .replace(CARD, '$1[card]')
    .replace(TOKEN_RUN, (whole, before: string, run: string) =>
      looksRandom(run) ? `${before}[token]` : whole,
    );
}

/**
 * A URL (absolute, or a path) without its query string, fragment and user info, with program
 * paths, email addresses, card-like numbers and tokens in its path replaced. The hashed files
 * under /assets/ are the same for everyone and keep their names.
 */
export function scrubUrl(full: string): string {
  const url = bounded(full);
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/i.exec(url);
  const origin = match ? `${match[1]}${(match[2] ?? '').replace(/^[^@]*@/, '')}` : '';
  const rest = match ? (match[3] ?? '') : url;
  const path = rest.replace(/[?#][\s\S]*$/, '');
  if (path.startsWith('/assets/')) return `${origin}${path}`;
  return `${origin}${scrubWords(path.replace(PROGRAM_PATH, '/visit/[program]'))}`;
}

/**
 * Longer text is cut (at a space, so no secret is left half-recognisable) before the rules run: a
 * report needs no more, and the rules' time stays small whatever an error message holds.
 */
const MAX_TEXT = 4000;

function bounded(text: string): string {
  if (text.length <= MAX_TEXT) return text;
  let end = MAX_TEXT;
  while (end > 0 && !/\s/.test(text.charAt(end - 1))) end--;
  return `${text.slice(0, end)}…`;
}

/** Free text (a message, an exception's value): every rule above, URLs included. */
export function scrubText(full: string): string {
  const text = bounded(full);
  let out = '';
  let last = 0;
  for (const found of text.matchAll(ABSOLUTE_URL)) {
    out += scrubLoose(text.slice(last, found.index));
    out += scrubUrl(found[0]);
    last = found.index + found[0].length;
  }
  return out + scrubLoose(text.slice(last));
}

function scrubLoose(text: string): string {
  return scrubWords(text.replace(PATH_QUERY, '$1').replace(PROGRAM_PATH, '/visit/[program]'));
}

const URL_KEYS = /^(url|from|to|href|referr?er|location|path|pathname)$/i;
const PROGRAM_KEYS = /^(category|program|new_category|treatment)$/i;
const SECRET_KEYS =
  /pass(word)?|secret|token|authori[sz]ation|cookie|card|ccnum|cvv|cvc|e-?mail|phone/i;
const MAX_DEPTH = 6;

/**
 * Any value bound for a report (tags, extras, breadcrumb data, span data): strings are scrubbed as
 * URLs or text; fields named for secrets are dropped to `[redacted]`; program words and category
 * fields become `[program]`. Objects and arrays are walked (to a fixed depth; deeper is dropped).
 */
export function scrubValue(value: unknown, key = '', depth = 0): unknown {
  if (typeof value === 'string') {
    if (SECRET_KEYS.test(key)) return '[redacted]';
    if (PROGRAM_KEYS.test(key)) return '[program]';
    if ((programWords as readonly string[]).includes(value.trim().toLowerCase()))
      return '[program]';
    if (URL_KEYS.test(key) || /^(https?:\/\/|\/)\S*$/i.test(value)) return scrubUrl(value);
    return scrubText(value);
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[dropped]';
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, key, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) {
    out[name] = SECRET_KEYS.test(name) ? '[redacted]' : scrubValue(inner, name, depth + 1);
  }
  return out;
}

function scrubRecord<T>(value: T): T {
  return scrubValue(value) as T;
}

/** The parts of a breadcrumb the scrubber reads (of Sentry's `Breadcrumb`). */
interface BreadcrumbLike {
  category?: string | undefined;
  message?: string | undefined;
  data?: Record<string, unknown> | undefined;
}

/**
 * A breadcrumb fit to send, or null for one that must not be: clicks and inputs could carry what
 * was typed or which answer was chosen. Navigation (`from`, `to`), fetch and XHR (`url`) and
 * console breadcrumbs keep their shape, scrubbed.
 */
export function scrubBreadcrumb<T extends object>(breadcrumb: T): T | null {
  const crumb = breadcrumb as BreadcrumbLike;
  if (crumb.category === 'ui.click' || crumb.category === 'ui.input') return null;
  const scrubbed = { ...crumb };
  if (typeof crumb.message === 'string') scrubbed.message = scrubText(crumb.message);
  if (crumb.data) scrubbed.data = scrubRecord(crumb.data);
  return scrubbed as T;
}

interface FrameLike {
  filename?: string | undefined;
  abs_path?: string | undefined;
  vars?: unknown;
}

interface ExceptionLike {
  value?: string | undefined;
  stacktrace?: { frames?: FrameLike[] | undefined } | undefined;
}

interface SpanLike {
  description?: string | undefined;
  data?: Record<string, unknown> | undefined;
}

/** The parts of an event the scrubber reads (of Sentry's `Event`). */
interface EventLike {
  message?: string | undefined;
  logentry?: { message?: string | undefined; params?: unknown[] | undefined } | undefined;
  exception?: { values?: ExceptionLike[] | undefined } | undefined;
  request?:
    | {
        url?: string | undefined;
        method?: string | undefined;
        headers?: Record<string, string> | undefined;
      }
    | undefined;
  breadcrumbs?: BreadcrumbLike[] | undefined;
  tags?: Record<string, unknown> | undefined;
  extra?: Record<string, unknown> | undefined;
  transaction?: string | undefined;
  spans?: SpanLike[] | undefined;
  user?: unknown;
}

function scrubFrame(frame: FrameLike): FrameLike {
  const scrubbed = { ...frame };
  if (scrubbed.filename) scrubbed.filename = scrubUrl(scrubbed.filename);
  if (scrubbed.abs_path) scrubbed.abs_path = scrubUrl(scrubbed.abs_path);
  delete scrubbed.vars;
  return scrubbed;
}

/**
 * An error or transaction event fit to send: message, exception values, stack frame file names,
 * the request (its URL and user agent only), breadcrumbs, tags, extras, transaction name and span
 * descriptions scrubbed; the user dropped. Returns a new event; the one given is not changed.
 */
export function scrubEvent<T extends object>(original: T): T {
  const event = original as EventLike;
  const scrubbed: EventLike = { ...event };
  if (typeof event.message === 'string') scrubbed.message = scrubText(event.message);
  if (event.logentry) {
    scrubbed.logentry = {
      ...event.logentry,
      ...(event.logentry.message ? { message: scrubText(event.logentry.message) } : {}),
      ...(event.logentry.params ? { params: scrubRecord(event.logentry.params) } : {}),
    };
  }
  if (event.exception?.values) {
    scrubbed.exception = {
      ...event.exception,
      values: event.exception.values.map((exception) => ({
        ...exception,
        ...(typeof exception.value === 'string' ? { value: scrubText(exception.value) } : {}),
        ...(exception.stacktrace?.frames
          ? {
              stacktrace: {
                ...exception.stacktrace,
                frames: exception.stacktrace.frames.map(scrubFrame),
              },
            }
          : {}),
      })),
    };
  }
  if (event.request) {
    const userAgent =
      event.request.headers?.['User-Agent'] ?? event.request.headers?.['user-agent'];
    scrubbed.request = {
      ...(event.request.url ? { url: scrubUrl(event.request.url) } : {}),
      ...(event.request.method ? { method: event.request.method } : {}),
      ...(userAgent ? { headers: { 'User-Agent': userAgent } } : {}),
    };
  }
  if (event.breadcrumbs) {
    scrubbed.breadcrumbs = event.breadcrumbs
      .map((crumb) => scrubBreadcrumb(crumb))
      .filter((crumb) => crumb !== null);
  }
  if (event.tags) scrubbed.tags = scrubRecord(event.tags);
  if (event.extra) scrubbed.extra = scrubRecord(event.extra);
  if (typeof event.transaction === 'string') {
    scrubbed.transaction = /^(https?:\/\/|\/)\S*$/i.test(event.transaction)
      ? scrubUrl(event.transaction)
      : scrubText(event.transaction);
  }
  if (event.spans) {
    scrubbed.spans = event.spans.map((span) => ({
      ...span,
      ...(typeof span.description === 'string' ? { description: scrubText(span.description) } : {}),
      ...(span.data ? { data: scrubRecord(span.data) } : {}),
    }));
  }
  delete scrubbed.user;
  return scrubbed as T;
}
