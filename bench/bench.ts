// `npm run bench`: loads the real, built server with autocannon on loopback and prints requests/s
// and p50/p99 latency per endpoint, each read against a bare Fastify route measured in the same
// run, then the server's peak memory and the size budget. Results go to bench/results/latest.json.
//
// Then the billing scenario (bench/billing.ts): start-up and an API call's p99 while 3,000 due
// renewals are billed on SQLite, against the same call without a billing run. `npm run bench --
// billing` runs that scenario alone and updates only its part of latest.json.
//
// Environment: DATABASE_URL=postgres://… also measures on PostgreSQL (in a fresh schema);
// BENCH_DURATION (seconds per endpoint, default 10); BENCH_CONNECTIONS (default 2 per core).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon, { type Result } from 'autocannon';
import { checkBudgets, formatSizeReport, type RouteSize } from '../scripts/size-budget.ts';
import { measureRouteSizes } from '../scripts/size-measure.ts';
import { formatBilling, measureBilling, type BillingBenchResult } from './billing.ts';
import { ensureBuild, rootDir, startNode, startPairwell, type RunningServer } from './server.ts';

const DEMO = { email: 'demo@pairwell.test', password: 'pairwell-demo' };
const PRODUCT_SLUG = 'sleep-gummies';
const duration = Number(process.env.BENCH_DURATION ?? 10);
const warmup = Math.min(1, duration);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 2 * os.availableParallelism());

const log = (line = '') => process.stdout.write(`${line}\n`);

interface Endpoint {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** Sends the demo customer's session cookie. */
  session?: boolean;
}

interface Measured {
  name: string;
  method: string;
  path: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  failures: number;
  /** requests/s as a share of the bare route's (1 = as fast as bare Fastify). */
  shareOfBare: number;
}

interface Session {
  cookie: string;
  leadsId: string;
}

