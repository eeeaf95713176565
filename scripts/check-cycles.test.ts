import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

/** Runs the cycle check on a tree under scripts/fixtures/cycles/ (or the repository itself). */
function check(tree?: string): { passed: boolean; output: string } {
  const args = ['scripts/check-cycles.mjs', ...(tree ? [`scripts/fixtures/cycles/${tree}`] : [])];
  try {
    return {
      passed: true,
      output: execFileSync('node', args, { encoding: 'utf8', stdio: 'pipe' }),
    };
  } catch (error) {
    return { passed: false, output: String((error as { stderr: unknown }).stderr) };
  }
}

describe('the import cycle check', () => {
  it('fails on two server features that import each other through different files, naming the files', () => {
    const result = check('server-feature-cycle');
    expect(result.passed).toBe(false);
    expect(result.output).toContain(
      'feature cycle: server:accounts → server:orders → server:accounts',
    );
    expect(result.output).toContain(
      'src/server/features/accounts/accounts.member.ts → src/server/features/orders/orders.history.ts',
    );
    expect(result.output).toContain(
      'src/server/features/orders/orders.history.ts → src/server/features/accounts/accounts.standing.ts',
    );
    expect(result.output).not.toContain('import cycle:');
  });

  it('fails on a cycle between client features', () => {
    const result = check('client-feature-cycle');
    expect(result.passed).toBe(false);
    expect(result.output).toContain(
      'feature cycle: client:checkout → client:orders → client:checkout',
    );
  });

  it('fails when plumbing imports a feature, and lets a type-only import pass', () => {
    const result = check('plumbing-imports-feature');
    expect(result.passed).toBe(false);
    expect(result.output).toContain(
      'plumbing imports a feature: src/server/lib/route.ts imports src/server/features/staff/staff.service.ts',
    );
    expect(result.output).not.toContain('plugins/session.ts');
  });

  it('still fails on files that import each other', () => {
    const result = check('file-cycle');
    expect(result.passed).toBe(false);
    expect(result.output).toContain(
      'import cycle: src/shared/money.ts → src/shared/units.ts → src/shared/money.ts',
    );
  });

  it('passes features that depend one way, with plumbing that knows none and an app that composes them', () => {
    expect(check('one-way')).toEqual({
      passed: true,
      output: expect.stringContaining('2 features depend one way; plumbing imports no feature'),
    });
  });

  it('passes on the code', () => {
    expect(check()).toMatchObject({ passed: true });
  });

  it('docs/architecture.md shows the feature graph as the code has it (regenerate with --write-graph)', () => {
    const graph = execFileSync('node', ['scripts/check-cycles.mjs', '--graph'], {
      encoding: 'utf8',
    });
    const drawn = graph.slice(0, graph.lastIndexOf('```') + 3);
    expect(drawn).toContain('server (level, feature → the features it imports)');
    const doc = fs.readFileSync('docs/architecture.md', 'utf8');
    const start = doc.indexOf('<!-- feature-graph:');
    const end = doc.indexOf('<!-- /feature-graph -->');
    expect(doc.slice(start, end)).toContain(drawn);
  });
});
