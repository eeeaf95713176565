import { buildApp } from './app.ts';
import { EnvError, parseEnv } from './env.ts';
import { reportProcessErrors } from './lib/process-errors.ts';

async function main(): Promise<void> {
  let env;
  try {
    env = parseEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  const app = await buildApp({ env });
  reportProcessErrors(process, {
    reporter: app.ctx.reporter,
    log: app.log,
    exit: (code) => process.exit(code),
  });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Requests in flight finish; if anything hangs, leave anyway before an orchestrator kills us.
    const timer = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 4000);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ port: env.PORT, host: env.HOST });
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Pairwell could not start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
