import fs from 'node:fs';
import path from 'node:path';

/**
 * Files under DATA_DIR hold health data, emails with reset links and the database itself: only
 * the account the server runs as may read them. Directories 0700, files 0600, whatever the umask.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates a directory (and its parents) readable by the server's account alone. */
export function makePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  fs.chmodSync(dir, PRIVATE_DIR_MODE);
}

/** Writes a file readable by the server's account alone (also when it already existed). */
export function writePrivateFile(file: string, data: string | Buffer): void {
  fs.writeFileSync(file, data, { mode: PRIVATE_FILE_MODE });
  fs.chmodSync(file, PRIVATE_FILE_MODE);
}

/**
 * Makes sure a file exists with mode 0600 before another library creates it with its own default
 * (SQLite: 0644, and its -wal and -shm files copy the database file's mode), and tightens an
 * existing one left by an older version.
 */
export function ensurePrivateFile(file: string): void {
  makePrivateDir(path.dirname(file));
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  fs.chmodSync(file, PRIVATE_FILE_MODE);
}
