import { z } from 'zod';
import { GTM_ID_PATTERN } from '#shared/tag-manager.ts';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const EnvFields = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce
    .number({ error: 'must be a port number' })
    .int('must be a port number')
    .min(0, 'must be a port number')
    .max(65535, 'must be a port number')
    .default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// (leave it unset for SQLite)')
    .optional(),
  PUBLIC_URL: z
    .url({ error: 'must be an absolute URL such as https://pairwell.example' })
    .optional(),
  SEED_DEMO: booleanFlag.default(true),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Pairwell <no-reply@pairwell.example>'),
  SENTRY_DSN: z.url({ error: 'must be a Sentry DSN URL' }).optional(),
  /**
   * A Google Tag Manager web container (DESIGN §8, decision 020). Unset: no tag manager, no
   * consent banner, the strict Content-Security-Policy everywhere. Set: public pages ask for
   * consent and load it only once given; member, visit and staff pages never do.
   */
  GTM_ID: z
    .string()
    .regex(GTM_ID_PATTERN, 'must be a Google Tag Manager container id such as GTM-ABC1234')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  FEATURE_LOGIN: booleanFlag.default(true),
  FEATURE_ONLINE_VISIT: booleanFlag.default(true),
  VERSION_CHECK: booleanFlag.default(false),
  TRUST_PROXY: booleanFlag.default(false),
  /** `GET /metrics` for a scraper that sends it as a bearer token (issue 15); unset: no token. */
  METRICS_TOKEN: z.string().min(24, 'must be at least 24 characters').optional(),
  /** `GET /metrics` for these client addresses (comma-separated), as the request's IP reads. */
  METRICS_ALLOW: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((address) => address.trim())
        .filter(Boolean),
    )
    .default([]),
  STATES_ALLOWED: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((code) => code.trim().toUpperCase())
        .filter(Boolean),
    )
    .refine(
      (codes) => codes.length > 0 && codes.every((code) => /^[A-Z]{2}$/.test(code)),
      'must be a comma-separated list of state codes such as CA,NY,TX',
    )
    .default(['CA', 'FL', 'NY', 'OR', 'TX', 'WA']),
  BILLING_INTERVAL_SECONDS: z.coerce
    .number({ error: 'must be a whole number of seconds (0 turns billing off)' })
    .int('must be a whole number of seconds (0 turns billing off)')
    .min(0, 'must be a whole number of seconds (0 turns billing off)')
    .default(60),
  /** How often the outbox job looks for email and text messages to send or retry; 0 turns it off. */
  OUTBOX_INTERVAL_SECONDS: z.coerce
    .number({ error: 'must be a whole number of seconds (0 turns sending off)' })
    .int('must be a whole number of seconds (0 turns sending off)')
    .min(0, 'must be a whole number of seconds (0 turns sending off)')
    .default(5),
  /**
   * How often each instance looks for patients waiting for a state that online visits now cover
   * (and tells each once); it also runs at start, so a new STATES_ALLOWED is noticed. 0 turns it off.
   */
  WAITLIST_INTERVAL_SECONDS: z.coerce
    .number({ error: 'must be a whole number of seconds (0 turns waitlist emails off)' })
    .int('must be a whole number of seconds (0 turns waitlist emails off)')
    .min(0, 'must be a whole number of seconds (0 turns waitlist emails off)')
    .default(300),
  /** How often the payment reconciler looks for gateway calls a crash interrupted; 0 turns it off. */
  RECONCILE_INTERVAL_SECONDS: z.coerce
    .number({ error: 'must be a whole number of seconds (0 turns reconciliation off)' })
    .int('must be a whole number of seconds (0 turns reconciliation off)')
    .min(0, 'must be a whole number of seconds (0 turns reconciliation off)')
    .default(30),
  /**
   * How long a gateway call or checkout attempt may stay unfinished before the reconciler treats it
   * as interrupted. Longer than any gateway call takes; tests shorten it.
   */
  RECONCILE_GRACE_SECONDS: z.coerce
    .number({ error: 'must be a whole number of seconds from 1' })
    .int('must be a whole number of seconds from 1')
    .min(1, 'must be a whole number of seconds from 1')
    .default(60),
  /**
   * Test only (ignored unless NODE_ENV=test): the named point in a payment flow where the process
   * kills itself with SIGKILL, so the fault-injection tests can crash it exactly there.
   */
  FAULT_KILL_AT: z.string().min(1).optional(),
  /**
   * Stripe (issue 28): the secret key, the publishable key the card forms load Stripe.js with, and
   * the webhook endpoint's signing secret. All three or none; none keeps the built-in simulator.
   */
  STRIPE_SECRET_KEY: z
    .string()
    .regex(
      /^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/,
      'must be a Stripe secret key (sk_live_… or sk_test_…)',
    )
    .optional(),
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(
      /^pk_(test|live)_[A-Za-z0-9_]+$/,
      'must be a Stripe publishable key (pk_live_… or pk_test_…)',
    )
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9_]+$/, "must be the webhook endpoint's signing secret (whsec_…)")
    .optional(),
  /** Another host for Stripe's API (a local fake): tests only, refused in production below. */
  STRIPE_API_BASE: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .optional(),
  /**
   * Added to the account's statement descriptor on every card payment. Stripe's rules: at most 22
   * characters of latin letters, digits and spaces, none of < > \ ' " *. Neutral by default: a
   * statement line must never name a program or a medicine.
   */
  STRIPE_STATEMENT_DESCRIPTOR_SUFFIX: z
    .string()
    .max(22, 'must be at most 22 characters')
    .regex(
      /^[A-Za-z0-9 ]*[A-Za-z][A-Za-z0-9 ]*$/,
      'must be latin letters, digits and spaces, with at least one letter',
    )
    .default('PAIRWELL'),
  /**
   * Issue 29: a partner pharmacy (decision 022): where our messages go, the key they are sent with,
   * and the secret its callbacks are signed with. All three or none; none keeps the built-in
   * pharmacy simulator.
   */
  PHARMACY_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .optional(),
  PHARMACY_API_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  PHARMACY_WEBHOOK_SECRET: z.string().min(24, 'must be at least 24 characters').optional(),
  /**
   * The pharmacy that fills the prescriptions, by the name a patient's receipt gives it (an HSA or
   * FSA claim asks where the medicine came from): the partner's name when `PHARMACY_URL` is set.
   */
  PHARMACY_NAME: z
    .string()
    .trim()
    .min(2, 'must name the pharmacy')
    .max(120, 'must be 120 characters or fewer')
    .default('Pairwell Pharmacy'),
  /** How often the pharmacy job sends what is due and follows the pharmacy; 0 turns it off. */
  PHARMACY_INTERVAL_SECONDS: z.coerce
    .number({ error: 'must be a whole number of seconds (0 turns the pharmacy job off)' })
    .int('must be a whole number of seconds (0 turns the pharmacy job off)')
    .min(0, 'must be a whole number of seconds (0 turns the pharmacy job off)')
    .default(10),
  /** The built-in pharmacy: seconds between its steps (received, filled, shipped, delivered). */
  PHARMACY_SIMULATOR_DELAY_SECONDS: z.coerce
    .number({ error: 'must be a whole number of seconds from 1' })
    .int('must be a whole number of seconds from 1')
    .min(1, 'must be a whole number of seconds from 1')
    .default(120),
  /**
   * Multiplies every per-address limit (sign-up, log-in, reset, clicks, coupons). Per-account
   * limits never change. Only for load tests and browser journeys, whose traffic all comes from one
   * address; leave it at 1 in production.
   */
  ADDRESS_LIMIT_FACTOR: z.coerce
    .number({ error: 'must be a whole number from 1 to 1000' })
    .int('must be a whole number from 1 to 1000')
    .min(1, 'must be a whole number from 1 to 1000')
    .max(1000, 'must be a whole number from 1 to 1000')
    .default(1),
});

