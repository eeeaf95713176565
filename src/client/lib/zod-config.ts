import { config } from 'zod';

/**
 * Our CSP (`script-src 'self'`) forbids eval. Without this, zod probes `new Function` as the first
 * object schema is built, and the browser reports that as a CSP violation (Lighthouse's
 * best-practices "issues" audit) even though zod catches it and parses without JIT. With
 * `jitless`, zod skips the probe and parses exactly as it did. Imported first by main.tsx, before
 * any module defines a schema.
 */
config({ jitless: true });
