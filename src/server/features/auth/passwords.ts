import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { hash, verify } from '@node-rs/argon2';
import pLimit from 'p-limit';
import { messages } from '#shared/wording.ts';

/**
 * argon2 runs on half the cores at most (one on a machine of two): a hash takes a core and its
 * memory for a few milliseconds, so a burst of log-ins waits its turn and leaves the other cores to
 * everyone else's requests, instead of taking every core and growing memory by a hash's worth each
 * (libuv would run four at once).
 */
export const PASSWORD_HASHING_SLOTS = Math.max(1, Math.floor(os.availableParallelism() / 2));
export const passwordHashing = pLimit(PASSWORD_HASHING_SLOTS);

/**
 * argon2id, 7 MiB and 5 passes: one of the five settings OWASP's Password Storage Cheat Sheet gives
 * as equally strong (19 MiB and 2 passes, the library's default, is another). The same CPU for a
 * third of the memory (decision 004). Hashes made with other settings keep verifying: a hash
 * carries its own.
 */
export const PASSWORD_HASH_OPTIONS = { memoryCost: 7168, timeCost: 5, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return passwordHashing(() => hash(password, PASSWORD_HASH_OPTIONS));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await passwordHashing(() => verify(passwordHash, password));
  } catch {
    // A malformed stored hash verifies nothing.
    return false;
  }
}

/** A valid hash of a random string, so an unknown email costs as much time as a wrong password. */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword(`decoy-${Math.random()}`);
  return decoyHash;
}

let common: Set<string> | undefined;

/**
 * The bundled list of common breached passwords (8+ characters, from the OWASP SecLists top 100,000;
 * see docs/decisions/004). It sits next to this file in the source and next to the server bundle.
 */
function commonPasswords(): Set<string> {
  if (common) return common;
  const file = fileURLToPath(new URL('./common-passwords.txt', import.meta.url));
  if (!fs.existsSync(file))
    throw new Error(`${file} is missing: the build copies it next to the server`);
  common = new Set(fs.readFileSync(file, 'utf8').split('\n').filter(Boolean));
  return common;
}

/**
 * A local part this long or longer may not be in the password: a shorter one ('al', 'joe') is
 * inside too many good passphrases by chance.
 */
const EMAIL_LOCAL_PART_MIN = 4;

/**
 * OWASP ASVS V6.2.11: the account's own email is the first guess of anyone who knows it, so the
 * password may not hold it, nor its part before the @ (in any case).
 */
function holdsEmail(password: string, email: string): boolean {
  const address = email.trim().toLowerCase();
  if (!address) return false;
  const at = address.lastIndexOf('@');
  const local = at > 0 ? address.slice(0, at) : address;
  return (
    password.includes(address) || (local.length >= EMAIL_LOCAL_PART_MIN && password.includes(local))
  );
}

/**
 * DESIGN §7: length is checked by the schema; here, the breached-password list and the account's
 * email (`email`: the address the account has, or will have, when the password is set).
 */
export function passwordProblem(password: string, email: string): string | null {
  const lower = password.toLowerCase();
  if (commonPasswords().has(lower)) return messages.passwordTooCommon;
  if (holdsEmail(lower, email)) return messages.passwordHoldsEmail;
  return null;
}

/** Load the list at start, not on someone's first sign-up. */
export function preloadPasswordPolicy(): void {
  commonPasswords();
}
