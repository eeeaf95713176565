import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database } from '#server/db/schema.ts';
import type { Env } from '#server/env.ts';

/**
 * Prometheus metrics (issue 15), with prom-client: how long each route takes, how the background
 * jobs run, how much work waits in their queues, and the gateway calls the payment ledger has made.
 * Nothing about a customer: labels are route templates, job names, statuses and operations.
 *
 * `GET /metrics` exists only when it is configured, and answers only a scraper that shows the
 * `METRICS_TOKEN` as a bearer token or comes from an address in `METRICS_ALLOW`; anyone else gets
 * the plain 404 of a path that does not exist. Without either setting nothing is measured at all.
 */
export interface Metrics {
  /** Called by the job runner after each run of a job. */
  jobRan(job: string, failed: boolean): void;
}

export const noMetrics: Metrics = { jobRan: () => undefined };

export function metricsEnabled(env: Env): boolean {
  return env.METRICS_TOKEN !== undefined || env.METRICS_ALLOW.length > 0;
}

export function createMetrics(
  env: Env,
  db: Kysely<Database>,
): (Metrics & { registry: Registry }) | null {
  if (!metricsEnabled(env)) return null;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'pairwell_' });

  const jobRuns = new Counter({
    name: 'pairwell_job_runs_total',
    help: 'Runs of each background job on this instance, by outcome.',
    labelNames: ['job', 'outcome'] as const,
    registers: [registry],
  });

  new Gauge({
    name: 'pairwell_queue_depth',
    help: 'Work waiting for the background jobs (all instances): emails to send, renewals due, payment retries due, gateway calls to reconcile.',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      const now = new Date().toISOString();
      const today = now.slice(0, 10);
      const [outbox, renewals, retries, ledger] = await Promise.all([
        db
          .selectFrom('outbox_messages')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', '=', 'pending')
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('subscriptions')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', '=', 'ACTIVE')
          .where('next_billing_date', '<=', today)
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('orders')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('payment_status', '=', 'unpaid')
          .where('next_retry_at', '<=', now)
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('payment_ledger')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', '=', 'started')
          .executeTakeFirstOrThrow(),
      ]);
      this.set({ queue: 'outbox' }, Number(outbox.n));
      this.set({ queue: 'renewals_due' }, Number(renewals.n));
      this.set({ queue: 'payment_retries_due' }, Number(retries.n));
      this.set({ queue: 'gateway_calls_unsettled' }, Number(ledger.n));
    },
  });

  new Gauge({
    name: 'pairwell_gateway_calls',
    help: 'Payment gateway calls in the payment ledger (all instances): charges, refunds and the rest, by outcome.',
    labelNames: ['operation', 'status'] as const,
    registers: [registry],
    async collect() {
      const rows = await db
        .selectFrom('payment_ledger')
        .select(['operation', 'status', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy(['operation', 'status'])
        .execute();
      this.reset();
      for (const row of rows)
        this.set({ operation: row.operation, status: row.status }, Number(row.n));
    },
  });

  return {
    registry,
    jobRan: (job, failed) => jobRuns.inc({ job, outcome: failed ? 'failed' : 'ok' }),
  };
}

/** Request latency by route, and `GET /metrics` for the allowed scrapers. */
export function registerMetrics(
  app: FastifyInstance,
  env: Env,
  metrics: Metrics & { registry: Registry },
): void {
  const latency = new Histogram({
    name: 'pairwell_http_request_duration_seconds',
    help: 'Time to answer a request, by method, route template and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [metrics.registry],
  });
  app.addHook('onResponse', (request, reply, done) => {
    // The template (`/lapi/products/:slug`), never the path a visitor typed.
    const route = request.routeOptions.url ?? 'unmatched';
    latency.observe(
      { method: request.method, route, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });

  const allowed = (request: FastifyRequest) => {
    if (env.METRICS_ALLOW.includes(request.ip)) return true;
    const token = env.METRICS_TOKEN;
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!token || !given) return false;
    const a = crypto.createHash('sha256').update(token).digest();
    const b = crypto.createHash('sha256').update(given).digest();
    return crypto.timingSafeEqual(a, b);
  };

  app.get('/metrics', { schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
    if (!allowed(request)) return reply.callNotFound();
    reply.header('Cache-Control', 'no-store').type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
