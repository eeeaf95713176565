// `npm run bench`: what a request costs the built server, read against what it costs a bare
// Fastify route and a minimal honest reference, all measured side by side (decision 017).
//
// Every server is a child process started once and kept running: the bare route
// (bench/bare-server.mjs), the reference (bench/reference-server.mjs: Fastify + better-sqlite3
// serving the same catalogue bytes), Pairwell on SQLite and, with DATABASE_URL, Pairwell on
// PostgreSQL in a fresh schema. They are loaded in interleaved rounds (each round measures every
// target once, in an order rotated per round) with autocannon on loopback, with a browser's
// headers, at the server's default log level. The main figure is the server process's CPU time
// per request (utime + stime from /proc/<pid>/stat before and after each measurement, divided by
// the requests it answered), divided by the bare route's in the same round: the median of those
// per-round ratios. Requests/s and p50/p99 are beside it (they move with the machine's load; the
// CPU ratio much less).
//
// Then: SQL statements per request (an in-process app, bench/sql-count.ts); the growth runs
// (orders details at 10 / 100 / 1,000 orders, each call after a write to the customer so that it
// is read anew rather than kept; a conversation of 10 / 100 / 1,000 messages); a burst of 20
// concurrent log-ins; the servers' peak memory over all of it; the size budget; and the billing
// scenario (bench/billing.ts). Results go to bench/results/latest.json.
//
// `npm run bench -- billing` runs the billing scenario alone; `npm run bench -- growth` runs the
// growth runs alone (printed, latest.json left as it is); `npm run bench -- readme` rewrites
// README's Performance table from latest.json.
//
// Environment: BENCH_DURATION (seconds per measurement, default 5, after a 1 s warm-up),
// BENCH_ROUNDS (default 5, at least 3), BENCH_CONNECTIONS (default 2 per core),
// BENCH_GROWTH_REQUESTS (sequential calls per growth size, default 50),
// DATABASE_URL=postgres://… to measure PostgreSQL too.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import autocannon from 'autocannon';
import { hashPassword } from '#server/features/auth/passwords.ts';
import { openDatabase } from '#server/db/client.ts';
import { checkBudgets, formatSizeReport, type RouteSize } from '../scripts/size-budget.ts';
import { measureRouteSizes } from '../scripts/size-measure.ts';
import { formatBilling, measureBilling, type BillingBenchResult } from './billing.ts';
import { countStatements, type CountedRequest } from './sql-count.ts';
import { updateReadme } from './readme.ts';
import { BENCH_PASSWORD, seedBenchData, type BenchData } from './seed.ts';
import {
  ensureBuild,
  rootDir,
  startNode,
  startPairwell,
  withSearchPath,
  type PairwellServer,
  type RunningServer,
} from './server.ts';

const DEMO = { email: 'demo@pairwell.test', password: 'pairwell-demo' };
const PRODUCT_SLUG = 'sleep-gummies';
const duration = Number(process.env.BENCH_DURATION ?? 5);
const warmup = Math.min(1, duration);
const rounds = Math.max(3, Number(process.env.BENCH_ROUNDS ?? 5));
const connections = Number(process.env.BENCH_CONNECTIONS ?? 2 * os.availableParallelism());
const growthRequests = Math.max(5, Number(process.env.BENCH_GROWTH_REQUESTS ?? 50));
const resultsFile = path.join(rootDir, 'bench/results/latest.json');

const log = (line = '') => process.stdout.write(`${line}\n`);

// ---------------------------------------------------------------------------------------------
// What a browser sends

/** The installed Chromium's headers (its User-Agent as it sends it, headless or not). */
const browserHeaders = {
  'user-agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
  'accept-encoding': 'gzip, deflate, br',
  'accept-language': 'en-US,en;q=0.9',
};
const acceptFor = {
  // What the app's call() sends (src/client/lib/api.ts).
  api: 'application/json',
  page: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8',
};

type Database = 'sqlite' | 'postgres';

interface TargetSpec {
  id: string;
  name: string;
  method: 'GET' | 'POST';
  path: string;
  kind: 'api' | 'page';
  /** The JSON body, given the logged-in customer's leads_id. */
  body?: (leadsId: string) => unknown;
  /** Sends the demo customer's session cookie. */
  session?: boolean;
}

