// `npm run size`: the gzipped JavaScript a first visit to `/`, `/shop/:slug` and `/dashboard`
// downloads, measured in Chromium against the built server, checked against the budget. Exits 1
// when a route is over. Builds first only when dist/ is missing or older than src/.
import { ensureBuild, startPairwell } from '../bench/server.ts';
import { checkBudgets, formatSizeReport } from './size-budget.ts';
import { measureRouteSizes } from './size-measure.ts';

const log = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<number> {
  ensureBuild(log);
  const server = await startPairwell();
  try {
    const sizes = await measureRouteSizes(server.url);
    const failures = checkBudgets(sizes);
    log(formatSizeReport(sizes, failures));
    return failures.length === 0 ? 0 : 1;
  } finally {
    await server.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `size check failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