async function logIn(baseUrl: string): Promise<Session> {
  const response = await fetch(`${baseUrl}/lapi/account/login/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(DEMO),
  });
  if (!response.ok) throw new Error(`log-in answered ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as { data: { leads_id: string } };
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .join('; ');
  return { cookie, leadsId: body.data.leads_id };
}

function endpointsFor(session: Session): Endpoint[] {
  return [
    { name: 'catalogue', method: 'GET', path: '/lapi/products/' },
    { name: 'product page API', method: 'GET', path: `/lapi/products/${PRODUCT_SLUG}` },
    {
      name: 'cart (logged in)',
      method: 'POST',
      path: '/lapi/v2/ecom/cart',
      body: {},
      session: true,
    },
    {
      name: 'orders details',
      method: 'POST',
      path: '/lapi/account/orders/',
      body: { leads_id: session.leadsId },
      session: true,
    },
    { name: 'login', method: 'POST', path: '/lapi/account/login/', body: DEMO },
  ];
}

function requestOptions(endpoint: Endpoint, session: Session | undefined) {
  const headers: Record<string, string> = {};
  if (endpoint.body !== undefined) headers['content-type'] = 'application/json';
  if (endpoint.session && session) headers.cookie = session.cookie;
  return {
    method: endpoint.method,
    headers,
    ...(endpoint.body === undefined ? {} : { body: JSON.stringify(endpoint.body) }),
  };
}

async function load(
  baseUrl: string,
  endpoint: Endpoint,
  session: Session | undefined,
  bareRps: number | undefined,
): Promise<Measured> {
  const options = {
    url: `${baseUrl}${endpoint.path}`,
    connections,
    ...requestOptions(endpoint, session),
  };
  // One plain call first: a wrong path or a lost session must fail loudly, not measure 4xx speed.
  const check = await fetch(options.url, {
    method: options.method,
    headers: options.headers,
    ...(options.body === undefined ? {} : { body: options.body }),
  });
  if (!check.ok)
    throw new Error(`${endpoint.name}: ${endpoint.path} answered ${check.status} before the load`);
  await autocannon({ ...options, duration: warmup });
  const result: Result = await autocannon({ ...options, duration });
  const requestsPerSecond = result.requests.total / result.duration;
  return {
    name: endpoint.name,
    method: endpoint.method,
    path: endpoint.path,
    requestsPerSecond: round(requestsPerSecond, 1),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
    shareOfBare: bareRps ? round(requestsPerSecond / bareRps, 3) : 1,
  };
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

function pad(value: string | number, width: number, left = false): string {
  const text = String(value);
  return left ? text.padEnd(width) : text.padStart(width);
}

function table(title: string, bare: Measured, rows: Measured[], peakRssKiB: number | undefined) {
  log();
  log(title);
  const header = `${pad('endpoint', 54, true)}${pad('req/s', 10)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}${pad('÷ bare', 9)}${pad('failed', 8)}`;
  log(header);
  log('-'.repeat(header.length));
  for (const row of [bare, ...rows]) {
    const label = `${row.name} (${row.method} ${row.path})`;
    log(
      `${pad(label, 54, true)}${pad(row.requestsPerSecond.toFixed(0), 10)}${pad(row.p50Ms, 9)}${pad(row.p99Ms, 9)}${pad(row.shareOfBare.toFixed(3), 9)}${pad(row.failures, 8)}`,
    );
  }
  log(`÷ bare: the endpoint's requests/s as a share of the bare Fastify route's, same run.`);
  if (peakRssKiB !== undefined)
    log(`Peak memory of the server (VmHWM): ${(peakRssKiB / 1024).toFixed(1)} MiB`);
}

async function measureDatabase(
  label: 'sqlite' | 'postgres',
  databaseUrl: string | undefined,
  bare: Measured,
  alsoSizes: boolean,
): Promise<{ rows: Measured[]; peakRssKiB: number | undefined; sizes?: RouteSize[] }> {
  log(`Starting the server on ${label}…`);
  const server: RunningServer = await startPairwell({ databaseUrl });
  try {
    const session = await logIn(server.url);
    const rows: Measured[] = [];
    for (const endpoint of endpointsFor(session)) {
      log(`  ${label}: ${endpoint.name}…`);
      rows.push(await load(server.url, endpoint, session, bare.requestsPerSecond));
    }
    const peakRssKiB = server.peakRssKiB();
    let sizes: RouteSize[] | undefined;
    if (alsoSizes) {
      log('  size: loading /, /shop/:slug and /dashboard in Chromium…');
      sizes = await measureRouteSizes(server.url);
    }
    return { rows, peakRssKiB, ...(sizes ? { sizes } : {}) };
  } finally {
    await server.stop();
  }
}

const resultsFile = path.join(rootDir, 'bench/results/latest.json');

/** Exit code 1 when the billing run billed other than once per renewal, failed requests or missed a goal. */
function billingFailed(billing: BillingBenchResult): string | undefined {
  if (
    billing.renewalOrders !== billing.dueRenewals ||
    billing.succeededCharges !== billing.dueRenewals
  )
    return `billing made ${billing.renewalOrders} orders and ${billing.succeededCharges} charges for ${billing.dueRenewals} renewals`;
  if (billing.during.failures + billing.without.failures > 0) return 'requests failed';
  if (!billing.met.p99Ratio || !billing.met.startup) return 'a goal was not met';
  return undefined;
}

/** `npm run bench -- billing`: the billing scenario alone; the rest of latest.json stays as it was. */
async function billingOnly() {
  ensureBuild(log);
  const loadAverage = os.loadavg().map((value) => round(value, 2));
  log(
    `Pairwell bench, billing only: ${connections} connections, ${os.availableParallelism()} cores, Node ${process.version}, load average ${loadAverage.join(' ')}`,
  );
  const billing = await measureBilling(connections, log);
  log();
  for (const line of formatBilling(billing)) log(line);
  const previous: Record<string, unknown> = fs.existsSync(resultsFile)
    ? (JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as Record<string, unknown>)
    : {};
  const results = {
    ...previous,
    billing: { ...billing, date: new Date().toISOString(), loadAverageAtStart: loadAverage },
  };
  fs.mkdirSync(path.dirname(resultsFile), { recursive: true });
  fs.writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
  log(`Results written to ${path.relative(rootDir, resultsFile)}`);
  const failure = billingFailed(billing);
  if (failure) {
    process.stderr.write(`Billing scenario: ${failure}\n`);
    process.exitCode = 1;
  }
}

async function main() {
  const started = Date.now();
  ensureBuild(log);
  // Anything else running on the machine moves every figure (the ratios to bare less so).
  const loadAverage = os.loadavg().map((value) => round(value, 2));
  log(
    `Pairwell bench: ${connections} connections, ${duration} s per endpoint (after ${warmup} s warm-up), ${os.availableParallelism()} cores, Node ${process.version}, load average ${loadAverage.join(' ')}`,
  );

  const bareServer = await startNode(['bench/bare-server.mjs'], {}, '/healthz');
  let bare: Measured;
  try {
    log('Measuring the bare Fastify route…');
    bare = await load(
      bareServer.url,
      { name: 'bare Fastify', method: 'GET', path: '/bare' },
      undefined,
      undefined,
    );
  } finally {
    await bareServer.stop();
  }
  const bareRssKiB = bareServer.peakRssKiB();

  const databaseUrl = process.env.DATABASE_URL || undefined;
  const runs: { database: string; rows: Measured[]; peakRssKiB: number | undefined }[] = [];
  const sqlite = await measureDatabase('sqlite', undefined, bare, true);
  runs.push({ database: 'sqlite', rows: sqlite.rows, peakRssKiB: sqlite.peakRssKiB });
  if (databaseUrl) {
    const postgres = await measureDatabase('postgres', databaseUrl, bare, false);
    runs.push({ database: 'postgres', rows: postgres.rows, peakRssKiB: postgres.peakRssKiB });
  } else {
    log('(DATABASE_URL is not set: PostgreSQL skipped)');
  }

  for (const run of runs)
    table(`Pairwell on ${run.database} vs bare Fastify`, bare, run.rows, run.peakRssKiB);
  if (bareRssKiB !== undefined)
    log(`Peak memory of the bare Fastify app: ${(bareRssKiB / 1024).toFixed(1)} MiB`);

  const sizes = sqlite.sizes ?? [];
  const failures = checkBudgets(sizes);
  log();
  log(formatSizeReport(sizes, failures));

  log();
  const billing = await measureBilling(connections, log);
  log();
  for (const line of formatBilling(billing)) log(line);

  const seconds = Math.round((Date.now() - started) / 1000);
  log();
  log(`Bench took ${seconds} s.`);

  const results = {
    date: new Date().toISOString(),
    machine: {
      cores: os.availableParallelism(),
      cpu: os.cpus()[0]?.model ?? 'unknown',
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      loadAverageAtStart: loadAverage,
    },
    settings: { connections, durationSeconds: duration, warmupSeconds: warmup },
    bare: { ...bare, peakRssMiB: bareRssKiB === undefined ? null : round(bareRssKiB / 1024, 1) },
    runs: runs.map((run) => ({
      database: run.database,
      peakRssMiB: run.peakRssKiB === undefined ? null : round(run.peakRssKiB / 1024, 1),
      endpoints: run.rows,
    })),
    size: sizes.map((size) => ({
      ...size,
      overBudget: failures.some((f) => f.route === size.route),
    })),
    billing,
    seconds,
  };
  fs.mkdirSync(path.dirname(resultsFile), { recursive: true });
  fs.writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
  log(`Results written to ${path.relative(rootDir, resultsFile)}`);

  const failed = runs.flatMap((run) => run.rows).filter((row) => row.failures > 0);
  if (failed.length > 0 || bare.failures > 0) {
    process.stderr.write(`Some requests failed: ${failed.map((row) => row.name).join(', ')}\n`);
    process.exitCode = 1;
  }
  const billingFailure = billingFailed(billing);
  if (billingFailure) {
    process.stderr.write(`Billing scenario: ${billingFailure}\n`);
    process.exitCode = 1;
  }
}

(process.argv.includes('billing') ? billingOnly() : main()).catch((error: unknown) => {
  process.stderr.write(
    `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