const pairwellTargets: TargetSpec[] = [
  { id: 'catalogue', name: 'catalogue', method: 'GET', path: '/lapi/products/', kind: 'api' },
  {
    id: 'product',
    name: 'product page API',
    method: 'GET',
    path: `/lapi/products/${PRODUCT_SLUG}`,
    kind: 'api',
  },
  {
    id: 'cart',
    name: 'cart (demo customer)',
    method: 'POST',
    path: '/lapi/v2/ecom/cart',
    kind: 'api',
    body: () => ({}),
    session: true,
  },
  {
    id: 'orders',
    name: 'orders details (demo customer)',
    method: 'POST',
    path: '/lapi/account/orders/',
    kind: 'api',
    body: (leadsId) => ({ leads_id: leadsId }),
    session: true,
  },
  { id: 'page-home', name: 'drawn page /', method: 'GET', path: '/', kind: 'page' },
  {
    id: 'page-product',
    name: `drawn page /shop/${PRODUCT_SLUG}`,
    method: 'GET',
    path: `/shop/${PRODUCT_SLUG}`,
    kind: 'page',
  },
  {
    id: 'messages',
    name: 'messages (demo customer, 10)',
    method: 'POST',
    path: '/lapi/messaging/getall/',
    kind: 'api',
    body: (leadsId) => ({ leads_id: leadsId }),
    session: true,
  },
];

interface PreparedRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

function prepare(
  baseUrl: string,
  spec: Pick<TargetSpec, 'method' | 'path' | 'kind' | 'body' | 'session'>,
  session?: Session,
): PreparedRequest {
  const headers: Record<string, string> = { ...browserHeaders, accept: acceptFor[spec.kind] };
  let body: string | undefined;
  if (spec.body) {
    headers['content-type'] = 'application/json';
    // A browser's fetch from our own page sends its origin.
    headers.origin = baseUrl;
    body = JSON.stringify(spec.body(session?.leadsId ?? ''));
  }
  if (spec.session) {
    if (!session) throw new Error(`${spec.path} needs a session`);
    headers.cookie = session.cookie;
  }
  return { url: `${baseUrl}${spec.path}`, method: spec.method, headers, ...(body ? { body } : {}) };
}

// ---------------------------------------------------------------------------------------------
// One plain request, timed, with its bytes on the wire and decoded

interface Answer {
  status: number;
  encoding: string;
  wireBytes: number;
  body: Buffer;
  ms: number;
  setCookie: string[];
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function send(request: PreparedRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const outgoing = http.request(
      request.url,
      { method: request.method, headers: request.headers, agent },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const ms = performance.now() - started;
          const raw = Buffer.concat(chunks);
          const encoding = String(response.headers['content-encoding'] ?? 'identity');
          let body = raw;
          if (encoding === 'br') body = zlib.brotliDecompressSync(raw);
          else if (encoding === 'gzip') body = zlib.gunzipSync(raw);
          else if (encoding === 'deflate') body = zlib.inflateSync(raw);
          resolve({
            status: response.statusCode ?? 0,
            encoding,
            wireBytes: raw.length,
            body,
            ms,
            setCookie: response.headers['set-cookie'] ?? [],
          });
        });
      },
    );
    outgoing.on('error', reject);
    if (request.body !== undefined) outgoing.end(request.body);
    else outgoing.end();
  });
}

interface Session {
  cookie: string;
  leadsId: string;
}

async function logIn(baseUrl: string, email: string, password: string): Promise<Session> {
  const answer = await send(
    prepare(baseUrl, {
      method: 'POST',
      path: '/lapi/account/login/',
      kind: 'api',
      body: () => ({ email, password }),
    }),
  );
  if (answer.status !== 200)
    throw new Error(`log-in of ${email} answered ${answer.status}: ${answer.body.toString()}`);
  const cookie = answer.setCookie.map((line) => line.split(';')[0] ?? '').join('; ');
  const leadsId = (JSON.parse(answer.body.toString()) as { data: { leads_id: string } }).data
    .leads_id;
  return { cookie, leadsId };
}

// ---------------------------------------------------------------------------------------------
// Figures

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

function median(values: number[]): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] ?? NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** One measurement of one target in one round. */
interface Sample {
  requests: number;
  failures: number;
  seconds: number;
  cpuSeconds: number;
  cpuPerRequestUs: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
}

