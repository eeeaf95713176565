import type { Kysely } from 'kysely';
import type { ErrorReporter } from './adapters/error-reporter.ts';
import type { Mailer } from './adapters/mailer.ts';
import type { PaymentGateway } from './adapters/payments.ts';
import type { Pharmacy } from './adapters/pharmacy.ts';
import type { SmsSender } from './adapters/sms.ts';
import type { Database } from './db/schema.ts';
import type { SessionCache } from './features/auth/session-cache.ts';
import type { CatalogVersion } from './features/catalog/catalog.version.ts';
import type { Env } from './env.ts';
import type { Clock } from './lib/clock.ts';
import type { JobRunner } from './lib/jobs.ts';
import type { AuditWriter } from './lib/staff-audit.ts';

/** What a service may use besides its arguments: the database and the outside world's adapters. */
export interface AppContext {
  db: Kysely<Database>;
  clock: Clock;
  env: Env;
  mailer: Mailer;
  sms: SmsSender;
  payments: PaymentGateway;
  /** Where prescriptions are filled (default: the built-in simulator; decision 022). */
  pharmacy: Pharmacy;
  /** Background jobs of this process: a change that queues work may kick its job. */
  jobs: JobRunner;
  reporter: ErrorReporter;
  /** Customer sessions kept for a few seconds (PostgreSQL only; see session-cache.ts). */
  sessions: SessionCache;
  /** The catalogue's version, read at most once a second: what is kept of it is kept under it. */
  catalog: CatalogVersion;
  /** Writes the staff audit log (the staff feature's writer, given at start; see lib/staff-audit.ts). */
  staffAudit: AuditWriter;
}