// Links in email (reset, undo, unlock) are built from PUBLIC_URL alone, never from a request's
// Host header, so in production it must be set: a guessed origin would send people elsewhere.
const EnvSchema = EnvFields.superRefine((env, check) => {
  if (env.NODE_ENV === 'production' && env.PUBLIC_URL === undefined)
    check.addIssue({
      code: 'custom',
      path: ['PUBLIC_URL'],
      message:
        'is required when NODE_ENV=production (the address email links point to, such as https://pairwell.example)',
    });
  // Half a Stripe configuration would take cards nobody can confirm, or payments whose outcome
  // never arrives: all three keys or none.
  const stripe = ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET'] as const;
  const missing = stripe.filter((name) => env[name] === undefined);
  if (missing.length > 0 && missing.length < stripe.length)
    check.addIssue({
      code: 'custom',
      path: [missing[0] ?? 'STRIPE_SECRET_KEY'],
      message: `is required with ${stripe.filter((name) => !missing.includes(name)).join(' and ')} (set all three Stripe keys, or none for the simulator)`,
    });
  const pharmacy = ['PHARMACY_URL', 'PHARMACY_API_KEY', 'PHARMACY_WEBHOOK_SECRET'] as const;
  const absent = pharmacy.filter((name) => env[name] === undefined);
  if (absent.length > 0 && absent.length < pharmacy.length)
    check.addIssue({
      code: 'custom',
      path: [absent[0] ?? 'PHARMACY_URL'],
      message: `is required with ${pharmacy.filter((name) => !absent.includes(name)).join(' and ')} (set all three pharmacy settings, or none for the simulator)`,
    });
  if (env.NODE_ENV === 'production' && env.STRIPE_API_BASE !== undefined)
    check.addIssue({
      code: 'custom',
      path: ['STRIPE_API_BASE'],
      message: 'is for tests and local fakes only and is refused when NODE_ENV=production',
    });
});

