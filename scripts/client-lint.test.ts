import fs from 'node:fs';
import path from 'node:path';
import { ESLint, type Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

/*
 * The client's lint rules (eslint.config.js), each proven by a fixture that must fail. The
 * fixtures live in scripts/lint-fixtures/, which the main config ignores so that `npm run lint`
 * passes; here each is linted as if it sat where the rule applies (its `as` path). That the client
 * as it is passes these rules is `npm run lint`'s own job (CI runs it), not repeated here.
 */

const eslint = new ESLint();
const fixture = (name: string) => fs.readFileSync(path.join('scripts/lint-fixtures', name), 'utf8');

/** The rule and message of each problem, linting the fixture as the file at `as`. */
async function lintAs(name: string, as: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(fixture(name), { filePath: as });
  return result?.messages ?? [];
}

const zones = 'local/client-zones';
const mutations = 'no-restricted-syntax';

describe('useMutation outside a feature’s .api.ts', () => {
  it('fails in a component, saying where the write belongs', async () => {
    const problems = await lintAs(
      'mutation-in-component.tsx',
      'src/client/features/orders/components/cancel-button.tsx',
    );
    expect(problems.map((p) => p.ruleId)).toEqual([mutations]);
    expect(problems[0]?.message).toMatch(/useMutation belongs in the feature's <feature>\.api\.ts/);
  });

  it('passes in the feature’s .api.ts', async () => {
    expect(await lintAs('mutation-in-api.ts', 'src/client/features/orders/orders.api.ts')).toEqual(
      [],
    );
  });
});

describe('the client’s zones', () => {
  it('fail lib/ for importing a feature', async () => {
    const problems = await lintAs('lib-imports-feature.ts', 'src/client/lib/first-key.ts');
    expect(problems.map((p) => [p.ruleId, p.line])).toEqual([[zones, 2]]);
    expect(problems[0]?.message).toMatch(/src\/client\/lib\/ imports no feature \(here cart\)/);
  });

  it('fail components/ for importing a feature, statically or lazily', async () => {
    const problems = await lintAs(
      'component-imports-feature.tsx',
      'src/client/components/ui/orders.tsx',
    );
    expect(problems.map((p) => [p.ruleId, p.line])).toEqual([
      [zones, 3],
      [zones, 5],
    ]);
    expect(problems.map((p) => p.message.match(/\(here (\w+)\)/)?.[1])).toEqual(['orders', 'cart']);
  });

  it('fail a feature for importing one it is not allowed to, and pass an allowed pair', async () => {
    const problems = await lintAs(
      'feature-imports-feature.tsx',
      'src/client/features/catalog/components/cart-and-orders.tsx',
    );
    // Line 3 imports the cart (allowed for the catalogue); line 4 the orders feature.
    expect(problems.map((p) => [p.ruleId, p.line])).toEqual([[zones, 4]]);
    expect(problems[0]?.message).toMatch(/The catalog feature may not import the orders feature/);
  });

  it('let a test compose pages of several features, as the router does', async () => {
    expect(
      await lintAs(
        'feature-imports-feature.tsx',
        'src/client/features/catalog/components/cart-and-orders.test.tsx',
      ),
    ).toEqual([]);
  });
});
