import crypto from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { z } from 'zod';
import type { Database } from '#server/db/schema.ts';
import { totpCode, totpStep } from '#server/lib/totp.ts';
import { accountsApi, type Signup } from '#shared/accounts.ts';
import { authApi } from '#shared/auth.ts';
import type { PlaceOrderSchema } from '#shared/checkout.ts';
import { staffApi } from '#shared/staff.ts';
import type { TestApp } from './app.ts';
import { callAs } from './contract.ts';

/** A valid sign-up with a unique email; override any field. */
export function buildSignup(overrides: Partial<Signup> = {}): Signup {
  return {
    email: `customer-${crypto.randomBytes(5).toString('hex')}@example.test`,
    first_name: 'Riley',
    last_name: 'Morgan',
    password: 'correct horse battery',
    dob: '04/12/1990',
    phoneNo: '(503) 555-0142',
    consent: true,
    ...overrides,
  };
}

/** The `name=value` of the session cookie a response set, for the next request's Cookie header. */
export function sessionCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find(
    (c) => c.name === 'pw_session' || c.name === '__Host-pw_session',
  );
  if (!cookie)
    throw new Error(`no session cookie in the response (${response.statusCode}: ${response.body})`);
  return `${cookie.name}=${cookie.value}`;
}

export interface TestCustomer {
  cookie: string;
  leadsId: string;
  customerId: number;
  email: string;
  password: string;
}

/** Signs a new customer up through the API and returns their session. */
export async function insertCustomer(
  app: FastifyInstance,
  { verified = true, ...overrides }: Partial<Signup> & { verified?: boolean } = {},
): Promise<TestCustomer> {
  const signup = buildSignup(overrides);
  // Each customer from an address of their own, as in life; sign-ups per address are rate-limited.
  const response = await callAs(app, accountsApi.accountCreate, signup, undefined, {
    remoteAddress: randomLoopback(),
  });
  if (response.statusCode !== 200)
    throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  const body = response.json<{ data: { leads_id: string; user: { customer_id: number } } }>();
  // Most tests need a customer whose address is proved (issue 26), as one who opened the link
  // mailed at sign-up; `verified: false` is the customer who has not yet.
  if (verified)
    await app.db
      .updateTable('customers')
      .set((eb) => ({ email_verified_at: eb.ref('created_at') }))
      .where('id', '=', body.data.user.customer_id)
      .execute();
  return {
    cookie: sessionCookie(response),
    leadsId: body.data.leads_id,
    customerId: body.data.user.customer_id,
    email: signup.email,
    password: signup.password,
  };
}

/**
 * POST a body as JSON as a logged-in customer or staff member (or a visitor when `cookie` is
 * undefined). The body is whatever the test sends, malformed ones included.
 */
export function post(
  app: FastifyInstance,
  url: string,
  payload: InjectOptions['payload'],
  cookie?: string,
): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url, payload, headers: cookie ? { cookie } : {} });
}

/** A loopback address of its own (127.x.y.z), for a caller the per-address limits see apart. */
export function randomLoopback(): string {
  const [a, b, c] = crypto.randomBytes(3);
  return `127.${a}.${b}.${((c ?? 0) % 254) + 1}`;
}

/** The body of v2 `ecom/place-order` as a browser sends it (before the server's parsing). */
export type PlaceOrderBody = z.input<typeof PlaceOrderSchema>;

/**
 * A shipping address and a test card for checkout; override any part. An override may be invalid on
 * purpose (`{ consent: false }`): the result's type says what was sent. (`NoInfer`: a call that
 * expects a place-order body, as `callAs` does, must not infer the overrides from it.)
 */
export function buildPlaceOrder<
  Override extends { [K in keyof PlaceOrderBody]?: unknown } = Record<never, never>,
>(overrides?: Override): NoInfer<Omit<PlaceOrderBody, keyof Override> & Override> {
  const valid: PlaceOrderBody = {
    idempotency_key: crypto.randomUUID(),
    shipping: {
      address: '500 Market Street',
      address2: '',
      city: 'Portland',
      state: 'OR',
      zip: '97204',
      phoneNo: '5035550199',
    },
    billing: null,
    payment: { method: 'card', ccnum: '4242 4242 4242 4242', ccexp: '12/30', cccvv: '123' },
    consent: true,
  };
  return { ...valid, ...overrides } as Omit<PlaceOrderBody, keyof Override> & Override;
}

/** A staff member's log-in: email, password and the secret of their authenticator app. */
export interface StaffCredentials {
  email: string;
  password: string;
  totpSecret: string;
}

/**
 * Logs a staff member in on `app` (the test app's own by default) and returns the `pw_staff=…`
 * cookie for the next requests. Each authenticator code works once, and only a later step after
 * it: by default the clock moves on a step (31 s) first, so every log-in has a fresh code; a test
 * of the codes themselves keeps the clock and picks the step with `stepOffset`.
 */
