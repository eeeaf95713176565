// `npm run lint:api`: the OpenAPI document as the built server serves it (`/lapi/docs/json`),
// linted by Redocly's own CLI under its recommended rules (redocly.yaml). Exits with the CLI's
// status: 1 when the document has an error. Builds first only when dist/ is missing or older than src/.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBuild, rootDir, startPairwell } from '../bench/server.ts';

const log = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<number> {
  ensureBuild(log);
  const server = await startPairwell({ env: { SEED_DEMO: 'false' } });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pairwell-openapi-'));
  try {
    const response = await fetch(`${server.url}/lapi/docs/json`);
    if (!response.ok) throw new Error(`GET /lapi/docs/json answered ${response.status}`);
    const file = path.join(dir, 'openapi.json');
    fs.writeFileSync(file, await response.text());
    const cli = spawnSync(
      process.execPath,
      [
        path.join(rootDir, 'node_modules/@redocly/cli/bin/cli.js'),
        'lint',
        file,
        // One line per rule: the warnings (spec §7's trailing slashes) counted, not listed.
        '--format',
        'summary',
        '--config',
        path.join(rootDir, 'redocly.yaml'),
      ],
      {
        stdio: 'inherit',
        // No telemetry and no update check: CI has no internet, and the document is ours to read.
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    return cli.status ?? 1;
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `API lint failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
