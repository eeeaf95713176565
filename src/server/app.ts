import crypto from 'node:crypto';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { LogController, type FastifyInstance, type RouteOptions } from 'fastify';
import helmet from 'helmet';
import {
  jsonSchemaTransform,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { API_PREFIX, type RuntimeConfig } from '#shared/api.ts';
import { releaseName } from '#shared/error-reports.ts';
import { site } from '#shared/site.ts';
import { tagManagerPage } from '#shared/tag-manager.ts';
import { MAX_UPLOAD_BYTES } from '#shared/visits.ts';
import { createErrorReporter, type ErrorReporter } from './adapters/error-reporter.ts';
import { openDatabase, type DbHandle, type DbOptions } from './db/client.ts';
import { migrateToLatest } from './db/migrate.ts';
import type { Database } from './db/schema.ts';
import { seedCatalog } from './db/seed.ts';
import type { Env } from './env.ts';
import { createMailer } from './adapters/mailer.ts';
import { createSimulatorGateway, type PaymentGateway } from './adapters/payments.ts';
import { createSmsSender } from './adapters/sms.ts';
import {
  createPartnerPharmacy,
  createSimulatorPharmacy,
  type Pharmacy,
} from './adapters/pharmacy.ts';
import { createStripeClient, createStripeGateway } from './adapters/stripe.ts';
import { cardEntryPage, STRIPE_SCRIPT_URL } from '#shared/card-entry.ts';
import type { AppContext } from './context.ts';
import { seedDemo } from './db/seed-demo.ts';
import { accountsRoutes } from './features/accounts/accounts.routes.ts';
import {
  EMAIL_UNDO_SECRET,
  EMAIL_VERIFY_SECRET,
  PHONE_CODE_SECRET,
  mintEmailUndo,
  mintEmailVerification,
  mintPhoneCode,
} from './features/accounts/accounts.service.ts';
import { LOGIN_UNLOCK_SECRET, mintLoginUnlock } from './features/auth/auth.devices.ts';
import { authRoutes } from './features/auth/auth.routes.ts';
import {
  PASSWORD_RESET_SECRET,
  keptSession,
  mintPasswordReset,
  resolveSession,
} from './features/auth/auth.service.ts';
import { createSessionCache } from './features/auth/session-cache.ts';
import { fastSerializerCompiler } from './lib/serializer.ts';
import { withBodyExample } from './lib/route.ts';
import { createMetrics, registerMetrics } from './plugins/metrics.ts';
import { preloadPasswordPolicy } from './features/auth/passwords.ts';
import { billingJob } from './features/billing/billing.jobs.ts';
import {
  billingFinishers,
  confirmUnpaidPayment,
  retryUnpaidOrders,
} from './features/billing/billing.service.ts';
import { cartRoutes } from './features/cart/cart.routes.ts';
import { catalogRoutes } from './features/catalog/catalog.routes.ts';
import { leadImageFor, listCatalog } from './features/catalog/catalog.service.ts';
import { createCatalogVersion } from './features/catalog/catalog.version.ts';
import { checkoutRoutes } from './features/checkout/checkout.routes.ts';
import { checkoutFinishers, staleCheckoutAttempts } from './features/checkout/checkout.service.ts';
import { clicksRoutes } from './features/clicks/clicks.routes.ts';
import { dashboardRoutes } from './features/dashboard/dashboard.routes.ts';
import { devOutboxAllowed, devOutboxRoutes } from './features/dev-outbox/dev-outbox.routes.ts';
import { operationsRoutes } from './features/operations/operations.routes.ts';
import { memberRoutes } from './features/member/member.routes.ts';
import { messagesRoutes } from './features/messages/messages.routes.ts';
import { ordersFinishers, recordProcessorRefund } from './features/orders/orders.operations.ts';
import { ordersRoutes } from './features/orders/orders.routes.ts';
import { outboxJob } from './features/outbox/outbox.jobs.ts';
import { outboxRoutes } from './features/outbox/outbox.routes.ts';
import { partnersRoutes } from './features/partners/partners.routes.ts';
import { PARTNER_INVITE_SECRET, mintPartnerInvite } from './features/partners/partners.emails.ts';
import { partnerSharesAddress, partnerShippingFor } from './features/partners/partners.shipping.ts';
import { reconcilerJob } from './features/payments/payments.jobs.ts';
import { pharmacyJob } from './features/pharmacy/pharmacy.jobs.ts';
import { renewalsRoutes } from './features/renewals/renewals.routes.ts';
import { treatmentRequestsRoutes } from './features/treatment-requests/treatment-requests.routes.ts';
import { receiptsRoutes } from './features/receipts/receipts.routes.ts';
import { renewalDueJob } from './features/renewals/renewals.service.ts';
import { pharmacyRoutes, pharmacyWebhookRoutes } from './features/pharmacy/pharmacy.routes.ts';
import { stripeWebhookRoutes } from './features/payments/payments.webhooks.routes.ts';
import { staffRoutes } from './features/staff/staff.routes.ts';
import { audit, resolveStaffSession } from './features/staff/staff.service.ts';
import { subscriptionsRoutes } from './features/subscriptions/subscriptions.routes.ts';
import { renewalRemindersJob } from './features/subscriptions/subscriptions.emails.ts';
import { reviewsRoutes } from './features/reviews/reviews.routes.ts';
import { reviewsFinishers } from './features/reviews/reviews.service.ts';
import { visitsRoutes } from './features/visits/visits.routes.ts';
import { visitsFinishers } from './features/visits/visits.submission.ts';
import { holdFinishers, staleHolds } from './features/visits/visits.holds.ts';
import { waitlistJob } from './features/visits/visits.waitlist.ts';
import { healthRoutes } from './features/health/health.routes.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { createJobRunner } from './lib/jobs.ts';
import { readBuildId } from './lib/release.ts';
import { registerErrorHandling, sendFrameworkError } from './plugins/errors.ts';
import { registerJsonBodyParser } from './plugins/json-body.ts';
import { loggerOptions, registerRequestLog } from './plugins/logging.ts';
import { registerSameOriginCheck } from './plugins/same-origin.ts';
import { registerSessions, sessionCookieName } from './plugins/session.ts';
import { registerStaffSessions, staffCookieName } from './plugins/staff-session.ts';
import { loadPrerender } from './plugins/prerender.ts';
import { registerWebApp } from './plugins/web-app.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    dbHandle: DbHandle;
    clock: Clock;
    env: Env;
    ctx: AppContext;
  }
}