/** Something the rounds measure: a server and the request it is loaded with. */
interface Unit {
  key: string;
  name: string;
  database: Database | null;
  server: RunningServer;
  request: PreparedRequest;
  samples: Sample[];
}

async function measure(unit: Unit): Promise<Sample> {
  const options = {
    url: unit.request.url,
    method: unit.request.method,
    headers: unit.request.headers,
    connections,
    ...(unit.request.body === undefined ? {} : { body: unit.request.body }),
  };
  await autocannon({ ...options, duration: warmup });
  const cpuBefore = unit.server.cpuSeconds();
  const started = performance.now();
  const latencies: number[] = [];
  let failures = 0;
  const run = autocannon({ ...options, duration });
  // Every response's time in fractional milliseconds (autocannon's histogram rounds to whole ones).
  run.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    else failures++;
  });
  const result = await run;
  const cpuAfter = unit.server.cpuSeconds();
  const seconds = (performance.now() - started) / 1000;
  failures += result.errors + result.timeouts;
  if (cpuBefore === undefined || cpuAfter === undefined)
    throw new Error('the bench reads CPU time from /proc/<pid>/stat: it runs on Linux only');
  latencies.sort((a, b) => a - b);
  const requests = latencies.length;
  const cpuSeconds = cpuAfter - cpuBefore;
  return {
    requests,
    failures,
    seconds: round(seconds, 2),
    cpuSeconds: round(cpuSeconds, 2),
    cpuPerRequestUs: requests > 0 ? round((cpuSeconds * 1e6) / requests) : NaN,
    rps: round(requests / seconds),
    p50Ms: round(percentile(latencies, 50), 2),
    p99Ms: round(percentile(latencies, 99), 2),
  };
}

// ---------------------------------------------------------------------------------------------
// Growth runs and the log-in burst

interface GrowthPoint {
  size: number;
  requests: number;
  medianMs: number;
  p99Ms: number;
  cpuPerRequestUs: number;
  /** The JSON as decoded, and as it crossed the wire (compressed for a browser). */
  bytes: number;
  wireBytes: number;
}

async function growthPoint(
  server: RunningServer,
  size: number,
  request: PreparedRequest,
  /** Run before each call, outside the server (its CPU is not counted). */
  beforeEach: () => Promise<unknown> = async () => undefined,
): Promise<GrowthPoint> {
  for (let i = 0; i < 3; i++) {
    await beforeEach();
    const answer = await send(request);
    if (answer.status !== 200)
      throw new Error(`growth: ${request.url} answered ${answer.status} at ${size}`);
  }
  const times: number[] = [];
  let last: Answer | undefined;
  let cpuSpent = 0;
  for (let i = 0; i < growthRequests; i++) {
    await beforeEach();
    const cpu = server.cpuSeconds() ?? NaN;
    last = await send(request);
    cpuSpent += (server.cpuSeconds() ?? NaN) - cpu;
    if (last.status !== 200)
      throw new Error(`growth: ${request.url} answered ${last.status} at ${size}`);
    times.push(last.ms);
  }
  times.sort((a, b) => a - b);
  return {
    size,
    requests: growthRequests,
    medianMs: round(median(times), 2),
    p99Ms: round(percentile(times, 99), 2),
    cpuPerRequestUs: round((cpuSpent * 1e6) / growthRequests),
    bytes: last?.body.length ?? 0,
    wireBytes: last?.wireBytes ?? 0,
  };
}

interface Growth {
  orders: GrowthPoint[];
  messages: GrowthPoint[];
}

/** The server's database, opened by the bench beside it (to seed it, and to write as another process would). */
function openServerDatabase(server: PairwellServer) {
  return openDatabase(
    server.postgres
      ? {
          dataDir: server.dataDir,
          databaseUrl: withSearchPath(server.postgres.databaseUrl, server.postgres.schema),
        }
      : { dataDir: server.dataDir },
  );
}

