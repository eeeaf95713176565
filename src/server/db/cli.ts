import { parseEnv } from '#server/env.ts';
import { openDatabase } from './client.ts';
import { migrateToLatest } from './migrate.ts';
import { seedCatalog } from './seed.ts';

/** `npm run db:migrate` and `npm run db:seed`, against DATABASE_URL or the SQLite file in DATA_DIR. */
async function run(command: string | undefined): Promise<void> {
  const env = parseEnv();
  const handle = openDatabase({ dataDir: env.DATA_DIR, databaseUrl: env.DATABASE_URL });
  const where = handle.dialect === 'postgres' ? 'PostgreSQL' : handle.file;
  try {
    if (command === 'migrate') {
      const applied = await migrateToLatest(handle.db);
      process.stdout.write(
        applied.length ? `Applied ${applied.join(', ')} to ${where}\n` : `${where} is up to date\n`,
      );
    } else if (command === 'seed') {
      await migrateToLatest(handle.db);
      await seedCatalog(handle.db);
      process.stdout.write(`Seeded the catalogue into ${where}\n`);
    } else {
      process.stderr.write('Usage: cli.ts migrate | seed\n');
      process.exitCode = 2;
    }
  } finally {
    await handle.close();
  }
}

run(process.argv[2]).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