export interface BuildAppOptions {
  env: Env;
  clock?: Clock;
  /** Database options beyond what env says (tests pass a PostgreSQL schema or an in-memory file). */
  database?: Partial<DbOptions>;
  /** Where the built web app lives; defaults to dist/client next to the server bundle. */
  clientDir?: string;
  /** Capture log lines (tests scan them for secrets). */
  logStream?: NodeJS.WritableStream;
  /** Where unexpected errors are reported (default: Sentry when SENTRY_DSN is set). */
  errorReporter?: ErrorReporter;
  /** The payment gateway (default: the built-in simulator). */
  payments?: PaymentGateway;
  /** The pharmacy (default: what PHARMACY_* choose: a partner, or the built-in simulator). */
  pharmacy?: Pharmacy;
  /**
   * Stripe (issue 28) in place of what the environment's STRIPE_* keys choose: the gateway, what
   * its webhook endpoint (`POST /lapi/webhooks/stripe`) needs, and the publishable key the card
   * forms load Stripe.js with. Without either, the simulator takes the cards and the endpoint
   * does not exist.
   */
  stripe?: StripeSetup;
  /** Skip migrations and seeding (for a database someone else prepared). */
  skipMigrations?: boolean;
  /** Told of every route as it is registered (the abuse tests fuzz the real route table). */
  onRoute?: (route: RouteOptions) => void;
}

const here = path.dirname(fileURLToPath(import.meta.url));

