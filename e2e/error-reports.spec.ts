import crypto from 'node:crypto';
import fs from 'node:fs';
import { startPairwell, type RunningServer } from '../bench/server.ts';
import { releaseName } from '../src/shared/error-reports.ts';
import { startSentryCapture, type SentryCapture } from '../test/sentry-capture.ts';
import { demo, expect, submitLogIn, test } from './fixtures.ts';

/**
 * What the browser's error reports carry (finding 13, DESIGN §7), in a real browser against the built
 * server with SENTRY_DSN pointing at a local endpoint that keeps every envelope the page's Sentry
 * client sends. A visitor opens a reset link (its token in the address), logs in (an email address
 * typed), opens an online visit's page (/visit/ed says what they are treated for) and types a card
 * number; errors happen along the way. Every report arrives — the errors, with the release — and
 * none carries the token, the email address, the card number or the program.
 *
 * The journeys' shared server has no DSN, so this one starts its own (on a free port, with its own
 * data folder; on PostgreSQL when E2E_DATABASE_URL is set, in a schema of its own).
 */

const card = '4242 4242 4242 4242';

let capture: SentryCapture;
let server: RunningServer;

// Playwright reads the fixtures from the first parameter's pattern: none are needed here.
// eslint-disable-next-line no-empty-pattern
test.beforeAll(async ({}, testInfo) => {
  // One viewport: what leaves does not depend on the window's width.
  test.skip(testInfo.project.name !== 'desktop', 'one viewport is enough');
  capture = await startSentryCapture();
  server = await startPairwell({
    databaseUrl: process.env.E2E_DATABASE_URL,
    env: { SENTRY_DSN: capture.dsn },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await capture?.close();
});

interface CapturedEvent {
  release?: string;
  level?: string;
  request?: { url?: string };
  tags?: Record<string, string>;
  exception?: { values?: { type?: string; value?: string }[] };
  breadcrumbs?: { category?: string; data?: Record<string, unknown>; message?: string }[];
}

const events = () => capture.events() as CapturedEvent[];
const valueOf = (event: CapturedEvent) => event.exception?.values?.at(-1)?.value ?? '';

/** Waits until an error event whose value matches `pattern` has arrived, and returns it. */
async function reported(pattern: RegExp): Promise<CapturedEvent> {
  await expect
    .poll(() => events().some((event) => pattern.test(valueOf(event))), { timeout: 15_000 })
    .toBe(true);
  return events().find((event) => pattern.test(valueOf(event))) as CapturedEvent;
}

test('error reports from the browser carry the errors and the release, and no token, email address, card number or program', async ({
  page,
}) => {
  const token = crypto.randomBytes(32).toString('base64url');
  const buildId = (
    JSON.parse(fs.readFileSync('dist/client/version.json', 'utf8')) as { version: string }
  ).version;

  // 1. A reset link, its token in the address (one never sent, so the page says it cannot be
  //    used); something on the page fails.
  await page.goto(`${server.url}/reset-password?id=${token}`);
  await expect(page.getByRole('heading', { name: 'Reset Password' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('This link has already been used');
  await page.evaluate(() => {
    setTimeout(() => {
      throw new Error(`The password form failed at ${window.location.href}`);
    }, 0);
  });
  const onResetPage = await reported(/^The password form failed/);
  expect(valueOf(onResetPage)).toBe(`The password form failed at ${server.url}/reset-password`);
  expect(onResetPage.request?.url).toBe(`${server.url}/reset-password`);
  expect(onResetPage.release).toBe(releaseName(buildId));
  expect(onResetPage.tags).toMatchObject({ context: 'uncaught' });

  // 2. On to log in (the link keeps the page, so the visit leaves a navigation breadcrumb from
  //    the reset link); the email address is typed into the form.
  await page.getByRole('link', { name: 'Back to log in' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await submitLogIn(page, demo);
  await expect(page).toHaveURL(/\/dashboard$/);
  // The address changes before the page's code arrives: leave only once Home is drawn.
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Jordan');

  // 3. The ED visit, from the home page; a promise there fails, naming the page it was on.
  await page.getByRole('link', { name: 'Pairwell home' }).first().click();
  await page.getByRole('link', { name: /^Start your visit\W+Erectile dysfunction$/ }).click();
  await expect(page).toHaveURL(/\/visit\/ed(\/|$)/);
  await page.evaluate(() => {
    void Promise.reject(new Error(`The visit step failed at ${window.location.pathname}`));
  });
  const onVisitPage = await reported(/^The visit step failed/);
  expect(valueOf(onVisitPage)).toBe('The visit step failed at /visit/[program]');
  expect(onVisitPage.request?.url).toBe(`${server.url}/visit/[program]`);
  expect(onVisitPage.tags).toMatchObject({ context: 'unhandled' });
  const navigations = (onVisitPage.breadcrumbs ?? []).filter(
    (crumb) => crumb.category === 'navigation',
  );
  // The links followed are there, scrubbed.
  expect(navigations.map((crumb) => crumb.data)).toEqual(
    expect.arrayContaining([
      { from: '/reset-password', to: '/login' },
      expect.objectContaining({ to: '/visit/[program]' }),
    ]),
  );

  // 4. On through the member area to the payment method form, where a card number is typed; the
  //    page logs what it saves, calls the server with the address in the query, and fails with
  //    both in the message.
  await page.getByRole('link', { name: 'My account' }).click();
  await page.getByRole('link', { name: 'Account settings' }).click();
  await page.getByRole('link', { name: 'Update payment method' }).click();
  await expect(page).toHaveURL(/\/accounts\/editPaymentMethod$/);
  await page.getByLabel('Card number').fill(card);
  const typed = await page.getByLabel('Card number').inputValue();
  expect(typed.replaceAll(/\D/g, '')).toBe(card.replaceAll(' ', ''));
  await page.evaluate(
    async ({ email, number, secret }) => {
      console.warn('saving card', number, 'for', email);
      await fetch(`/lapi/no-such-check?email=${encodeURIComponent(email)}&token=${secret}`);
      setTimeout(() => {
        throw new Error(`Saving card ${number} for ${email} failed (token ${secret})`);
      }, 0);
    },
    { email: demo.email, number: typed, secret: token },
  );
  const onPaymentPage = await reported(/^Saving card/);
  expect(valueOf(onPaymentPage)).toBe('Saving card [card] for [email] failed (token [token])');
  const crumbs = onPaymentPage.breadcrumbs ?? [];
  expect(crumbs).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ category: 'console', message: 'saving card [card] for [email]' }),
      expect.objectContaining({
        category: 'fetch',
        data: expect.objectContaining({ url: '/lapi/no-such-check' }) as unknown,
      }),
    ]),
  );
  expect(
    crumbs.some((crumb) => crumb.category === 'ui.input' || crumb.category === 'ui.click'),
  ).toBe(false);

  // Everything that left the browser: the errors and the release, and none of the secrets.
  const sent = capture.envelopes().join('\n');
  expect(sent).toContain(`"release":"${releaseName(buildId)}"`);
  for (const secret of [
    token,
    demo.email,
    encodeURIComponent(demo.email),
    demo.password,
    card,
    card.replaceAll(' ', ''),
    typed,
  ])
    expect(sent, 'a secret in an error report').not.toContain(secret);
  expect(sent).not.toMatch(/\/visit\/(ed|sleep|hair)\b/);

  // The data layer's error events say what failed, and nothing more.
  const dataLayer = await page.evaluate(() =>
    JSON.stringify((window as unknown as { dataLayer?: unknown[] }).dataLayer ?? []),
  );
  expect(dataLayer).toContain('"event":"exception"');
  for (const secret of [token, demo.email, card, card.replaceAll(' ', '')])
    expect(dataLayer).not.toContain(secret);
  expect(dataLayer).not.toMatch(/\/visit\/(ed|sleep|hair)\b/);
});
