import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from './scripts/chromium.ts';

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;
// Each run starts from an empty database (SQLite by default, or E2E_DATABASE_URL).
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pairwell-e2e-'));
/**
 * A second instance of the same build with a tag manager switched on (GTM_ID), for
 * e2e/analytics.spec.ts only (its `baseURL`); every other journey runs without one. Its own data
 * directory; with E2E_DATABASE_URL both share the database, as two instances of the app do.
 */
const gtmPort = Number(process.env.E2E_GTM_PORT ?? port + 1);
const gtmBaseURL = `http://127.0.0.1:${gtmPort}`;
const gtmDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pairwell-e2e-gtm-'));
/**
 * A third instance of the same build taking cards through Stripe, for the journeys that pay by
 * card through Stripe.js (e2e/fixtures.ts: `stripeBaseURL`); every other journey runs with the
 * built-in gateway. Stripe is the fake of test/stripe (test/stripe/serve.ts) on its own port, with
 * its Stripe.js stand-in, delivering signed webhooks to this instance. Its own data directory, as
 * the GTM instance has.
 */
const stripePort = Number(process.env.E2E_STRIPE_PORT ?? port + 2);
const stripeBaseURL = `http://127.0.0.1:${stripePort}`;
// Told to the journeys (a worker loads this file again, with the runner's environment): one that
// moves a subscription's billing date into the past writes to this instance's database.
const stripeDataDir =
  process.env.E2E_STRIPE_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'pairwell-e2e-stripe-'));
process.env.E2E_STRIPE_DATA_DIR = stripeDataDir;
const fakeStripePort = Number(process.env.E2E_STRIPE_FAKE_PORT ?? port + 3);
const fakeStripeURL = `http://127.0.0.1:${fakeStripePort}`;
/**
 * A fourth instance of the same build whose built-in pharmacy takes seconds, not minutes, between
 * its steps (received, filled, shipped, delivered), for the journey that follows a prescription
 * to the patient's door and its receipt (e2e/renewal.spec.ts: `pharmacyBaseURL`). Its own data
 * directory, as the others have.
 */
const pharmacyPort = Number(process.env.E2E_PHARMACY_PORT ?? port + 4);
const pharmacyBaseURL = `http://127.0.0.1:${pharmacyPort}`;
// Told to the journeys, as the Stripe instance's is: the renewal journey moves a billing date.
const pharmacyDataDir =
  process.env.E2E_PHARMACY_DATA_DIR ??
  fs.mkdtempSync(path.join(os.tmpdir(), 'pairwell-e2e-pharmacy-'));
process.env.E2E_PHARMACY_DATA_DIR = pharmacyDataDir;
/** A test constant: the fake signs webhooks with it and the Stripe instance checks them with it. */
const fakeStripeWebhookSecret = 'whsec_e2e_fake_stripe';

const serverEnv = {
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  // Every journey signs up and logs in from 127.0.0.1; per-account limits stay as they are.
  ADDRESS_LIMIT_FACTOR: '20',
  ...(process.env.E2E_DATABASE_URL ? { DATABASE_URL: process.env.E2E_DATABASE_URL } : {}),
};

export default defineConfig({
  testDir: 'e2e',
  // CI runs the two viewports as two processes at once, each with its own servers and results.
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  // Staff log-ins wait for a fresh authenticator step (up to 30 s): see freshTotpCode.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    trace: 'retain-on-failure',
    launchOptions: chromiumLaunchOptions,
  },
  projects: [
    {
      name: 'mobile',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 375, height: 812 },
        isMobile: false,
        hasTouch: true,
      },
    },
    {
      name: 'desktop',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } },
    },
  ],
  webServer: [
    {
      // E2E_PREBUILT: dist/ is already built (CI builds once for both viewports' processes).
      command: process.env.E2E_PREBUILT
        ? 'node dist/server/main.js'
        : 'npm run build && node dist/server/main.js',
      url: `${baseURL}/healthz`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { ...serverEnv, PORT: String(port), DATA_DIR: dataDir },
    },
    {
      // Started after the first, whose build it runs: no second build.
      command: 'node dist/server/main.js',
      url: `${gtmBaseURL}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { ...serverEnv, PORT: String(gtmPort), DATA_DIR: gtmDataDir, GTM_ID: 'GTM-E2ETEST' },
    },
    {
      // The fake Stripe; GET /v3/ (the Stripe.js stand-in) answers without a key.
      command: 'npx tsx test/stripe/serve.ts',
      url: `${fakeStripeURL}/v3/`,
      reuseExistingServer: false,
      timeout: 60_000,
      // SIGTERM to the process group (npx, tsx and the fake), which closes; SIGKILL after 5 s.
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        FAKE_STRIPE_PORT: String(fakeStripePort),
        FAKE_STRIPE_WEBHOOK_SECRET: fakeStripeWebhookSecret,
        FAKE_STRIPE_WEBHOOK_URL: `${stripeBaseURL}/lapi/webhooks/stripe`,
      },
    },
    {
      // Also on the first's build.
      command: 'node dist/server/main.js',
      url: `${stripeBaseURL}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        ...serverEnv,
        PORT: String(stripePort),
        DATA_DIR: stripeDataDir,
        STRIPE_SECRET_KEY: 'sk_test_fake',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_fake',
        STRIPE_WEBHOOK_SECRET: fakeStripeWebhookSecret,
        STRIPE_API_BASE: fakeStripeURL,
        // Renewals come due within seconds of a journey moving a billing date into the past.
        BILLING_INTERVAL_SECONDS: '2',
      },
    },
    {
      // Also on the first's build.
      command: 'node dist/server/main.js',
      url: `${pharmacyBaseURL}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        ...serverEnv,
        PORT: String(pharmacyPort),
        DATA_DIR: pharmacyDataDir,
        PHARMACY_SIMULATOR_DELAY_SECONDS: '2',
        PHARMACY_INTERVAL_SECONDS: '1',
        // A refill plan moved due is billed within seconds.
        BILLING_INTERVAL_SECONDS: '2',
        PHARMACY_NAME: 'Willamette Valley Pharmacy',
      },
    },
  ],
});
