// The billing scenario of `npm run bench` (alone: `npm run bench -- billing`), on SQLite: 3,000
// subscriptions due for renewal. It measures how long the built server takes from spawn to its
// first /healthz 200 with them due and billing on (its first billing run starts as it gets ready),
// and an API call's latency while that run bills all 3,000, against the same call on a server
// over the same data with billing off, for as long as the billing run took.
//
// Latency is taken from every response (autocannon's `response` event, in fractional
// milliseconds), not from autocannon's histogram, which rounds to whole milliseconds: at 1–3 ms a
// whole millisecond is the size of the effect being measured.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import autocannon from 'autocannon';
import { openDatabase } from '#server/db/client.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import { seedCatalog } from '#server/db/seed.ts';
import { insertSubscriber } from '#test/factories.ts';
import { serverNodeFlags, startNode, type RunningServer } from './server.ts';

export const DUE_RENEWALS = 3000;
const ENDPOINT = { name: 'catalogue', method: 'GET' as const, path: '/lapi/products/' };
/** The goals of issue 11: p99 during a billing run within 2× of without; start-up within 2 s. */
export const GOALS = { p99Ratio: 2, startupMs: 2000 };

export interface LatencyWindow {
  seconds: number;
  requests: number;
  failures: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface BillingBenchResult {
  database: 'sqlite';
  dueRenewals: number;
  endpoint: { name: string; method: string; path: string };
  seedSeconds: number;
  /** Spawn → first /healthz 200, billing on (its first run starts when the server is ready). */
  startupMs: number;
  /** The same with billing off, for comparison. */
  startupWithoutBillingMs: number;
  /** Spawn → every due renewal paid, while the endpoint was under load. */
  billingSeconds: number;
  renewalOrders: number;
  succeededCharges: number;
  during: LatencyWindow;
  without: LatencyWindow;
  p99Ratio: number;
  goals: typeof GOALS;
  met: { p99Ratio: boolean; startup: boolean };
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** A migrated SQLite database in `dataDir` with the catalogue and `count` renewals due today. */
async function seedDueRenewals(dataDir: string, count: number): Promise<void> {
  const handle = openDatabase({ dataDir });
  try {
    await migrateToLatest(handle.db);
    await seedCatalog(handle.db);
    const now = new Date().toISOString();
    const today = now.slice(0, 10);
    // Each subscriber has a card that charges, a shipping address and a monthly plan due today.
    await handle.db.transaction().execute(async (trx) => {
      for (let i = 0; i < count; i++) await insertSubscriber(trx, { nextBillingDate: today, now });
    });
  } finally {
    await handle.close();
  }
}

function billingProgress(dataDir: string) {
  const reader = new SQLite(path.join(dataDir, 'pairwell.db'), { readonly: true });
  const paid = reader.prepare(
    `select count(*) as n from orders where kind = 'renewal' and payment_status = 'paid'`,
  );
  const orders = reader.prepare(`select count(*) as n from orders where kind = 'renewal'`);
  const charges = reader.prepare(
    `select count(*) as n from simulator_charges where status = 'succeeded'`,
  );
  const count = (statement: SQLite.Statement) => (statement.get() as { n: number }).n;
  return {
    paid: () => count(paid),
    orders: () => count(orders),
    charges: () => count(charges),
    close: () => reader.close(),
  };
}

async function startServer(
  dataDir: string,
  billing: boolean,
): Promise<{ server: RunningServer; startupMs: number; spawnedAt: number }> {
  const spawnedAt = performance.now();
  const server = await startNode(
    [...serverNodeFlags, 'dist/server/main.js'],
    {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      ADDRESS_LIMIT_FACTOR: '1000',
      // On: the first run starts as the server gets ready. The interval is long so that the one
      // run measured is that first one.
      BILLING_INTERVAL_SECONDS: billing ? '3600' : '0',
    },
    '/healthz',
    { pollMs: 10 },
  );
  return { server, startupMs: performance.now() - spawnedAt, spawnedAt };
}

/**
 * Loads the endpoint until `until()` says stop (polled every 20 ms) or `seconds` pass, whichever
 * comes first, and gives the latency of every 2xx response.
 */
async function loadWhile(
  url: string,
  connections: number,
  options: { seconds: number; until?: () => boolean },
): Promise<LatencyWindow> {
  const latencies: number[] = [];
  let failures = 0;
  const startedAt = performance.now();
  const run = autocannon({
    url: `${url}${ENDPOINT.path}`,
    method: ENDPOINT.method,
    connections,
    duration: options.seconds,
  });
  run.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    else failures++;
  });
  const { until } = options;
  let poll: NodeJS.Timeout | undefined;
  if (until)
    poll = setInterval(() => {
      if (until()) run.stop();
    }, 20);
  try {
    const result = await run;
    failures += result.errors + result.timeouts;
  } finally {
    if (poll) clearInterval(poll);
  }
  const seconds = (performance.now() - startedAt) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    seconds: round(seconds),
    requests: latencies.length,
    failures,
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    maxMs: round(latencies.at(-1) ?? 0),
  };
}

