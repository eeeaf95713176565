// The size budget (issue #7): how much gzipped JavaScript a first visit may download, per route.
// Pure functions, so the failing case is tested with synthetic sizes (size-budget.test.ts).

export const KiB = 1024;

export type RouteGroup = 'storefront' | 'member';

/**
 * The budgets of issue #7, which CI enforces: the gzipped JavaScript a first visit may download, at
 * most 90 KiB for a storefront page and 160 KiB for the member area (decision 007).
 */
export const budgets: Record<RouteGroup, number> = {
  storefront: 90 * KiB,
  member: 160 * KiB,
};

export interface RouteSize {
  /** The route as the report names it (`/`, `/shop/:slug`, `/dashboard`). */
  route: string;
  group: RouteGroup;
  /** What was loaded to measure it (for the report). */
  visit: string;
  /** Gzipped (level 9) JavaScript, summed over every script the visit downloaded. */
  gzipBytes: number;
  /** The same scripts uncompressed. */
  rawBytes: number;
  scripts: number;
}

export interface BudgetFailure {
  route: string;
  gzipBytes: number;
  budgetBytes: number;
}

/** The routes over their group's budget; empty when every route fits. */
export function checkBudgets(
  sizes: readonly RouteSize[],
  limits: Record<RouteGroup, number> = budgets,
): BudgetFailure[] {
  return sizes
    .filter((size) => size.gzipBytes > limits[size.group])
    .map((size) => ({
      route: size.route,
      gzipBytes: size.gzipBytes,
      budgetBytes: limits[size.group],
    }));
}

export function formatKiB(bytes: number): string {
  return `${(bytes / KiB).toFixed(1)} KiB`;
}

/** The report both `npm run size` and `npm run bench` print. */
export function formatSizeReport(
  sizes: readonly RouteSize[],
  failures: readonly BudgetFailure[],
  limits: Record<RouteGroup, number> = budgets,
): string {
  const lines = ['JavaScript downloaded by a first visit (gzipped, measured in Chromium):'];
  for (const size of sizes) {
    const limit = limits[size.group];
    const over = failures.some((failure) => failure.route === size.route);
    const margin = over
      ? `${formatKiB(size.gzipBytes - limit)} over`
      : `${formatKiB(limit - size.gzipBytes)} to spare`;
    lines.push(
      `  ${size.route.padEnd(14)}${formatKiB(size.gzipBytes).padStart(11)} of ${formatKiB(limit).padStart(10)}  ${over ? 'OVER BUDGET' : 'ok'}  (${margin}; ${size.scripts} scripts, ${formatKiB(size.rawBytes)} raw; ${size.visit})`,
    );
  }
  lines.push(
    failures.length === 0
      ? 'Size budget: every route fits.'
      : `Size budget exceeded: ${failures.map((f) => `${f.route} by ${formatKiB(f.gzipBytes - f.budgetBytes)}`).join(', ')}.`,
  );
  return lines.join('\n');
}
