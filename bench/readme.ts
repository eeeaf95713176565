// `npm run bench -- readme`: rewrites the Performance table in README.md (between its
// `bench:performance` markers) from bench/results/latest.json, formatted by Prettier as the rest
// of the README is. The figures are the last full bench run's; nothing is measured here.
import fs from 'node:fs';
import path from 'node:path';
import prettier from 'prettier';
import { rootDir } from './server.ts';

const START = '<!-- bench:performance:start (npm run bench -- readme writes this part) -->';
const END = '<!-- bench:performance:end -->';

interface Figures {
  name: string;
  cpuPerRequestUs: number;
  ratioToBare: number;
  ratioToReference: number;
  rps: number;
  p99Ms: number;
  sqlPerRequest: number | null;
  cpuRatioToSqlite?: number;
}

interface GrowthPoint {
  size: number;
  medianMs: number;
  cpuPerRequestUs: number;
  bytes: number;
}

interface Results {
  date: string;
  machine: { cores: number; loadAverageAtStart: number[] };
  settings: { connections: number; durationSeconds: number; rounds: number };
  yardsticks: { bare: Figures; reference: Figures };
  targets: Record<string, { sqlite?: Figures; postgres?: Figures }>;
  servers: Record<string, { peakRssMiB: number | null; rssAfterStartMiB?: number | null }>;
  growth: Record<string, { orders: GrowthPoint[]; messages: GrowthPoint[] }>;
}

const num = (value: number | null | undefined, digits = 0) =>
  value === null || value === undefined || !Number.isFinite(value)
    ? '–'
    : value.toLocaleString('en-US', {
        maximumFractionDigits: digits,
        minimumFractionDigits: digits,
      });

const kb = (bytes: number) => `${num(bytes / 1000, 1)} KB`;

export function performanceSection(results: Results): string {
  const withPg = Object.values(results.targets).some((t) => t.postgres);
  const header = [
    'target',
    'CPU µs per request',
    '÷ bare',
    '÷ reference',
    'req/s',
    'p99 ms',
    'SQL per request',
    ...(withPg ? ['PostgreSQL CPU µs', 'PostgreSQL ÷ SQLite'] : []),
  ];
  const rows: string[][] = [];
  const row = (label: string, f: Figures, pg?: Figures) =>
    rows.push([
      label,
      num(f.cpuPerRequestUs),
      num(f.ratioToBare, 1),
      num(f.ratioToReference, 1),
      num(f.rps),
      num(f.p99Ms, 1),
      num(f.sqlPerRequest, 1),
      ...(withPg ? [num(pg?.cpuPerRequestUs), num(pg?.cpuRatioToSqlite, 2)] : []),
    ]);
  row('bare Fastify route', results.yardsticks.bare);
  row('reference catalogue (Fastify + better-sqlite3)', results.yardsticks.reference);
  for (const target of Object.values(results.targets))
    if (target.sqlite) row(target.sqlite.name, target.sqlite, target.postgres);

  const table = [
    `| ${header.join(' | ')} |`,
    `| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`,
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
  ];
  const growth = results.growth.sqlite;
  const growthLine = (points: GrowthPoint[]) =>
    points
      .map(
        (p) =>
          `${num(p.size)}: ${num(p.medianMs, 1)} ms (${num(p.cpuPerRequestUs / 1000, 1)} ms CPU), ${kb(p.bytes)}`,
      )
      .join('; ');
  const rss = (name: string) => results.servers[name]?.peakRssMiB;
  const lines = [
    START,
    '',
    `Last full run: ${results.date.slice(0, 10)}, ${results.machine.cores} cores, load average ${results.machine.loadAverageAtStart.join(' ')} at start; ${results.settings.rounds} interleaved rounds of ${results.settings.durationSeconds} s per target, ${results.settings.connections} connections, SQLite unless stated.`,
    '',
    ...table,
    '',
    ...(growth
      ? [
          `Orders details by orders, each call read anew after a write to the customer (median latency, server CPU per call, JSON size): ${growthLine(growth.orders)}. A conversation by messages: ${growthLine(growth.messages)}.`,
          '',
        ]
      : []),
    `Peak memory over the whole bench, a burst of 20 concurrent log-ins included: ${num(rss('sqlite'), 1)} MiB on SQLite${rss('postgres') ? `, ${num(rss('postgres'), 1)} MiB on PostgreSQL` : ''} (the bare Fastify app ${num(rss('bare'), 1)} MiB, the reference ${num(rss('reference'), 1)} MiB).`,
    '',
    END,
  ];
  return lines.join('\n');
}

export async function updateReadme(resultsFile: string, log: (line: string) => void) {
  if (!fs.existsSync(resultsFile)) throw new Error(`${resultsFile} is missing: run npm run bench`);
  const results = JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as Results;
  if (!results.yardsticks)
    throw new Error(`${resultsFile} is from an older bench: run npm run bench first`);
  const readmeFile = path.join(rootDir, 'README.md');
  const readme = fs.readFileSync(readmeFile, 'utf8');
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start === -1 || end === -1 || end < start)
    throw new Error(`README.md has no ${START} … ${END} section to write`);
  const next =
    readme.slice(0, start) + performanceSection(results) + readme.slice(end + END.length);
  const options = (await prettier.resolveConfig(readmeFile)) ?? {};
  fs.writeFileSync(readmeFile, await prettier.format(next, { ...options, filepath: readmeFile }));
  log('README.md: Performance table written from bench/results/latest.json');
}
