import { config } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

/**
 * Our CSP (`script-src 'self'`) forbids eval. Without this, zod probes `new Function` as the first
 * object schema is built, and the browser reports that as a CSP violation (Lighthouse's
 * best-practices "issues" audit) even though zod catches it and parses without JIT. With
 * `jitless`, zod skips the probe and parses exactly as it did. Imported first by main.tsx, before
 * any module defines a schema.
 *
 * English messages: classic zod sets them when it builds its first schema, zod/mini never does.
 * The storefront's schemas are zod/mini (a first visit loads no classic zod), so without this a
 * message we did not write ("Too big: expected string to have <=40 characters") would read
 * "Invalid input" until some page happened to load classic zod.
 */
config({ jitless: true, ...en() });
