import { describe, expect, it } from 'vitest';
import { budgets, checkBudgets, formatSizeReport, KiB, type RouteSize } from './size-budget.ts';

const size = (route: string, group: RouteSize['group'], gzipKiB: number): RouteSize => ({
  route,
  group,
  visit: `open ${route}`,
  gzipBytes: Math.round(gzipKiB * KiB),
  rawBytes: Math.round(gzipKiB * KiB * 3),
  scripts: 4,
});

// Issue #7's budgets, written out: the check is held to them explicitly, and CI enforces them.
const issueBudgets = { storefront: 90 * KiB, member: 160 * KiB };

describe('size budget', () => {
  it('passes when every route is at or under its group budget', () => {
    const sizes = [
      size('/', 'storefront', 90),
      size('/shop/:slug', 'storefront', 60),
      size('/dashboard', 'member', 160),
    ];
    expect(checkBudgets(sizes, issueBudgets)).toEqual([]);
    expect(formatSizeReport(sizes, [], issueBudgets)).toContain('every route fits');
  });

  it('fails a storefront route one byte over 90 KiB, naming it and the budget', () => {
    const sizes = [
      { ...size('/', 'storefront', 90), gzipBytes: 90 * KiB + 1 },
      size('/dashboard', 'member', 150),
    ];
    const failures = checkBudgets(sizes, issueBudgets);
    expect(failures).toEqual([{ route: '/', gzipBytes: 90 * KiB + 1, budgetBytes: 90 * KiB }]);
    expect(formatSizeReport(sizes, failures, issueBudgets)).toMatch(
      /\/\s+90\.0 KiB of\s+90\.0 KiB {2}OVER BUDGET/,
    );
  });

  it('holds the member area to 160 KiB, not to the storefront budget', () => {
    const failures = checkBudgets(
      [size('/dashboard', 'member', 150), size('/account', 'member', 161)],
      issueBudgets,
    );
    expect(failures.map((failure) => failure.route)).toEqual(['/account']);
  });

  it('reports every route over budget with how far over it is', () => {
    const sizes = [size('/', 'storefront', 169.5), size('/shop/:slug', 'storefront', 100)];
    const failures = checkBudgets(sizes, issueBudgets);
    expect(failures).toHaveLength(2);
    expect(formatSizeReport(sizes, failures, issueBudgets)).toContain(
      'Size budget exceeded: / by 79.5 KiB, /shop/:slug by 10.0 KiB.',
    );
  });

  it("is what CI enforces: the issue's budgets, with the room left or the excess reported", () => {
    expect(budgets).toEqual(issueBudgets);
    const fits = [size('/', 'storefront', 78.5), size('/dashboard', 'member', 120)];
    expect(checkBudgets(fits)).toEqual([]);
    expect(formatSizeReport(fits, [])).toContain('(11.5 KiB to spare;');
    const heavier = [{ ...fits[0]!, gzipBytes: budgets.storefront + 1 }];
    const failures = checkBudgets(heavier);
    expect(failures).toEqual([
      { route: '/', gzipBytes: budgets.storefront + 1, budgetBytes: budgets.storefront },
    ]);
    expect(formatSizeReport(heavier, failures)).toContain('(0.0 KiB over;');
  });
});