async function measureGrowth(server: PairwellServer, data: BenchData): Promise<Growth> {
  const orders: GrowthPoint[] = [];
  const handle = openServerDatabase(server);
  try {
    for (const { size, customer } of data.orders) {
      const session = await logIn(server.url, customer.email, BENCH_PASSWORD);
      const target = pairwellTargets.find((t) => t.id === 'orders');
      if (!target) throw new Error('no orders target');
      // A kept answer would be sent as it is whatever the size: each call comes after a write to
      // the customer's row, from another connection, so each reads its page anew.
      const write = () =>
        handle.db
          .updateTable('customers')
          .set((eb) => ({ updated_at: eb.ref('updated_at') }))
          .where('id', '=', customer.customerId)
          .execute();
      orders.push(await growthPoint(server, size, prepare(server.url, target, session), write));
    }
  } finally {
    await handle.close();
  }
  const messages: GrowthPoint[] = [];
  for (const { size, customer } of data.messages) {
    const session = await logIn(server.url, customer.email, BENCH_PASSWORD);
    const target = pairwellTargets.find((t) => t.id === 'messages');
    if (!target) throw new Error('no messages target');
    messages.push(await growthPoint(server, size, prepare(server.url, target, session)));
  }
  return { orders, messages };
}

interface LoginBurst {
  logins: number;
  failures: number;
  seconds: number;
  cpuPerLoginMs: number;
  rssBeforeMiB: number | null;
  rssAfterMiB: number | null;
}

const mib = (kib: number | undefined) => (kib === undefined ? null : round(kib / 1024));

