import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The build id both sides report as their release (`pairwell@<build id>`): the one the web app build
 * wrote to version.json and compiled into the browser code as __APP_BUILD__ (`<package
 * version>+<build time>`, vite.config.ts), so a browser event and a server event of one deploy name
 * the same release. Without a built web app (tests, running from source) it is the package version.
 */
export function readBuildId(clientDir: string): string {
  try {
    const parsed: unknown = JSON.parse(
      fs.readFileSync(path.join(clientDir, 'version.json'), 'utf8'),
    );
    if (
      parsed &&
      typeof parsed === 'object' &&
      'version' in parsed &&
      typeof parsed.version === 'string' &&
      parsed.version
    )
      return parsed.version;
  } catch {
    // No built web app here: the package version below.
  }
  return packageVersion();
}

/** The version in the package.json above this file (src/server/lib or the dist/server bundle). */
function packageVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 5; up++) {
    try {
      const pkg: unknown = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
      if (pkg && typeof pkg === 'object' && 'version' in pkg && typeof pkg.version === 'string')
        return pkg.version;
    } catch {
      // Not here: one folder up.
    }
    dir = path.dirname(dir);
  }
  return '0.0.0';
}
