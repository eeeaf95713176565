import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The server's node flags (decision 017: a bounded heap keeps a busy process's memory near what
 * it uses) are written in two places a person starts it from: package.json's `start:built`
 * (`npm start`, the bench) and the systemd unit (deploy/, whose CI step runs that very line).
 */
describe('the server starts with the same node flags everywhere', () => {
  const flagsOf = (command: string) => command.split(/\s+/).filter((word) => word.startsWith('--'));
  const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as {
    scripts: Record<string, string>;
  };
  const unit = fs.readFileSync('deploy/systemd/pairwell@.service', 'utf8');
  const execStart = /^ExecStart=(.*)$/m.exec(unit)?.[1] ?? '';

  it('npm start and the systemd unit run the built server with one set of heap flags', () => {
    const fromPackage = flagsOf(pkg.scripts['start:built'] ?? '');
    expect(fromPackage).toEqual(
      expect.arrayContaining([
        '--optimize-for-size',
        expect.stringMatching(/^--max-old-space-size=\d+$/),
        expect.stringMatching(/^--max-semi-space-size=\d+$/),
      ]),
    );
    expect(flagsOf(execStart)).toEqual(fromPackage);
    expect(execStart).toMatch(/ dist\/server\/main\.js$/);
    expect(pkg.scripts.start).toBe('npm run build && npm run start:built');
  });

  it('npm start and the systemd unit give it one environment (malloc arenas bounded)', () => {
    const command = (pkg.scripts['start:built'] ?? '').split(/\s+/);
    const fromPackage = command.slice(0, command.indexOf('node'));
    expect(fromPackage).toEqual(['MALLOC_ARENA_MAX=2']);
    const fromUnit = [...unit.matchAll(/^Environment=(.*)$/gm)]
      .map((match) => match[1] ?? '')
      .filter((line) => !line.startsWith('PORT='));
    expect(fromUnit).toEqual(fromPackage);
  });
});
