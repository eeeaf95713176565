import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type TestInfo } from '@playwright/test';

/** Fails on any serious or critical axe violation, naming the rule and the elements. */
export async function expectAccessible(page: Page): Promise<void> {
  // Toasts come and go; caught mid-fade their text reads as low contrast, so axe leaves them out.
  const results = await new AxeBuilder({ page })
    .exclude('.toast-viewport')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = bad.map(
    (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(summary, 'axe violations').toEqual([]);
}

/**
 * A screenshot in e2e/screenshots/, named by the page and the viewport project: the full page, or
 * only the window (to show an open dialog as it is seen).
 */
export async function screenshot(
  page: Page,
  testInfo: TestInfo,
  name: string,
  { fullPage = true }: { fullPage?: boolean } = {},
): Promise<void> {
  const dir = path.resolve('e2e/screenshots');
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}-${testInfo.project.name}.png`), fullPage });
}

/** Collects console errors and failed same-origin requests so a journey can assert there were none. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return problems;
}

/**
 * The authenticator code of a brand-new 30-second step. The server takes each step once and only
 * steps after the last one used, so waiting for a step nobody can have used yet makes every staff
 * log-in in the journeys reliable, whatever ran before it.
 */
export async function freshTotpCode(secret: string): Promise<string> {
  const { totpCode, totpStep } = await import('../src/server/lib/totp.ts');
  const nextStep = totpStep(new Date()) + 1;
  const wait = nextStep * 30_000 - Date.now() + 50;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait)));
  return totpCode(secret, nextStep);
}

/**
 * The member area's navigation, opened first where the sidebar is collapsed (the 375px project):
 * decided by the project, not by whether the menu button happens to be drawn yet.
 */
export async function accountNav(page: Page, testInfo: TestInfo) {
  if (testInfo.project.name === 'mobile')
    await page.getByRole('button', { name: /Account menu/ }).click();
  return page.getByRole('navigation', { name: 'Account' });
}