export type Env = z.infer<typeof EnvSchema>;

const secretFree = {
  NODE_ENV: true,
  PORT: true,
  HOST: true,
  LOG_LEVEL: true,
  SEED_DEMO: true,
  FEATURE_LOGIN: true,
  FEATURE_ONLINE_VISIT: true,
  GTM_ID: true,
  VERSION_CHECK: true,
  TRUST_PROXY: true,
  METRICS_ALLOW: true,
  BILLING_INTERVAL_SECONDS: true,
  OUTBOX_INTERVAL_SECONDS: true,
  RECONCILE_INTERVAL_SECONDS: true,
  WAITLIST_INTERVAL_SECONDS: true,
  RECONCILE_GRACE_SECONDS: true,
  FAULT_KILL_AT: true,
  STATES_ALLOWED: true,
  ADDRESS_LIMIT_FACTOR: true,
  STRIPE_PUBLISHABLE_KEY: true,
  STRIPE_STATEMENT_DESCRIPTOR_SUFFIX: true,
  PHARMACY_NAME: true,
  PHARMACY_INTERVAL_SECONDS: true,
  PHARMACY_SIMULATOR_DELAY_SECONDS: true,
} as const;

export class EnvError extends Error {}

/**
 * The only reader of process.env. A bad value stops start-up with one line naming the variable.
 * Empty strings count as unset, so `FOO= npm start` behaves like leaving FOO out.
 */
export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = EnvSchema.safeParse(cleaned);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const name = String(issue?.path[0] ?? 'environment');
  // URLs may carry credentials, so only plain settings echo the value they were given.
  const shown = name in secretFree ? ` (got ${JSON.stringify(source[name])})` : '';
  throw new EnvError(
    `Invalid environment variable ${name}: ${issue?.message ?? 'invalid value'}${shown}`,
  );
}