export interface StripeSetup {
  gateway: PaymentGateway;
  webhookSecret: string;
  secretKey: string;
  publishableKey: string;
  /** Another host for Stripe's API and Stripe.js (a local fake); unset for Stripe itself. */
  apiBase?: string;
}

/** Stripe as the caller gave it, or as the environment's keys choose it; null: the simulator. */
function stripeSetupOf(env: Env, given: StripeSetup | undefined): StripeSetup | null {
  if (given) return given;
  const secretKey = env.STRIPE_SECRET_KEY;
  const publishableKey = env.STRIPE_PUBLISHABLE_KEY;
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET;
  if (!secretKey || !publishableKey || !webhookSecret) return null;
  const apiBase = env.STRIPE_API_BASE;
  return {
    gateway: createStripeGateway({
      secretKey,
      ...(apiBase ? { apiBase } : {}),
      statementDescriptorSuffix: env.STRIPE_STATEMENT_DESCRIPTOR_SUFFIX,
    }),
    secretKey,
    publishableKey,
    webhookSecret,
    ...(apiBase ? { apiBase } : {}),
  };
}

/** Where Stripe.js and its frames come from, and where they call: Stripe's own, or the fake's. */
function stripeOrigins(stripe: StripeSetup) {
  if (stripe.apiBase) {
    const origin = new URL(stripe.apiBase).origin;
    return {
      scriptUrl: new URL('/v3/', origin).href,
      script: [origin],
      frame: [origin],
      connect: [origin],
    };
  }
  // docs.stripe.com/security/guide#content-security-policy (the address autocomplete's Google
  // Maps sources are left out: the Address Element is not used).
  return {
    scriptUrl: STRIPE_SCRIPT_URL,
    script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
    frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
    connect: ['https://api.stripe.com'],
  };
}

function defaultClientDir(): string {
  // Bundled: dist/server/main.js → dist/client. From source: src/server → dist/client.
  return path.basename(path.dirname(here)) === 'dist'
    ? path.resolve(here, '../client')
    : path.resolve(here, '../../dist/client');
}

export function runtimeConfigFor(
  env: Env,
  buildId: string,
  stripe: StripeSetup | null = null,
): RuntimeConfig {
  return {
    features: { login: env.FEATURE_LOGIN, onlineVisit: env.FEATURE_ONLINE_VISIT },
    sentryDsn: env.SENTRY_DSN ?? null,
    payments: stripe
      ? {
          processor: 'stripe',
          publishableKey: stripe.publishableKey,
          scriptUrl: stripeOrigins(stripe).scriptUrl,
        }
      : { processor: 'simulator' },
    gtmId: env.GTM_ID ?? null,
    environment: env.NODE_ENV,
    versionCheck: env.VERSION_CHECK,
    version: buildId,
  };
}

/**
 * What a page that may load the tag manager (GTM_ID, decision 020) adds to the policy: Google's
 * list for Tag Manager with Google Analytics 4 (developers.google.com/tag-platform/security/guides/
 * csp). No 'unsafe-inline' and no 'unsafe-eval': a container's Custom HTML tags and Custom
 * JavaScript variables do not run, and what its tags send can only go to Google Analytics.
 */
const tagManagerSources = {
  script: ['https://*.googletagmanager.com'],
  img: ['https://*.google-analytics.com', 'https://*.googletagmanager.com'],
  connect: [
    'https://*.google-analytics.com',
    'https://*.analytics.google.com',
    'https://*.googletagmanager.com',
  ],
};

/**
 * What a page may load besides its own origin: the tag manager's sources on the storefront's public
 * pages (with GTM_ID), Stripe's on the pages where a card is typed (in Stripe mode).
 */
interface PageSources {
  tagManager: boolean;
  stripe: ReturnType<typeof stripeOrigins> | null;
}

