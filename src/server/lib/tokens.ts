import crypto from 'node:crypto';

/** 256 random bits, URL-safe: session cookies and every one-time link. */
export function randomToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** What the database keeps of a token: its SHA-256, so a copy of the database opens nothing. */
export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** Whether a value from a cookie or a link could be one of our tokens at all (43 characters). */
export function wellFormedToken(value: string | undefined): value is string {
  return typeof value === 'string' && /^[\w-]{43}$/.test(value);
}