export async function staffCookie(
  t: Pick<TestApp, 'app' | 'clock'>,
  who: StaffCredentials,
  options: { app?: FastifyInstance; stepOffset?: number; advanceClock?: boolean } = {},
): Promise<string> {
  const { app = t.app, stepOffset = 0, advanceClock = true } = options;
  if (advanceClock) t.clock.advance(31_000);
  const response = await callAs(app, staffApi.login, {
    email: who.email,
    password: who.password,
    code: totpCode(who.totpSecret, totpStep(t.clock.now()) + stepOffset),
  });
  expect(response.statusCode, response.body).toBe(200);
  const cookie = response.cookies.find((c) => c.name === 'pw_staff');
  // Out of reach of the page's scripts and of other sites' requests.
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  return `pw_staff=${cookie?.value}`;
}

/** What `insertSubscriber` writes: when the subscription bills next, and how. */
export interface SubscriberOptions {
  nextBillingDate: string;
  frequency?: 'MONTHLY' | 'QUARTERLY';
  productId?: number;
  /** A simulator token: 'sim_ok_…' pays, 'sim_fail_…' never does. */
  token?: string;
  /** The rows' created and updated times (ISO). */
  now: string;
}

export interface TestSubscriber {
  customerId: number;
  subscriptionId: number;
  leadsId: string;
}

let subscriberSeq = 0;

/**
 * A customer with an address, a card on file (`token`, a simulator token: 'sim_ok_…' pays,
 * 'sim_fail_…' never does) and one subscription, written straight to the database: billing tests
 * need hundreds of them quickly.
 */
export async function insertSubscriber(
  db: Kysely<Database>,
  options: SubscriberOptions,
): Promise<TestSubscriber> {
  subscriberSeq++;
  const leadsId = `Ltest${crypto.randomBytes(8).toString('hex')}`;
  const customer = await db
    .insertInto('customers')
    .values({
      leads_id: leadsId,
      email: `subscriber-${subscriberSeq}-${crypto.randomBytes(4).toString('hex')}@example.test`,
      first_name: 'Sub',
      last_name: `Scriber ${subscriberSeq}`,
      password_hash: 'not-a-real-hash',
      dob: '1985-05-05',
      phone: '5035550100',
      phone_verified_at: null,
      clicks_id: null,
      created_at: options.now,
      updated_at: options.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const subscriptionId = await addSubscription(db, customer.id, options);
  return { customerId: customer.id, subscriptionId, leadsId };
}

/**
 * Gives a customer who has none yet (one signed up through the API, say) an address, a card on
 * file and one subscription, as `insertSubscriber` does; returns the subscription's id.
 */
export async function addSubscription(
  db: Kysely<Database>,
  customerId: number,
  options: SubscriberOptions,
): Promise<number> {
  const customer = { id: customerId };
  await db
    .insertInto('customer_addresses')
    .values({
      customer_id: customer.id,
      kind: 'shipping',
      address: '1 Test Way',
      address2: '',
      city: 'Portland',
      state: 'OR',
      zip: '97201',
      country: 'US',
      updated_at: options.now,
    })
    .execute();
  await db
    .insertInto('payment_methods')
    .values({
      customer_id: customer.id,
      gateway_token: options.token ?? `sim_ok_${crypto.randomBytes(6).toString('hex')}`,
      brand: 'Visa',
      last4: '4242',
      exp_month: 12,
      exp_year: 2035,
      updated_at: options.now,
    })
    .execute();
  const frequency = options.frequency ?? 'MONTHLY';
  const subscription = await db
    .insertInto('subscriptions')
    .values({
      customer_id: customer.id,
      product_id: options.productId ?? (frequency === 'MONTHLY' ? 41 : 42),
      frequency,
      quantity: 1,
      unit_price_cents: frequency === 'MONTHLY' ? 1750 : 4500,
      status: 'ACTIVE',
      next_billing_date: options.nextBillingDate,
      billing_anchor_day: Number(options.nextBillingDate.slice(8, 10)),
      paused_until: null,
      cancelled_at: null,
      cancel_reason: null,
      created_order_id: null,
      created_at: options.now,
      updated_at: options.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return subscription.id;
}

/** A file in a multipart body. */
export interface UploadedFile {
  field: string;
  filename: string;
  contentType: string;
  bytes: Buffer;
}

/** A multipart/form-data body: text fields and at most one file, as a browser's form would send. */
export function multipartBody(
  fields: Record<string, string>,
  file?: UploadedFile,
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----pairwell${crypto.randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Calls as the patient, logging them in again when the clock outran their session (30 idle minutes). */
export async function asPatient<T>(
  t: Pick<TestApp, 'app'>,
  c: TestCustomer,
  ask: () => Promise<T & { statusCode: number }>,
) {
  let answer = await ask();
  if (answer.statusCode === 401) {
    c.cookie = sessionCookie(
      await callAs(t.app, authApi.login, { email: c.email, password: c.password }),
    );
    answer = await ask();
  }
  return answer;
}
