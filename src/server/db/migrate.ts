import { Migrator, PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';

async function migratorFor(db: Kysely<Database>): Promise<Migrator> {
  return new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    // On PostgreSQL, Kysely looks for its own tables in every schema unless told which one; name
    // the schema this connection works in, so two apps on one database never see each other's.
    ...(await pgSchemaOf(db)),
  });
}

/** Applies every pending migration; returns the names applied. Safe to run from several instances. */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = await migratorFor(db);
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** The migrations this build knows that the database has not applied (readiness: none). */
export async function pendingMigrations(db: Kysely<Database>): Promise<string[]> {
  const known = await (await migratorFor(db)).getMigrations();
  return known.filter((migration) => migration.executedAt === undefined).map((m) => m.name);
}

async function pgSchemaOf(db: Kysely<Database>): Promise<{ migrationTableSchema?: string }> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return {};
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema;
  return schema ? { migrationTableSchema: schema } : {};
}