function contentSecurityPolicy(env: Env, page: PageSources) {
  const connectSrc = ["'self'"];
  if (env.SENTRY_DSN) connectSrc.push(new URL(env.SENTRY_DSN).origin);
  const gtm = (sources: string[]) => (page.tagManager ? sources : []);
  const stripe = page.stripe;
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", ...gtm(tagManagerSources.script), ...(stripe?.script ?? [])],
      // Radix's scroll lock writes a <style> element; no script can be injected through styles.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:', ...gtm(tagManagerSources.img)],
      fontSrc: ["'self'"],
      connectSrc: [...connectSrc, ...gtm(tagManagerSources.connect), ...(stripe?.connect ?? [])],
      ...(stripe ? { frameSrc: stripe.frame } : {}),
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      manifestSrc: ["'self'"],
      workerSrc: ["'self'", 'blob:'],
      ...(env.NODE_ENV === 'production' ? { upgradeInsecureRequests: [] } : {}),
    },
  };
}

/**
 * The security headers, computed once: helmet's own values (the CSP above, HSTS in production, and
 * its defaults) collected from its middleware at start, then set on every answer. The Fastify
 * plugin rebuilt them and re-parsed the CSP on every request. `page`: what the page may load
 * besides (the tag manager, Stripe); by default nothing.
 */
export function securityHeaders(
  env: Env,
  page: PageSources = { tagManager: false, stripe: null },
): Record<string, string> {
  const headers: Record<string, string> = {};
  const collector = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet({
    contentSecurityPolicy: contentSecurityPolicy(env, page),
    crossOriginEmbedderPolicy: false,
    hsts: env.NODE_ENV === 'production',
  })({} as IncomingMessage, collector as unknown as ServerResponse, () => undefined);
  return headers;
}

/** What an incoming `X-Request-Id` may be: a proxy's id (a UUID, a hex trace id, …), nothing else. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * Every request's id, in its log line, its error body and its `X-Request-Id` answer header. Behind
 * a trusted proxy (`TRUST_PROXY`) the proxy's own id is kept, so one id follows the request through
 * both logs; otherwise, or when it is not a plausible id, a new UUID.
 */
export function requestIdFor(env: Env, incoming: string | string[] | undefined): string {
  if (env.TRUST_PROXY && typeof incoming === 'string' && REQUEST_ID.test(incoming)) return incoming;
  return crypto.randomUUID();
}