export async function measureBilling(
  connections: number,
  log: (line: string) => void,
): Promise<BillingBenchResult> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pairwell-bench-billing-'));
  try {
    log(`Billing: seeding ${DUE_RENEWALS.toLocaleString('en-US')} renewals due today on SQLite…`);
    const seedStarted = performance.now();
    const withBilling = path.join(work, 'billing');
    const withoutBilling = path.join(work, 'quiet');
    await seedDueRenewals(withBilling, DUE_RENEWALS);
    // The same data for the server without billing: a copy of the closed (checkpointed) file.
    fs.mkdirSync(withoutBilling);
    fs.copyFileSync(
      path.join(withBilling, 'pairwell.db'),
      path.join(withoutBilling, 'pairwell.db'),
    );
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    log('  billing: start-up with billing on, then the catalogue under load while it bills…');
    const on = await startServer(withBilling, true);
    let billingSeconds: number;
    let during: LatencyWindow;
    let renewalOrders: number;
    let succeededCharges: number;
    const progress = billingProgress(withBilling);
    try {
      let doneAt: number | undefined;
      const billed = () => {
        if (doneAt === undefined && progress.paid() >= DUE_RENEWALS) doneAt = performance.now();
        return doneAt !== undefined;
      };
      if (billed())
        throw new Error('billing finished before the server answered: nothing to measure');
      during = await loadWhile(on.server.url, connections, { seconds: 300, until: billed });
      if (!billed())
        throw new Error(`billing did not finish within 300 s (${progress.paid()} paid)`);
      billingSeconds = ((doneAt ?? performance.now()) - on.spawnedAt) / 1000;
      renewalOrders = progress.orders();
      succeededCharges = progress.charges();
    } finally {
      progress.close();
      await on.server.stop();
    }

    log(`  billing: the catalogue for ${during.seconds.toFixed(1)} s with billing off…`);
    const off = await startServer(withoutBilling, false);
    let without: LatencyWindow;
    try {
      without = await loadWhile(off.server.url, connections, {
        seconds: Math.max(1, Math.round(during.seconds)),
      });
    } finally {
      await off.server.stop();
    }

    const p99Ratio = without.p99Ms > 0 ? during.p99Ms / without.p99Ms : Infinity;
    return {
      database: 'sqlite',
      dueRenewals: DUE_RENEWALS,
      endpoint: ENDPOINT,
      seedSeconds: round(seedSeconds),
      startupMs: Math.round(on.startupMs),
      startupWithoutBillingMs: Math.round(off.startupMs),
      billingSeconds: round(billingSeconds),
      renewalOrders,
      succeededCharges,
      during,
      without,
      p99Ratio: round(p99Ratio),
      goals: GOALS,
      met: { p99Ratio: p99Ratio <= GOALS.p99Ratio, startup: on.startupMs <= GOALS.startupMs },
    };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

export function formatBilling(result: BillingBenchResult): string[] {
  const window = (label: string, w: LatencyWindow) =>
    `  ${label.padEnd(30)}${w.seconds.toFixed(1).padStart(7)} s${String(w.requests).padStart(9)} req${w.p50Ms.toFixed(2).padStart(9)}${w.p99Ms.toFixed(2).padStart(9)}${w.maxMs.toFixed(1).padStart(9)}${String(w.failures).padStart(8)}`;
  const mark = (ok: boolean) => (ok ? 'met' : 'NOT MET');
  return [
    `Billing on SQLite: ${result.dueRenewals.toLocaleString('en-US')} renewals due (seeded in ${result.seedSeconds.toFixed(1)} s)`,
    `  start-up to /healthz 200: ${result.startupMs} ms with billing on (goal ≤ ${GOALS.startupMs} ms: ${mark(result.met.startup)}), ${result.startupWithoutBillingMs} ms with it off`,
    `  billing run: ${result.renewalOrders} renewal orders, ${result.succeededCharges} charges, all paid ${result.billingSeconds.toFixed(1)} s after spawn, under load`,
    `  ${ENDPOINT.name} (${ENDPOINT.method} ${ENDPOINT.path})          time   requests   p50 ms   p99 ms   max ms  failed`,
    window('during the billing run', result.during),
    window('without a billing run', result.without),
    `  p99 during ÷ p99 without: ${result.p99Ratio.toFixed(2)} (goal ≤ ${GOALS.p99Ratio}: ${mark(result.met.p99Ratio)})`,
  ];
}
