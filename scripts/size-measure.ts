// Measures, in a real Chromium, the JavaScript each first visit downloads: every script response
// of a fresh browser context (no cache), gzipped here at level 9 so the figure does not depend on
// which encoding the server picked. See docs/decisions/007-measured-quality.md.
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.ts';
import type { RouteGroup, RouteSize } from './size-budget.ts';

const DEMO = { email: 'demo@pairwell.test', password: 'pairwell-demo' };
const PRODUCT_SLUG = 'sleep-gummies';

/** Phone and desktop widths: a few chunks load by width, so each route counts the larger. */
const viewports = [
  { width: 375, height: 812 },
  { width: 1280, height: 800 },
];

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

interface Visit {
  route: string;
  group: RouteGroup;
  visit: string;
  /** Cookies and local storage the visit starts with (a logged-in member's). */
  setUp?: (browser: Browser, baseUrl: string) => Promise<StorageState>;
  run: (page: Page, baseUrl: string) => Promise<void>;
}

const visits: Visit[] = [
  {
    route: '/',
    group: 'storefront',
    visit: 'open /',
    run: async (page, baseUrl) => {
      await page.goto(`${baseUrl}/`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
    },
  },
  {
    route: '/shop/:slug',
    group: 'storefront',
    visit: `open /shop/${PRODUCT_SLUG}`,
    run: async (page, baseUrl) => {
      await page.goto(`${baseUrl}/shop/${PRODUCT_SLUG}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
    },
  },
  {
    route: '/dashboard',
    group: 'member',
    visit: 'open /dashboard, logged in',
    // The session comes from a log-in in another context (its downloads are not counted).
    setUp: async (browser, baseUrl) => {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.goto(`${baseUrl}/login`);
        const form = page
          .locator('main form')
          .filter({ has: page.getByLabel('Password', { exact: true }) });
        await form.getByLabel('Email').fill(DEMO.email);
        await form.getByLabel('Password', { exact: true }).fill(DEMO.password);
        await form.getByRole('button', { name: 'Log in' }).click();
        await page.waitForURL(/\/dashboard$/);
        return await context.storageState();
      } finally {
        await context.close();
      }
    },
    run: async (page, baseUrl) => {
      await page.goto(`${baseUrl}/dashboard`);
      await page.waitForURL(/\/dashboard$/);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
    },
  },
];

async function measureVisit(
  context: BrowserContext,
  baseUrl: string,
  visit: Visit,
): Promise<Measured> {
  const page = await context.newPage();
  const bodies = new Map<string, Promise<Buffer | null>>();
  page.on('response', (response) => {
    const isScript =
      response.request().resourceType() === 'script' ||
      /javascript/.test(response.headers()['content-type'] ?? '');
    if (!isScript || bodies.has(response.url())) return;
    bodies.set(
      response.url(),
      response.body().catch(() => null),
    );
  });
  await visit.run(page, baseUrl);
  // Lazy chunks the page asks for once it has rendered count too.
  await page.waitForLoadState('networkidle');
  let gzipBytes = 0;
  let rawBytes = 0;
  const files: { url: string; gzipBytes: number }[] = [];
  for (const [url, pending] of bodies) {
    const body = await pending;
    if (!body) throw new Error(`Could not read the body of ${url}`);
    const gzipped = gzipSync(body, { level: 9 }).length;
    rawBytes += body.length;
    gzipBytes += gzipped;
    files.push({ url: new URL(url).pathname, gzipBytes: gzipped });
  }
  await page.close();
  return { gzipBytes, rawBytes, scripts: bodies.size, files };
}

interface Measured {
  gzipBytes: number;
  rawBytes: number;
  scripts: number;
  files: { url: string; gzipBytes: number }[];
}

/** Each route in a fresh context per viewport; the larger download is the route's figure. */
export async function measureRouteSizes(baseUrl: string): Promise<RouteSize[]> {
  const browser = await chromium.launch({ ...chromiumLaunchOptions, headless: true });
  try {
    const sizes: RouteSize[] = [];
    for (const visit of visits) {
      let largest: Measured | undefined;
      for (const viewport of viewports) {
        const storageState = visit.setUp ? await visit.setUp(browser, baseUrl) : undefined;
        // A new context has an empty HTTP cache: everything the visit needs is downloaded.
        const context = await browser.newContext({
          viewport,
          ...(storageState ? { storageState } : {}),
        });
        try {
          const measured = await measureVisit(context, baseUrl, visit);
          if (!largest || measured.gzipBytes > largest.gzipBytes) largest = measured;
        } finally {
          await context.close();
        }
      }
      if (!largest) continue;
      const { files, ...totals } = largest;
      // SIZE_VERBOSE=1 lists each script, largest first (to see what to split or defer).
      if (process.env.SIZE_VERBOSE)
        for (const file of files.sort((a, b) => b.gzipBytes - a.gzipBytes))
          process.stdout.write(
            `  ${visit.route} ${(file.gzipBytes / 1024).toFixed(1).padStart(6)} KiB ${file.url}\n`,
          );
      sizes.push({ route: visit.route, group: visit.group, visit: visit.visit, ...totals });
    }
    return sizes;
  } finally {
    await browser.close();
  }
}
