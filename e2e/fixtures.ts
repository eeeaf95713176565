import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import {
  test as base,
  expect,
  type APIRequestContext,
  type Locator,
  type Page,
  type TestInfo,
} from '@playwright/test';
import { totpCode, totpStep } from '../src/server/lib/totp.ts';

/**
 * What the journeys share: the seeded people, new customers made through the API, logging in
 * (customers and staff with their authenticator code), axe and the screenshots at 375px and
 * 1280px, the member area's navigation, the development outbox and the card fields. Specs import
 * `test` and `expect` from here and ask for what they need by name.
 */

export { expect };

// --- The Stripe instance -------------------------------------------------------------------------

const e2ePort = Number(process.env.E2E_PORT ?? 3100);
const stripePort = Number(process.env.E2E_STRIPE_PORT ?? e2ePort + 2);
const fakeStripePort = Number(process.env.E2E_STRIPE_FAKE_PORT ?? e2ePort + 3);

/**
 * The third server of playwright.config.ts, taking cards through Stripe (the fake of test/stripe):
 * a spec of its journeys runs there with `test.use({ baseURL: stripeBaseURL })`.
 */
export const stripeBaseURL = `http://127.0.0.1:${stripePort}`;

/**
 * The fourth server of playwright.config.ts, whose built-in pharmacy takes seconds between its
 * steps: a journey that follows a prescription to the door runs there.
 */
export const pharmacyBaseURL = `http://127.0.0.1:${Number(process.env.E2E_PHARMACY_PORT ?? e2ePort + 4)}`;

/** The fake Stripe that instance talks to, for a spec that calls the fake's API directly. */
export const fakeStripeURL = `http://127.0.0.1:${fakeStripePort}`;

// --- People -------------------------------------------------------------------------------------

export interface Credentials {
  email: string;
  password: string;
}

/** A staff member of the demo data, with the secret of their authenticator app. */
export interface StaffMember extends Credentials {
  secret: string;
  /** The heading of the console page a log-in lands on. */
  home: 'Orders' | 'Review queue';
}

/** The seeded demo customer: other journeys expect their orders and subscriptions as seeded. */
export const demo: Credentials = { email: 'demo@pairwell.test', password: 'pairwell-demo' };

export const ops: StaffMember = {
  email: 'ops@pairwell.test',
  password: 'pairwell-ops',
  secret: 'KVKFKRCPNZQUYMLX',
  home: 'Orders',
};

export const provider: StaffMember = {
  email: 'provider@pairwell.test',
  password: 'pairwell-provider',
  secret: 'JBSWY3DPEHPK3PXP',
  home: 'Review queue',
};

/** The password of the customers the journeys make, unless one says otherwise. */
export const patientPassword = 'a long enough passphrase';

/** What a new customer signs up with; each journey may name its own. */
export interface NewCustomer {
  firstName: string;
  lastName: string;
  password: string;
  dob: string;
  phone: string;
}

/** A customer made through the API. */
export interface Customer extends Credentials {
  leadsId: string;
}

/** An email no other journey (or earlier run on the same database) has used. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${crypto.randomBytes(5).toString('hex')}@example.test`;
}

// --- Customers through the API -------------------------------------------------------------------

/**
 * A new customer signed up through the API in `via` (a page's `page.request` shares its cookies,
 * the test's `request` does not), and still logged in there.
 */
