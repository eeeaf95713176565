// `npm run lighthouse`: Lighthouse (its own package in bench/lighthouse/, installed here with
// `npm ci` when missing) against the built server on `/`, a product page and `/login`, mobile
// settings. Prints the scores; writes them to bench/results/lighthouse.json.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureBuild, rootDir, startPairwell } from './server.ts';

const log = (line: string) => process.stdout.write(`${line}\n`);
const packageDir = path.join(rootDir, 'bench/lighthouse');
const targets = { performance: 95, accessibility: 100 };

async function main(): Promise<number> {
  if (!fs.existsSync(path.join(packageDir, 'node_modules/lighthouse/package.json'))) {
    log('Installing Lighthouse (npm ci --prefix bench/lighthouse)…');
    const install = spawnSync('npm', ['ci', '--prefix', packageDir, '--no-fund', '--no-audit'], {
      cwd: rootDir,
      stdio: 'inherit',
    });
    if (install.status !== 0) throw new Error('npm ci in bench/lighthouse failed');
  }
  ensureBuild(log);
  const server = await startPairwell();
  try {
    const paths = ['/', '/shop/sleep-gummies', '/login'];
    const run = spawnSync(
      process.execPath,
      [path.join(packageDir, 'run.mjs'), server.url, ...paths, '--json'],
      { cwd: packageDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    );
    if (run.status !== 0) throw new Error(`Lighthouse exited with ${run.status}`);
    const lines = run.stdout.trimEnd().split('\n');
    const summary = JSON.parse(lines.pop() ?? '{}') as {
      pages: { path: string; scores: Record<string, number> }[];
    };
    for (const line of lines) log(line);
    const missed = summary.pages.flatMap((page) =>
      Object.entries(targets)
        .filter(([category, target]) => (page.scores[category] ?? 0) < target)
        .map(
          ([category, target]) => `${page.path} ${category} ${page.scores[category]} < ${target}`,
        ),
    );
    log(
      missed.length === 0
        ? 'Targets met (performance ≥ 95, accessibility 100).'
        : `Targets missed: ${missed.join('; ')}`,
    );
    const file = path.join(rootDir, 'bench/results/lighthouse.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      `${JSON.stringify({ date: new Date().toISOString(), lighthouse: '12.8', formFactor: 'mobile', ...summary }, null, 2)}\n`,
    );
    log(`Results written to ${path.relative(rootDir, file)}`);
    return 0;
  } finally {
    await server.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `lighthouse failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