/** The whole application, ready to listen or to be called with `inject` in tests. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { env } = options;
  const app = Fastify({
    logger: loggerOptions(env, options.logStream),
    // Fastify's two lines per request are replaced by registerRequestLog's one.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: (request) => requestIdFor(env, request.headers['x-request-id']),
    trustProxy: env.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    frameworkErrors: sendFrameworkError,
  }).withTypeProvider<ZodTypeProvider>();

  registerRequestLog(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(fastSerializerCompiler(env.NODE_ENV === 'test'));
  registerJsonBodyParser(app);
  const { onRoute } = options;
  if (onRoute) app.addHook('onRoute', (route) => onRoute(route));

  const databaseOptions = {
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    onPoolError: (error: Error) => app.log.error({ err: error }, 'database connection lost'),
    ...options.database,
  };
  const dbHandle = openDatabase(databaseOptions);
  app.decorate('dbHandle', dbHandle);
  app.decorate('db', dbHandle.db);
  const clock = options.clock ?? systemClock;
  app.decorate('clock', clock);
  app.decorate('env', env);
  const clientDir = options.clientDir ?? defaultClientDir();
  const buildId = readBuildId(clientDir);
  const reporter =
    options.errorReporter ?? (await createErrorReporter(env, { release: releaseName(buildId) }));
  // Added first, so it runs last (onClose hooks run in reverse): what jobs report as they stop is
  // sent too. A reporter passed in belongs to the caller.
  app.addHook('onClose', async () => {
    if (!options.errorReporter) await reporter.close?.(2000);
  });
  // Before the job runner's hook, so it runs after it: jobs finish their batch, then the database
  // closes.
  app.addHook('onClose', async () => {
    await dbHandle.close();
  });
  const sessions = createSessionCache(databaseOptions, dbHandle.dataVersion);
  const metrics = createMetrics(env, dbHandle.db);
  app.addHook('onClose', () => sessions.close());
  const stripe = stripeSetupOf(env, options.stripe);
  const ctx: AppContext = {
    db: dbHandle.db,
    clock,
    env,
    mailer: createMailer({
      smtpUrl: env.SMTP_URL,
      from: env.MAIL_FROM,
      dataDir: env.DATA_DIR,
      now: () => clock.now(),
    }),
    sms: createSmsSender({ dataDir: env.DATA_DIR, now: () => clock.now() }),
    payments: stripe?.gateway ?? options.payments ?? createSimulatorGateway(dbHandle.db),
    // A partner pharmacy when its three settings are given (env.ts checks all or none).
    pharmacy:
      options.pharmacy ??
      (env.PHARMACY_URL && env.PHARMACY_API_KEY
        ? createPartnerPharmacy({ url: env.PHARMACY_URL, apiKey: env.PHARMACY_API_KEY })
        : createSimulatorPharmacy(dbHandle.db, {
            delaySeconds: env.PHARMACY_SIMULATOR_DELAY_SECONDS,
            now: () => clock.now(),
          })),
    jobs: createJobRunner(app, reporter, metrics?.jobRan),
    reporter,
    sessions,
    catalog: createCatalogVersion(dbHandle.db, clock, (error) =>
      app.log.warn({ err: error }, 'could not read the catalogue version'),
    ),
    staffAudit: audit,
  };
  app.decorate('ctx', ctx);
  preloadPasswordPolicy();

  if (!options.skipMigrations) {
    await migrateToLatest(dbHandle.db);
    await seedCatalog(dbHandle.db);
    if (env.SEED_DEMO && env.NODE_ENV !== 'production') await seedDemo(ctx);
  }

  // Every answer gets the strict set. With GTM_ID, the storefront's public pages get one whose
  // policy lets the tag manager load (decision 020); in Stripe mode, the pages where a card is
  // typed get one that lets Stripe.js and its frames in (issue 28). Each set is computed once.
  const stripeSources = stripe ? stripeOrigins(stripe) : null;
  const securitySets = new Map<string, Record<string, string>>();
  const securityFor = (tagManager: boolean, withStripe: boolean) => {
    const name = `${tagManager}:${withStripe}`;
    let headers = securitySets.get(name);
    if (!headers) {
      headers = securityHeaders(env, { tagManager, stripe: withStripe ? stripeSources : null });
      securitySets.set(name, headers);
    }
    return headers;
  };
  const security = securityFor(false, false);
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method !== 'GET') {
      reply.headers(security);
    } else {
      const pathname = (request.raw.url ?? '/').split('?')[0] ?? '/';
      reply.headers(
        securityFor(
          env.GTM_ID !== undefined && tagManagerPage(pathname),
          stripeSources !== null && cardEntryPage(pathname),
        ),
      );
    }
    reply.header('X-Request-Id', request.id);
    done();
  });
  await app.register(fastifyCompress, { threshold: 1024 });
  await app.register(fastifyCookie);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${site.name} API`,
        version: '1',
        description: 'v1 calls under /lapi/, v2 commerce calls under /lapi/v2/.',
      },
      servers: [{ url: '/', description: 'This instance' }],
      components: {
        securitySchemes: {
          customerSession: { type: 'apiKey', in: 'cookie', name: sessionCookieName(env) },
          staffSession: { type: 'apiKey', in: 'cookie', name: staffCookieName(env) },
        },
      },
    },
    transform: (input) => withBodyExample(jsonSchemaTransform(input)),
    // The pages (/, /shop, …) are the web app's, not the API's: only tagged routes are described.
    hideUntagged: true,
  });
  registerSameOriginCheck(app);

  const runtimeConfig = runtimeConfigFor(env, buildId, stripe);
  const servesPages = await registerWebApp(app, clientDir, runtimeConfig, {
    leadImage: (pathname) => leadImageFor(ctx.db, pathname),
    prerender: await loadPrerender(clientDir, runtimeConfig, () => listCatalog(ctx.db)),
    catalogVersion: () => ctx.catalog.current(),
  });
  registerErrorHandling(app, reporter, servesPages);

  // The API reference (Swagger UI, served from this origin) at /lapi/docs, the document itself
  // beside it at /lapi/docs/json and /lapi/docs/yaml.
  await app.register(fastifySwaggerUi, {
    routePrefix: `${API_PREFIX}/docs`,
    // The reference alone: no bar for loading another document, no framework logo.
    uiConfig: {
      layout: 'BaseLayout',
      docExpansion: 'list',
      deepLinking: true,
      defaultModelsExpandDepth: 0,
    },
  });
  await app.register(healthRoutes);
  if (metrics) registerMetrics(app, env, metrics);
  if (devOutboxAllowed(env)) await app.register(devOutboxRoutes(ctx));
  if (stripe)
    await app.register(
      stripeWebhookRoutes(ctx, {
        stripe: createStripeClient(stripe),
        webhookSecret: stripe.webhookSecret,
        // Payments record what Stripe refunded through orders, as they finish orders' calls.
        recordRefund: recordProcessorRefund,
      }),
    );
  if (env.PHARMACY_WEBHOOK_SECRET)
    await app.register(pharmacyWebhookRoutes(ctx, env.PHARMACY_WEBHOOK_SECRET));
  await app.register(
    async (api) => {
      registerSessions(api, ctx, { kept: keptSession, resolve: resolveSession });
      registerStaffSessions(api, ctx, resolveStaffSession);
      await api.register(fastifyMultipart, {
        limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 4, parts: 6 },
      });
      await api.register(catalogRoutes);
      await api.register(authRoutes(ctx));
      await api.register(
        accountsRoutes(ctx, {
          cardReplaced: [retryUnpaidOrders],
          confirmPayment: confirmUnpaidPayment,
        }),
      );
      await api.register(ordersRoutes(ctx));
      await api.register(memberRoutes(ctx));
      await api.register(cartRoutes(ctx));
      await api.register(
        checkoutRoutes(ctx, {
          shippingFor: partnerShippingFor,
          sharesAddress: partnerSharesAddress,
        }),
      );
      await api.register(clicksRoutes(ctx));
      await api.register(subscriptionsRoutes(ctx));
      await api.register(staffRoutes(ctx));
      await api.register(operationsRoutes(ctx));
      await api.register(outboxRoutes(ctx));
      await api.register(pharmacyRoutes(ctx));
      await api.register(dashboardRoutes(ctx));
      await api.register(visitsRoutes(ctx));
      await api.register(renewalsRoutes(ctx));
      await api.register(treatmentRequestsRoutes(ctx));
      await api.register(receiptsRoutes(ctx));
      await api.register(reviewsRoutes(ctx));
      await api.register(messagesRoutes(ctx));
      await api.register(partnersRoutes(ctx));
    },
    { prefix: API_PREFIX },
  );

  ctx.jobs.add(billingJob(ctx));
  ctx.jobs.add(renewalRemindersJob(ctx));
  ctx.jobs.add(renewalDueJob(ctx));
  // Payments finishes what a crash interrupted through the finishers each feature names for the
  // purposes of its own calls: payments imports none of them.
  ctx.jobs.add(
    reconcilerJob(ctx, {
      finishers: [
        checkoutFinishers,
        billingFinishers,
        visitsFinishers,
        holdFinishers,
        reviewsFinishers,
        ordersFinishers,
      ],
      staleWork: [staleCheckoutAttempts, staleHolds],
    }),
  );
  ctx.jobs.add(waitlistJob(ctx));
  ctx.jobs.add(pharmacyJob(ctx));
  ctx.jobs.add(
    outboxJob(ctx, {
      minters: {
        [PASSWORD_RESET_SECRET]: mintPasswordReset,
        [PHONE_CODE_SECRET]: mintPhoneCode,
        [LOGIN_UNLOCK_SECRET]: mintLoginUnlock,
        [EMAIL_UNDO_SECRET]: mintEmailUndo,
        [EMAIL_VERIFY_SECRET]: mintEmailVerification,
        [PARTNER_INVITE_SECRET]: mintPartnerInvite,
      },
      log: app.log,
    }),
  );
  return app;
}
