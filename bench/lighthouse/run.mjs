/* global process, URL */
// Lighthouse 12.8 (mobile, the default settings) in Debian's Chromium against a running Pairwell:
// `node run.mjs <base URL> <path>…`. Prints the four scores per page and every audit that keeps
// accessibility under 100; writes the summary as JSON to stdout's last line when --json is given.
// The root's `npm run lighthouse` starts the built server and calls this.
//
// Each page is measured LIGHTHOUSE_RUNS times (3 by default) and the median run is reported, as
// Lighthouse's own documentation advises: on a two-core machine one run's performance score moves
// by ten points from the CPU time it happens to get. Every run's performance score is kept too.
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';

const args = process.argv.slice(2);
const json = args.includes('--json');
const [baseUrl, ...paths] = args.filter((arg) => arg !== '--json');
if (!baseUrl || paths.length === 0) {
  process.stderr.write('usage: node run.mjs <base URL> <path>… [--json]\n');
  process.exit(2);
}

const categories = ['performance', 'accessibility', 'best-practices', 'seo'];
const runsPerPage = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3) || 3);
const out = (line = '') => process.stdout.write(`${line}\n`);

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
});

const pages = [];
try {
  for (const path of paths) {
    const url = new URL(path, baseUrl).toString();
    const runs = [];
    for (let run = 0; run < runsPerPage; run++) {
      const result = await lighthouse(url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: categories,
      });
      if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
      // A run Lighthouse could not finish (no paint, a page that did not load) says why here;
      // computeMedianRun would only say that a run lacks a first paint.
      const failed = result.lhr.runtimeError;
      if (failed) throw new Error(`${url}, run ${run + 1}: ${failed.code}: ${failed.message}`);
      runs.push(result.lhr);
    }
    const lhr = computeMedianRun(runs);
    const performanceRuns = runs.map((run) =>
      Math.round((run.categories.performance?.score ?? 0) * 100),
    );
    const scores = Object.fromEntries(
      categories.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)]),
    );
    const failing = (id) =>
      (lhr.categories[id]?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0)
        .map((ref) => lhr.audits[ref.id])
        .filter((audit) => audit && audit.score !== null && audit.score < 1)
        .map((audit) => ({ id: audit.id, title: audit.title, score: audit.score }));
    const metrics = Object.fromEntries(
      [
        'first-contentful-paint',
        'largest-contentful-paint',
        'total-blocking-time',
        'cumulative-layout-shift',
        'speed-index',
      ].map((id) => [id, lhr.audits[id]?.displayValue ?? null]),
    );
    pages.push({
      path,
      scores,
      performanceRuns,
      metrics,
      failingAccessibility: failing('accessibility'),
      failingBestPractices: failing('best-practices'),
      failingSeo: failing('seo'),
      runWarnings: lhr.runWarnings,
    });
  }
} finally {
  await chrome.kill();
}

out(
  `Lighthouse 12.8, mobile (default settings), Debian Chromium; the median of ${runsPerPage} run(s) per page`,
);
out(
  `${'page'.padEnd(28)}${'perf'.padStart(6)}${'a11y'.padStart(6)}${'best'.padStart(6)}${'seo'.padStart(6)}`,
);
for (const page of pages) {
  const s = page.scores;
  out(
    `${page.path.padEnd(28)}${String(s.performance).padStart(6)}${String(s.accessibility).padStart(6)}${String(s['best-practices']).padStart(6)}${String(s.seo).padStart(6)}`,
  );
}
for (const page of pages) {
  const m = page.metrics;
  out(
    `  ${page.path}: FCP ${m['first-contentful-paint']}, LCP ${m['largest-contentful-paint']}, TBT ${m['total-blocking-time']}, CLS ${m['cumulative-layout-shift']}, SI ${m['speed-index']}; performance of each run ${page.performanceRuns.join(', ')}`,
  );
  for (const [label, list] of [
    ['accessibility', page.failingAccessibility],
    ['best practices', page.failingBestPractices],
    ['SEO', page.failingSeo],
  ])
    for (const audit of list) out(`    ${label} audit failing: ${audit.id} — ${audit.title}`);
  for (const warning of page.runWarnings) out(`    warning: ${warning}`);
}
if (json) out(JSON.stringify({ pages }));