async function loginBurst(server: PairwellServer, data: BenchData): Promise<LoginBurst> {
  const rssBefore = server.rssKiB();
  const cpuBefore = server.cpuSeconds() ?? NaN;
  const started = performance.now();
  const answers = await Promise.all(
    data.burst.map((customer) =>
      send(
        prepare(server.url, {
          method: 'POST',
          path: '/lapi/account/login/',
          kind: 'api',
          body: () => ({ email: customer.email, password: BENCH_PASSWORD }),
        }),
      ),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = server.cpuSeconds() ?? NaN;
  return {
    logins: answers.length,
    failures: answers.filter((a) => a.status !== 200).length,
    seconds: round(seconds, 2),
    cpuPerLoginMs: round(((cpuAfter - cpuBefore) * 1000) / answers.length, 2),
    rssBeforeMiB: mib(rssBefore),
    rssAfterMiB: mib(server.rssKiB()),
  };
}

// ---------------------------------------------------------------------------------------------
// Servers

interface PairwellRun {
  database: Database;
  server: PairwellServer;
  data: BenchData;
  session: Session;
  rssAfterStartMiB: number | null;
  /** The process's peak memory in each phase of the bench (its VmHWM, started over after each). */
  peaks: Record<string, number | null>;
  /** False when the kernel would not start the peak over: each phase's figure is then the peak so far. */
  peaksPerPhase: boolean;
}

/** Ends a phase: notes the server's peak memory in it and starts the peak over for the next. */
function endPhase(run: PairwellRun, phase: string): void {
  run.peaks[phase] = mib(run.server.peakRssKiB());
  run.peaksPerPhase = run.server.resetPeakRss() && run.peaksPerPhase;
}

function peakOverall(run: PairwellRun): number | null {
  const peaks = Object.values(run.peaks).filter((p): p is number => p !== null);
  return peaks.length > 0 ? Math.max(...peaks) : null;
}

/** The server on a fresh database, the bench's rows added, the demo customer logged in. */
async function startPairwellRun(
  database: Database,
  databaseUrl: string | undefined,
  passwordHash: string,
): Promise<PairwellRun> {
  log(`Starting Pairwell on ${database} (default log level)…`);
  // LOG_LEVEL empty counts as unset: the server logs at its default level, as in production.
  const server = await startPairwell({ databaseUrl, env: { LOG_LEVEL: '' } });
  try {
    const rssAfterStartMiB = mib(server.rssKiB());
    const handle = openServerDatabase(server);
    let data: BenchData;
    try {
      data = await seedBenchData(handle.db, passwordHash, new Date());
    } finally {
      await handle.close();
    }
    const session = await logIn(server.url, DEMO.email, DEMO.password);
    const run: PairwellRun = {
      database,
      server,
      data,
      session,
      rssAfterStartMiB,
      peaks: {},
      peaksPerPhase: true,
    };
    endPhase(run, 'start, seeding, demo log-in');
    return run;
  } catch (error) {
    await server.stop();
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Results

interface TargetFigures {
  name: string;
  method: string;
  path: string;
  cpuPerRequestUs: number;
  /** Median over rounds of (this target's CPU per request ÷ the bare route's, same round). */
  ratioToBare: number;
  /** The same against the reference catalogue. */
  ratioToReference: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
  sqlPerRequest: number | null;
  bytes: number;
  wireBytes: number;
  encoding: string;
  /** On PostgreSQL: median over rounds of this call's CPU per request ÷ its SQLite figure. */
  cpuRatioToSqlite?: number;
  rounds: Sample[];
}

function figures(
  unit: Unit,
  bare: Unit,
  reference: Unit,
  check: Answer,
  sqlPerRequest: number | null,
): TargetFigures {
  const ratioTo = (other: Unit) =>
    round(
      median(
        unit.samples.map((s, i) => s.cpuPerRequestUs / (other.samples[i]?.cpuPerRequestUs ?? NaN)),
      ),
      2,
    );
  return {
    name: unit.name,
    method: unit.request.method,
    path: new URL(unit.request.url).pathname,
    cpuPerRequestUs: round(median(unit.samples.map((s) => s.cpuPerRequestUs))),
    ratioToBare: ratioTo(bare),
    ratioToReference: ratioTo(reference),
    rps: round(median(unit.samples.map((s) => s.rps))),
    p50Ms: round(median(unit.samples.map((s) => s.p50Ms)), 2),
    p99Ms: round(median(unit.samples.map((s) => s.p99Ms)), 2),
    failures: unit.samples.reduce((sum, s) => sum + s.failures, 0),
    sqlPerRequest,
    bytes: check.body.length,
    wireBytes: check.wireBytes,
    encoding: check.encoding,
    rounds: unit.samples,
  };
}

function pad(value: string | number, width: number, left = false): string {
  const text = String(value);
  return left ? text.padEnd(width) : text.padStart(width);
}

const fmt = (value: number | null | undefined, digits = 0) =>
  value === null || value === undefined || !Number.isFinite(value)
    ? '–'
    : value.toLocaleString('en-US', {
        maximumFractionDigits: digits,
        minimumFractionDigits: digits,
      });

function printTable(
  yardsticks: Record<'bare' | 'reference', TargetFigures>,
  targets: Record<string, Partial<Record<Database, TargetFigures>>>,
) {
  log();
  log(
    `CPU per request of each server process (median of ${rounds} interleaved rounds, ${duration} s each, ${connections} connections, browser headers)`,
  );
  const header = `${pad('target', 40, true)}${pad('db', 9, true)}${pad('CPU µs', 9)}${pad('÷ bare', 8)}${pad('÷ ref', 8)}${pad('PG÷SQL', 8)}${pad('req/s', 9)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}${pad('SQL', 6)}${pad('bytes', 9)}${pad('wire', 8)}${pad('fail', 6)}`;
  log(header);
  log('-'.repeat(header.length));
  const row = (label: string, db: string, f: TargetFigures) =>
    log(
      `${pad(label, 40, true)}${pad(db, 9, true)}${pad(fmt(f.cpuPerRequestUs), 9)}${pad(fmt(f.ratioToBare, 2), 8)}${pad(fmt(f.ratioToReference, 2), 8)}${pad(fmt(f.cpuRatioToSqlite, 2), 8)}${pad(fmt(f.rps), 9)}${pad(fmt(f.p50Ms, 2), 8)}${pad(fmt(f.p99Ms, 2), 8)}${pad(fmt(f.sqlPerRequest, 1), 6)}${pad(f.bytes, 9)}${pad(f.wireBytes, 8)}${pad(f.failures, 6)}`,
    );
  row('bare Fastify route', '–', yardsticks.bare);
  row('reference catalogue', 'sqlite', yardsticks.reference);
  for (const [, perDb] of Object.entries(targets))
    for (const [db, f] of Object.entries(perDb)) if (f) row(f.name, db, f);
  log(
    "÷ bare, ÷ ref: CPU per request ÷ the bare route's / the reference's in the same round (median of rounds). " +
      "req/s and latency move with the machine's load; the CPU ratios much less.",
  );
}

function printGrowth(growth: Partial<Record<Database, Growth>>) {
  log();
  log(
    `Growth (one connection, ${growthRequests} calls each after 3 warm-up calls; each orders details call after a write to the customer from another connection, so it is read anew)`,
  );
  const header = `${pad('call', 34, true)}${pad('db', 9, true)}${pad('size', 7)}${pad('median ms', 11)}${pad('p99 ms', 9)}${pad('CPU µs', 9)}${pad('bytes', 10)}${pad('wire', 9)}`;
  log(header);
  log('-'.repeat(header.length));
  for (const [db, g] of Object.entries(growth)) {
    if (!g) continue;
    for (const [label, points] of [
      ['orders details (orders)', g.orders],
      ['messages (messages in a thread)', g.messages],
    ] as const)
      for (const p of points)
        log(
          `${pad(label, 34, true)}${pad(db, 9, true)}${pad(fmt(p.size), 7)}${pad(fmt(p.medianMs, 2), 11)}${pad(fmt(p.p99Ms, 2), 9)}${pad(fmt(p.cpuPerRequestUs), 9)}${pad(p.bytes, 10)}${pad(p.wireBytes, 9)}`,
        );
  }
}

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

function readResults(): Record<string, unknown> {
  return fs.existsSync(resultsFile)
    ? (JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as Record<string, unknown>)
    : {};
}

function writeResults(results: Record<string, unknown>) {
  fs.mkdirSync(path.dirname(resultsFile), { recursive: true });
  fs.writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
  log(`Results written to ${path.relative(rootDir, resultsFile)}`);
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
  writeResults({
    ...readResults(),
    billing: { ...billing, date: new Date().toISOString(), loadAverageAtStart: loadAverage },
  });
  const failure = billingFailed(billing);
  if (failure) {
    process.stderr.write(`Billing scenario: ${failure}\n`);
    process.exitCode = 1;
  }
}

/**
 * `npm run bench -- growth`: the growth runs alone, on SQLite and with DATABASE_URL on PostgreSQL,
 * printed. latest.json is left as it is: its growth figures belong to the full run beside them.
 */
async function growthOnly() {
  ensureBuild(log);
  const loadAverage = os.loadavg().map((value) => round(value, 2));
  const databaseUrl = process.env.DATABASE_URL || undefined;
  log(
    `Pairwell bench, growth runs only: ${os.availableParallelism()} cores, Node ${process.version}, load average ${loadAverage.join(' ')}`,
  );
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const growth: Partial<Record<Database, Growth>> = {};
  const databases: [Database, string | undefined][] = [['sqlite', undefined]];
  if (databaseUrl) databases.push(['postgres', databaseUrl]);
  else log('(DATABASE_URL is not set: PostgreSQL skipped)');
  for (const [database, url] of databases) {
    const run = await startPairwellRun(database, url, passwordHash);
    try {
      log(`Growth runs on ${database}…`);
      growth[database] = await measureGrowth(run.server, run.data);
    } finally {
      await run.server.stop();
    }
  }
  printGrowth(growth);
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const started = Date.now();
  ensureBuild(log);
  const loadAverage = os.loadavg().map((value) => round(value, 2));
  const databaseUrl = process.env.DATABASE_URL || undefined;
  log(
    `Pairwell bench: ${rounds} rounds × ${duration} s per target (after ${warmup} s warm-up), ${connections} connections, ${os.availableParallelism()} cores, Node ${process.version}, load average ${loadAverage.join(' ')}`,
  );
  const passwordHash = await hashPassword(BENCH_PASSWORD);

  const running: RunningServer[] = [];
  const stopAll = () => Promise.all(running.map((server) => server.stop()));
  try {
    const bareServer = await startNode(['bench/bare-server.mjs'], {}, '/healthz');
    running.push(bareServer);
    const pairwell: PairwellRun[] = [];
    const sqlite = await startPairwellRun('sqlite', undefined, passwordHash);
    running.push(sqlite.server);
    pairwell.push(sqlite);
    // The reference reads the catalogue from Pairwell's own SQLite file.
    const referenceServer = await startNode(
      ['bench/reference-server.mjs'],
      { REFERENCE_DB: path.join(sqlite.server.dataDir, 'pairwell.db') },
      '/healthz',
    );
    running.push(referenceServer);
    if (databaseUrl) {
      const postgres = await startPairwellRun('postgres', databaseUrl, passwordHash);
      running.push(postgres.server);
      pairwell.push(postgres);
    } else {
      log('(DATABASE_URL is not set: PostgreSQL skipped)');
    }

    const bare: Unit = {
      key: 'bare',
      name: 'bare Fastify route',
      database: null,
      server: bareServer,
      request: prepare(bareServer.url, { method: 'GET', path: '/bare', kind: 'api' }),
      samples: [],
    };
    const reference: Unit = {
      key: 'reference',
      name: 'reference catalogue',
      database: 'sqlite',
      server: referenceServer,
      request: prepare(referenceServer.url, {
        method: 'GET',
        path: '/lapi/products/',
        kind: 'api',
      }),
      samples: [],
    };
    const units: Unit[] = [bare, reference];
    for (const run of pairwell)
      for (const target of pairwellTargets)
        units.push({
          key: `${run.database}:${target.id}`,
          name: target.name,
          database: run.database,
          server: run.server,
          request: prepare(run.server.url, target, run.session),
          samples: [],
        });

    // One plain call of each first: a wrong path or a lost session fails loudly instead of
    // measuring a 4xx; the answers give each target's bytes.
    const checks = new Map<string, Answer>();
    for (const unit of units) {
      const answer = await send(unit.request);
      if (answer.status !== 200)
        throw new Error(
          `${unit.key}: ${unit.request.url} answered ${answer.status} before the load`,
        );
      checks.set(unit.key, answer);
    }
    const ours = checks.get('sqlite:catalogue')?.body.toString('utf8');
    const theirs = checks.get('reference')?.body.toString('utf8');
    if (ours !== theirs)
      throw new Error(
        'the reference no longer serves the same catalogue bytes as GET /lapi/products/: update bench/reference-server.mjs to match it',
      );

    log('Counting SQL statements per request (in-process app)…');
    const counted: CountedRequest[] = pairwellTargets.map((target) => ({
      id: target.id,
      method: target.method,
      path: target.path,
      ...(target.body ? { body: target.body } : {}),
      ...(target.session ? { session: true } : {}),
      headers: { ...browserHeaders, accept: acceptFor[target.kind] },
    }));
    const sql: Partial<Record<Database, Record<string, number>>> = {
      sqlite: await countStatements(counted, { passwordHash }),
    };
    if (databaseUrl) sql.postgres = await countStatements(counted, { databaseUrl, passwordHash });

    for (let r = 0; r < rounds; r++) {
      const shift = (r * Math.ceil(units.length / rounds)) % units.length;
      const order = [...units.slice(shift), ...units.slice(0, shift)];
      log(`Round ${r + 1} of ${rounds}: ${order.map((u) => u.key).join(', ')}`);
      for (const unit of order) unit.samples.push(await measure(unit));
      const bareSample = bare.samples[r];
      log(
        `  bare ${fmt(bareSample?.cpuPerRequestUs)} µs; ` +
          units
            .filter((u) => u !== bare)
            .map((u) => {
              const s = u.samples[r];
              return `${u.key} ${fmt(s?.cpuPerRequestUs)} µs (${fmt((s?.cpuPerRequestUs ?? NaN) / (bareSample?.cpuPerRequestUs ?? NaN), 1)}×)`;
            })
            .join('; '),
      );
    }

    for (const run of pairwell) endPhase(run, 'rounds');
    const growth: Partial<Record<Database, Growth>> = {};
    const bursts: Partial<Record<Database, LoginBurst>> = {};
    for (const run of pairwell) {
      log(`Growth runs on ${run.database}…`);
      growth[run.database] = await measureGrowth(run.server, run.data);
      endPhase(run, 'growth runs');
      log(`Burst of ${run.data.burst.length} concurrent log-ins on ${run.database}…`);
      bursts[run.database] = await loginBurst(run.server, run.data);
      endPhase(run, 'log-in burst');
    }

    log('Size: loading /, /shop/:slug and /dashboard in Chromium…');
    const sizes: RouteSize[] = await measureRouteSizes(sqlite.server.url);
    endPhase(sqlite, 'size check (Chromium)');

    const yardsticks = {
      bare: figures(bare, bare, reference, checks.get('bare') as Answer, null),
      reference: figures(reference, bare, reference, checks.get('reference') as Answer, null),
    };
    const targets: Record<string, Partial<Record<Database, TargetFigures>>> = {};
    for (const target of pairwellTargets) {
      const perDb: Partial<Record<Database, TargetFigures>> = {};
      for (const run of pairwell) {
        const unit = units.find((u) => u.key === `${run.database}:${target.id}`);
        const check = checks.get(`${run.database}:${target.id}`);
        if (!unit || !check) continue;
        perDb[run.database] = figures(
          unit,
          bare,
          reference,
          check,
          sql[run.database]?.[target.id] ?? null,
        );
      }
      const onSqlite = units.find((u) => u.key === `sqlite:${target.id}`);
      const onPostgres = units.find((u) => u.key === `postgres:${target.id}`);
      if (perDb.postgres && onSqlite && onPostgres)
        perDb.postgres.cpuRatioToSqlite = round(
          median(
            onPostgres.samples.map(
              (s, i) => s.cpuPerRequestUs / (onSqlite.samples[i]?.cpuPerRequestUs ?? NaN),
            ),
          ),
          2,
        );
      targets[target.id] = perDb;
    }

    const servers: Record<string, unknown> = {
      bare: { peakRssMiB: mib(bareServer.peakRssKiB()) },
      reference: { peakRssMiB: mib(referenceServer.peakRssKiB()), sameBytesAsPairwell: true },
    };
    for (const run of pairwell)
      servers[run.database] = {
        rssAfterStartMiB: run.rssAfterStartMiB,
        peakRssMiB: peakOverall(run),
        peakRssByPhaseMiB: run.peaks,
        peaksPerPhase: run.peaksPerPhase,
        loginBurst: bursts[run.database],
      };

    printTable(yardsticks, targets);
    printGrowth(growth);
    log();
    for (const [name, server] of Object.entries(servers)) {
      const s = server as {
        peakRssMiB: number | null;
        rssAfterStartMiB?: number | null;
        loginBurst?: LoginBurst;
        peakRssByPhaseMiB?: Record<string, number | null>;
      };
      const burst = s.loginBurst
        ? `; ${s.loginBurst.logins} concurrent log-ins in ${s.loginBurst.seconds} s (${s.loginBurst.failures} failed, ${s.loginBurst.cpuPerLoginMs} ms CPU each), RSS ${s.loginBurst.rssBeforeMiB} → ${s.loginBurst.rssAfterMiB} MiB`
        : '';
      const start = s.rssAfterStartMiB ? `, ${s.rssAfterStartMiB} MiB after start` : '';
      log(
        `Peak memory (VmHWM) of ${name}: ${s.peakRssMiB} MiB over the whole bench${start}${burst}`,
      );
      if (s.peakRssByPhaseMiB)
        log(
          `  peak by phase: ${Object.entries(s.peakRssByPhaseMiB)
            .map(([phase, peak]) => `${phase} ${peak} MiB`)
            .join('; ')}`,
        );
    }

    await stopAll();

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

    writeResults({
      date: new Date().toISOString(),
      machine: {
        cores: os.availableParallelism(),
        cpu: os.cpus()[0]?.model ?? 'unknown',
        memoryGiB: Math.round(os.totalmem() / 2 ** 30),
        node: process.version,
        loadAverageAtStart: loadAverage,
        loadAverageAtEnd: os.loadavg().map((value) => round(value, 2)),
      },
      settings: {
        connections,
        durationSeconds: duration,
        warmupSeconds: warmup,
        rounds,
        growthRequests,
        headers: { ...browserHeaders, accept: acceptFor },
        logLevel: 'default (info)',
        databases: pairwell.map((run) => run.database),
      },
      yardsticks,
      targets,
      servers,
      growth,
      size: sizes.map((size) => ({
        ...size,
        overBudget: failures.some((f) => f.route === size.route),
      })),
      billing,
      seconds,
    });

    const failed = units.filter((unit) => unit.samples.some((s) => s.failures > 0));
    const burstFailed = Object.values(bursts).some((b) => b && b.failures > 0);
    if (failed.length > 0 || burstFailed) {
      process.stderr.write(
        `Some requests failed: ${[...failed.map((u) => u.key), ...(burstFailed ? ['log-in burst'] : [])].join(', ')}\n`,
      );
      process.exitCode = 1;
    }
    const billingFailure = billingFailed(billing);
    if (billingFailure) {
      process.stderr.write(`Billing scenario: ${billingFailure}\n`);
      process.exitCode = 1;
    }
  } finally {
    await stopAll();
  }
}

const command = process.argv.includes('billing')
  ? billingOnly()
  : process.argv.includes('growth')
    ? growthOnly()
    : process.argv.includes('readme')
      ? updateReadme(resultsFile, log)
      : main();
command.catch((error: unknown) => {
  process.stderr.write(
    `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
