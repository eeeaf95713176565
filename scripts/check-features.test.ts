import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Runs the feature-folder check on a made-up tree; resolves to its output and whether it passed. */
function check(tree: string[]): { passed: boolean; output: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'features-'));
  for (const entry of tree) {
    const full = path.join(root, entry);
    if (entry.endsWith('/')) fs.mkdirSync(full, { recursive: true });
    else {
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, '');
    }
  }
  try {
    const output = execFileSync('node', ['scripts/check-features.mjs', root], { encoding: 'utf8' });
    return { passed: true, output };
  } catch (error) {
    return { passed: false, output: String((error as { stderr: unknown }).stderr) };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const allowed = [
  'src/server/features/billing/',
  'src/server/features/payments/',
  'src/server/features/coupons/',
  'src/server/features/health/',
  'src/server/features/dev-outbox/',
  'src/server/features/member/',
  'src/client/features/static-pages/',
  'src/client/features/errors/',
  'src/client/features/consent/',
];

describe('the feature-folder check', () => {
  it('passes when each feature has a server folder, a client folder and a shared contract', () => {
    const result = check([
      ...allowed,
      'src/server/features/cart/',
      'src/client/features/cart/',
      'src/shared/cart.ts',
    ]);
    expect(result).toMatchObject({ passed: true });
  });

  it('fails for a server feature with no client counterpart, naming it', () => {
    const result = check([...allowed, 'src/server/features/messaging/', 'src/shared/messaging.ts']);
    expect(result.passed).toBe(false);
    expect(result.output).toContain(
      'src/server/features/messaging/ has no src/client/features/messaging/',
    );
  });

  it('fails for a feature whose contract is not in shared under its name', () => {
    const result = check([
      ...allowed,
      'src/server/features/visits/',
      'src/client/features/visits/',
    ]);
    expect(result.passed).toBe(false);
    expect(result.output).toContain('feature visits has no contract in src/shared/visits.ts');
  });

  it('fails when the allow-list names a folder that is gone, so it stays short', () => {
    const result = check(allowed.filter((entry) => !entry.includes('billing')));
    expect(result.passed).toBe(false);
    expect(result.output).toContain('src/server/features/billing/');
  });
});