export async function createCustomer(
  via: APIRequestContext,
  prefix: string,
  details: Partial<NewCustomer> = {},
  { email = uniqueEmail(prefix), verified = true }: { email?: string; verified?: boolean } = {},
): Promise<Customer> {
  const who: NewCustomer = {
    firstName: 'Jordan',
    lastName: 'Reyes',
    password: patientPassword,
    dob: '04/02/1985',
    phone: '5035550177',
    ...details,
  };
  const created = await via.post('/lapi/account/create/', {
    data: {
      email,
      first_name: who.firstName,
      last_name: who.lastName,
      password: who.password,
      dob: who.dob,
      phoneNo: who.phone,
      consent: true,
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  const { leads_id } = ((await created.json()) as { data: { leads_id: string } }).data;
  // Most journeys need a customer who confirmed their address (issue 26), as one who opened the
  // link mailed at sign-up; `verified: false` is one who has not yet.
  if (verified) {
    const link = await outboxOf(via).link(email, 'Confirm your email address', '/verify-email');
    const token = new URL(link, 'http://localhost').searchParams.get('id');
    const confirmed = await via.post('/lapi/account/email/verify/', { data: { token } });
    expect(confirmed.status(), await confirmed.text()).toBe(200);
  }
  return { email, password: who.password, leadsId: leads_id };
}

/** Ends the session of `via`. */
export async function logOutThroughApi(via: APIRequestContext): Promise<void> {
  const out = await via.post('/lapi/account/logout/', { data: {} });
  expect(out.status(), await out.text()).toBe(200);
}

/** A new customer made through the API in `via`, then logged out there again. */
export async function signUpThroughApi(
  via: APIRequestContext,
  prefix: string,
  details: Partial<NewCustomer> = {},
): Promise<Customer> {
  const customer = await createCustomer(via, prefix, details);
  await logOutThroughApi(via);
  return customer;
}

export interface ShippingAddress {
  address: string;
  address2: string;
  city: string;
  state: string;
  zip: string;
  phoneNo: string;
}

export interface PlacedOrder {
  order_number: string;
  orders_id: number;
  subscriptions: number;
}

/**
 * A paid store order of one product, placed by the customer logged in to `via` with the test card:
 * the cart gets `quantity` of `productId` (whose frequency decides whether it starts a
 * subscription) and ships to `shipping` (Portland, OR unless given).
 */
export async function placeOrderThroughApi(
  via: APIRequestContext,
  item: { productId: number; quantity: number },
  shipping: ShippingAddress = {
    address: '500 Market Street',
    address2: '',
    city: 'Portland',
    state: 'OR',
    zip: '97204',
    phoneNo: '5035550199',
  },
): Promise<PlacedOrder> {
  const added = await via.post('/lapi/v2/ecom/add-product', {
    data: { product_id: item.productId, quantity: item.quantity },
  });
  expect(added.status(), await added.text()).toBe(200);
  const placed = await via.post('/lapi/v2/ecom/place-order', {
    data: {
      idempotency_key: crypto.randomUUID(),
      shipping,
      billing: null,
      payment: { method: 'card', ccnum: '4242 4242 4242 4242', ccexp: '12/30', cccvv: '123' },
      consent: true,
    },
  });
  expect(placed.status(), await placed.text()).toBe(200);
  return ((await placed.json()) as { data: PlacedOrder }).data;
}

// --- Logging in ----------------------------------------------------------------------------------

/** Fills the log-in form of /login (the page must be showing it) and sends it. */
export async function submitLogIn(page: Page, who: Credentials): Promise<void> {
  const form = page
    .locator('main form')
    .filter({ has: page.getByLabel('Password', { exact: true }) });
  await form.getByLabel('Email').fill(who.email);
  await form.getByLabel('Password', { exact: true }).fill(who.password);
  await form.getByRole('button', { name: 'Log in' }).click();
}

/** Fills the staff log-in form (the page must be showing it) with `code` and sends it. */
export async function submitStaffLogIn(page: Page, who: Credentials, code: string): Promise<void> {
  await page.getByLabel('Work email').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByLabel('Authentication code').fill(code);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/**
 * Where the journeys keep the last authenticator step each staff secret logged in with: a file, as
 * a failed test restarts its worker, and both viewports log the same people in to the one server.
 * A record left by an earlier run is only ever in the past, where it asks for nothing.
 */
const usedStepsFile = path.join(
  os.tmpdir(),
  `pairwell-e2e-totp-${process.env.E2E_PORT ?? '3100'}.json`,
);

function usedSteps(): Record<string, number> {
  try {
    return JSON.parse(fs.readFileSync(usedStepsFile, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

/**
 * An authenticator code the server takes now. It takes each 30-second step once, only a step
 * after the last one used, and one step either side of its own clock: so the code is the current
 * step's, or the next one's when the current one is used, and only when both are used does the
 * journey wait for the clock (at most 30 s), never on a fixed delay.
 */
export async function nextTotpCode(secret: string): Promise<string> {
  const key = crypto.createHash('sha256').update(secret).digest('hex').slice(0, 16);
  const after = usedSteps()[key] ?? 0;
  await expect
    .poll(() => totpStep(new Date()) + 1, { timeout: 35_000, intervals: [100] })
    .toBeGreaterThan(after);
  const step = Math.max(totpStep(new Date()), after + 1);
  fs.writeFileSync(usedStepsFile, JSON.stringify({ ...usedSteps(), [key]: step }));
  return totpCode(secret, step);
}

/** A six-digit code that is none of the ones the server would accept now. */
export function wrongTotpCode(secret: string): string {
  const step = totpStep(new Date());
  const valid = new Set([-1, 0, 1, 2].map((offset) => totpCode(secret, step + offset)));
  let code = '000000';
  while (valid.has(code)) code = String(Number(code) + 1).padStart(6, '0');
  return code;
}

// --- What the page says --------------------------------------------------------------------------

/** Collects console errors and failed same-origin requests so a journey can assert there were none. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return problems;
}

/** Every 4xx status: journeys that are refused on purpose along the way. */
export const clientErrorStatuses: readonly number[] = Array.from({ length: 10 }, (_, i) => 400 + i);

/**
 * The console problems left once the failed requests with these statuses, which the journey
 * causes on purpose (a refused log-in, a declined card), are set aside.
 */
export function unexpectedProblems(
  problems: readonly string[],
  refusals: readonly number[],
): string[] {
  const refused = new RegExp(`status of (${refusals.join('|')}) `);
  return problems.filter((problem) => !refused.test(problem));
}

// --- axe and screenshots -------------------------------------------------------------------------

/**
 * axe and the screenshots in e2e/screenshots/, named by the screen and the viewport project
 * (`home-mobile.png`, `home-desktop.png`), of the test's page or of another one (`of`).
 */
export class Screens {
  constructor(
    private readonly page: Page,
    private readonly testInfo: TestInfo,
  ) {}

  /** The same checks on another page of this test (a second browser, say). */
  of(page: Page): Screens {
    return new Screens(page, this.testInfo);
  }

  /** Fails on any serious or critical axe violation, naming the rule and the elements. */
  async expectAccessible(): Promise<void> {
    // Toasts come and go; caught mid-fade their text reads as low contrast, so axe leaves them out.
    const results = await new AxeBuilder({ page: this.page })
      .exclude('.toast-viewport')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
      .analyze();
    const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    const summary = bad.map(
      (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
    expect(summary, 'axe violations').toEqual([]);
  }

  /** axe once every toast has gone (caught mid-fade, a toast's text reads as low contrast). */
  async checkAccessible(): Promise<void> {
    await expect(this.page.getByRole('button', { name: 'Dismiss notification' })).toHaveCount(0, {
      timeout: 15_000,
    });
    await this.expectAccessible();
  }

  /** The full page, scrolled as it is. */
  async picture(name: string): Promise<void> {
    await this.page.screenshot({ path: this.file(name), fullPage: true });
  }

  /** The full page from the top, so the sticky header is drawn where it belongs. */
  async shot(name: string): Promise<void> {
    await this.page.evaluate(() => window.scrollTo(0, 0));
    await this.picture(name);
  }

  /** Only what the window shows: a dialog or a drawer over the page, as it is seen. */
  async windowShot(name: string): Promise<void> {
    await this.page.screenshot({ path: this.file(name) });
  }

  /** axe and a screenshot from the top: what every screen of a journey gets. */
  async check(name: string): Promise<void> {
    await this.checkAccessible();
    await this.shot(name);
  }

  private file(name: string): string {
    const dir = path.resolve('e2e/screenshots');
    fs.mkdirSync(dir, { recursive: true });
    return path.join(dir, `${name}-${this.testInfo.project.name}.png`);
  }
}

// --- Forms ---------------------------------------------------------------------------------------

/**
 * The card fields wherever a card is entered (`scope`: the page or the form's region), typed as a
 * person types them, with the charge authorised: the expiry gets its slash as it is typed.
 */
export async function fillCard(scope: Page | Locator, number: string): Promise<void> {
  await scope.getByLabel('Card number').fill(number);
  await scope.getByLabel('Expiration').pressSequentially('1230');
  await expect(scope.getByLabel('Expiration')).toHaveValue('12/30');
  await scope.getByLabel('Security code').fill('123');
  await scope.getByRole('checkbox', { name: /I authorize Pairwell/ }).check();
}

// --- The development outbox ----------------------------------------------------------------------

interface OutboxMessage {
  to: string;
  subject: string;
  text: string;
}

/** The email the app sent, as the development outbox shows it. */
export interface Outbox {
  /**
   * The path and query of the link to `linkPath` in the latest email to `to` with `subject`. The
   * outbox job sends a moment after the request, so it is polled for (bounded), as a person
   * refreshing the page would.
   */
  link(to: string, subject: string, linkPath: string): Promise<string>;
  /** The text of the latest email to `to` with `subject` ('' when there is none). */
  text(to: string, subject: string): Promise<string>;
}

function outboxOf(request: APIRequestContext): Outbox {
  const latest = async (to: string, subject: string) => {
    const outbox = (await (await request.get('/dev/outbox.json')).json()) as {
      messages: OutboxMessage[];
    };
    // The outbox lists the newest first.
    return outbox.messages.find((m) => m.to === to && m.subject === subject);
  };
  return {
    async link(to, subject, linkPath) {
      const pattern = new RegExp(`https?://\\S+${linkPath}\\?id=[\\w-]+`);
      const find = async () => pattern.exec((await latest(to, subject))?.text ?? '')?.[0];
      await expect.poll(find, { timeout: 15_000 }).toBeDefined();
      const link = new URL((await find()) ?? '');
      return link.pathname + link.search;
    },
    async text(to, subject) {
      return (await latest(to, subject))?.text ?? '';
    },
  };
}

// --- The fixtures --------------------------------------------------------------------------------

export interface JourneyFixtures {
  /** Console errors and failed requests of `page`, collected from the test's start. */
  consoleProblems: string[];
  /** axe and screenshots of `page` (`screens.of(other)` for another page). */
  screens: Screens;
  /**
   * The member area's navigation, opened first where the sidebar is collapsed (the 375px
   * project): decided by the project, not by whether the menu button happens to be drawn yet.
   */
  accountNav: () => Promise<Locator>;
  /** Logs a customer in at /login and waits for the member area's home. */
  logIn: (who: Credentials) => Promise<void>;
  /**
   * Logs a staff member in at /staff/login (on `page`, or another page of the test) with a fresh
   * authenticator code, and waits for the console's first page.
   */
  staffLogIn: (who: StaffMember, on?: Page) => Promise<void>;
  /** A new customer signed up through the test's own API context (apart from the page), logged out. */
  newCustomer: (prefix: string, details?: Partial<NewCustomer>) => Promise<Customer>;
  /** The email the app sent, read through the test's API context. */
  outbox: Outbox;
}

export const test = base.extend<JourneyFixtures>({
  consoleProblems: async ({ page }, use) => {
    await use(watchConsole(page));
  },
  screens: async ({ page }, use, testInfo) => {
    await use(new Screens(page, testInfo));
  },
  accountNav: async ({ page }, use, testInfo) => {
    await use(async () => {
      if (testInfo.project.name === 'mobile')
        await page.getByRole('button', { name: /Account menu/ }).click();
      return page.getByRole('navigation', { name: 'Account' });
    });
  },
  logIn: async ({ page }, use) => {
    await use(async (who) => {
      await page.goto('/login');
      await submitLogIn(page, who);
      await expect(page).toHaveURL(/\/dashboard$/);
    });
  },
  staffLogIn: async ({ page }, use) => {
    await use(async (who, on = page) => {
      await on.goto('/staff/login');
      await submitStaffLogIn(on, who, await nextTotpCode(who.secret));
      await expect(on).toHaveURL(/\/staff$/);
      await expect(on.getByRole('heading', { level: 1, name: who.home })).toBeVisible();
    });
  },
  newCustomer: async ({ request }, use) => {
    await use((prefix, details) => signUpThroughApi(request, prefix, details));
  },
  outbox: async ({ request }, use) => {
    await use(outboxOf(request));
  },
});
