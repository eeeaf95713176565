import type { AppContext } from '#server/context.ts';
import { emailHtml, emailSignature } from '#server/lib/email-layout.ts';
import { absoluteLink } from '#server/lib/links.ts';
import { hashToken, randomToken, wellFormedToken } from '#server/lib/tokens.ts';
import { AppError } from '#server/lib/errors.ts';
import { queueEmail, SECRET_SLOT } from '#server/features/outbox/outbox.service.ts';
import { LOGIN_LOCKED } from '#shared/auth.ts';
import { messages } from '#shared/wording.ts';
import { site } from '#shared/site.ts';
import { paths } from '#shared/paths.ts';
import * as q from './auth.queries.ts';

/**
 * Log-in protection that stops attackers, not owners (ASVS 5.0 V6.3, decision 004). A browser that
 * has logged in to an account is a known device for it (a long-lived random cookie, stored hashed
 * per account). Wrong passwords from unknown devices are limited per address and per account; once
 * an account is limited, unknown devices are refused before any password is checked, while the
 * owner's known devices still log in with the right password. An owner on a new device asks for an
 * emailed one-time link that makes that device known. Customers and staff work the same way.
 */

export type AccountKind = 'customer' | 'staff';

const FIFTEEN_MINUTES = 15 * 60_000;
const ONE_HOUR = 60 * 60_000;
export const DEVICE_TTL_MS = 180 * 24 * ONE_HOUR;
export const UNLOCK_TOKEN_TTL_MS = 30 * 60_000;

export const lockoutLimits = {
  customer: {
    prefix: 'login',
    /** Every attempt from an unknown device, per client address. */
    perAddress: 30,
    /** Wrong passwords from unknown devices, per account email; past it, unknown devices wait. */
    unknownDeviceFailures: 5,
    /** Wrong passwords from one known device: a stolen device cookie does not buy many guesses. */
    knownDeviceFailures: 10,
    windowMs: FIFTEEN_MINUTES,
  },
  staff: {
    prefix: 'staff-login',
    perAddress: 20,
    unknownDeviceFailures: 5,
    knownDeviceFailures: 10,
    windowMs: FIFTEEN_MINUTES,
  },
} as const;

const unlockLimits = { perAddress: 10, perAccount: 3, windowMs: ONE_HOUR };

const accountRef = (kind: AccountKind, id: number) => `${kind}:${id}`;

const tooMany = () => new AppError('TOO_MANY_ATTEMPTS', messages.tooManyRequests);

/** The same words whether or not the email has an account: nothing here confirms one exists. */
export const loginLockedMessage =
  'Too many wrong passwords were tried for this account, so log-ins from new devices are paused. If it is your account, we can email you a link that lets this device log in.';

export interface LoginAttempt {
  kind: AccountKind;
  email: string;
  /** The account the email names, if any. */
  accountId: number | undefined;
  ip: string;
  /** The device cookie the browser sent, if any. */
  deviceToken: string | undefined;
}

export interface AdmittedLogin {
  /** Whether this browser has logged in to the account before. */
  knownDevice: boolean;
  /** The credentials were right: this attempt no longer counts as a failure. */
  succeeded: () => Promise<void>;
}

/**
 * Runs before the password is checked. Counts the attempt first (one atomic upsert), so however
 * many arrive at once no more guesses are checked than the limits allow; a success gives its count
 * back. Refuses with 429: `TOO_MANY_ATTEMPTS` for an address or a known device past its limit,
 * `LOGIN_LOCKED` for an unknown device while the account is limited.
 */
export async function admitLogin(ctx: AppContext, attempt: LoginAttempt): Promise<AdmittedLogin> {
  const limits = lockoutLimits[attempt.kind];
  const now = ctx.clock.now();
  const account =
    attempt.accountId === undefined ? undefined : accountRef(attempt.kind, attempt.accountId);
  const deviceHash = wellFormedToken(attempt.deviceToken)
    ? hashToken(attempt.deviceToken)
    : undefined;
  const known =
    account !== undefined &&
    deviceHash !== undefined &&
    (await q.knownDeviceExists(ctx.db, deviceHash, account, now.toISOString()));

  if (known) {
    const key = `${limits.prefix}:device:${deviceHash}:${account}`;
    const failures = await q.hitRateLimit(ctx.db, key, now, limits.windowMs);
    if (failures > limits.knownDeviceFailures) throw tooMany();
    return { knownDevice: true, succeeded: () => q.releaseRateLimitHit(ctx.db, key) };
  }

  const perAddress = await q.hitRateLimit(
    ctx.db,
    `${limits.prefix}:ip:${attempt.ip}`,
    now,
    limits.windowMs,
  );
  if (perAddress > limits.perAddress * ctx.env.ADDRESS_LIMIT_FACTOR) throw tooMany();
  // Keyed by the email as typed, account or not, so a limited answer confirms nothing.
  const key = `${limits.prefix}:account:${attempt.email}`;
  const failures = await q.hitRateLimit(ctx.db, key, now, limits.windowMs);
  if (failures > limits.unknownDeviceFailures) throw new AppError(LOGIN_LOCKED, loginLockedMessage);
  return { knownDevice: false, succeeded: () => q.releaseRateLimitHit(ctx.db, key) };
}

/** Whether an account's log-ins from unknown devices are limited right now. */
async function isLimited(ctx: AppContext, kind: AccountKind, email: string): Promise<boolean> {
  const limits = lockoutLimits[kind];
  const failures = await q.peekRateLimit(
    ctx.db,
    `${limits.prefix}:account:${email}`,
    ctx.clock.now(),
    limits.windowMs,
  );
  return failures >= limits.unknownDeviceFailures;
}

export interface DeviceCookie {
  token: string;
  maxAgeSeconds: number;
}

/**
 * Makes this browser a known device of the account, after a log-in (or sign-up, or an unlock
 * link). The browser gets a fresh token each time and keeps every account it was known to: a token
 * someone planted or copied earlier stops counting.
 */
export async function rememberDevice(
  ctx: AppContext,
  kind: AccountKind,
  accountId: number,
  currentToken: string | undefined,
): Promise<DeviceCookie> {
  const now = ctx.clock.now();
  const token = randomToken();
  const tokenHash = hashToken(token);
  await ctx.db.transaction().execute(async (trx) => {
    if (wellFormedToken(currentToken)) await q.rekeyDevice(trx, hashToken(currentToken), tokenHash);
    await q.upsertKnownDevice(trx, {
      tokenHash,
      account: accountRef(kind, accountId),
      now: now.toISOString(),
      expiresAt: new Date(now.getTime() + DEVICE_TTL_MS).toISOString(),
    });
  });
  return { token, maxAgeSeconds: DEVICE_TTL_MS / 1000 };
}

export interface UnlockRecipient {
  id: number;
  email: string;
  name: string;
}

const unlockPaths: Record<AccountKind, string> = {
  customer: paths.loginUnlock,
  staff: paths.staffLoginUnlock,
};

/**
 * Emails a one-time link that makes a device known, when the address has an account of this kind
 * and that account is limited. The caller answers the same in every case.
 */
export async function requestLoginUnlock(
  ctx: AppContext,
  kind: AccountKind,
  email: string,
  ip: string,
  findAccount: () => Promise<UnlockRecipient | undefined>,
): Promise<void> {
  const now = ctx.clock.now();
  const prefix = `${lockoutLimits[kind].prefix}-unlock`;
  const perAddress = await q.hitRateLimit(ctx.db, `${prefix}:ip:${ip}`, now, unlockLimits.windowMs);
  if (perAddress > unlockLimits.perAddress * ctx.env.ADDRESS_LIMIT_FACTOR) return;
  if (!(await isLimited(ctx, kind, email))) return;
  const account = await findAccount();
  if (!account) return;
  // Counted per account only once there is something to send, so strangers cannot use up the
  // owner's links by asking for addresses that are not limited.
  const perAccount = await q.hitRateLimit(
    ctx.db,
    `${prefix}:account:${accountRef(kind, account.id)}`,
    now,
    unlockLimits.windowMs,
  );
  if (perAccount > unlockLimits.perAccount) return;

  // The token is made when the email goes out (mintLoginUnlock), so none waits in the outbox.
  const link = absoluteLink(ctx.env, `${unlockPaths[kind]}?id=${SECRET_SLOT}`);
  const where = kind === 'staff' ? `the ${site.name} staff console` : `your ${site.name} account`;
  const lines = [
    `Hello ${account.name},`,
    `Someone tried many wrong passwords for ${where}, so log-ins from new devices are paused for a while. Devices you have logged in with before are not affected.`,
    'To log in on a new device, open this link on that device. It works once and expires in 30 minutes. You will still need your password' +
      (kind === 'staff' ? ' and your authenticator code.' : '.'),
  ];
  const footnote =
    'If you did not ask for this link, you can ignore this email: nobody has logged in, and the link does nothing without your password.';
  await queueEmail(ctx, {
    to: account.email,
    secret: { purpose: LOGIN_UNLOCK_SECRET, ref: accountRef(kind, account.id) },
    subject:
      kind === 'staff'
        ? `Log in to ${site.name} Staff on a new device`
        : `Log in to ${site.name} on a new device`,
    text: [...lines, '', link, '', footnote, '', ...emailSignature].join('\n'),
    html: emailHtml(lines, { href: link, label: 'Let this device log in' }, footnote),
  });
}

export const LOGIN_UNLOCK_SECRET = 'login-unlock';

/**
 * The outbox's minter for unlock emails: a fresh one-time token, valid 30 minutes from when it is
 * sent, for the account (`customer:<id>` or `staff:<id>`) the email was queued for.
 */
export async function mintLoginUnlock(ctx: AppContext, ref: string): Promise<string | null> {
  if (!/^(customer|staff):\d{1,15}$/.test(ref)) return null;
  const token = randomToken();
  const now = ctx.clock.now();
  await q.insertLoginUnlock(ctx.db, {
    tokenHash: hashToken(token),
    account: ref,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + UNLOCK_TOKEN_TTL_MS).toISOString(),
  });
  return token;
}

export const unlockLinkInvalid =
  'This link has expired or has already been used. Try to log in again to ask for a new one.';

/** Spends an unlock link once and makes the browser that opened it a known device. */
export async function confirmLoginUnlock(
  ctx: AppContext,
  kind: AccountKind,
  token: string,
  currentDeviceToken: string | undefined,
): Promise<DeviceCookie> {
  const now = ctx.clock.now().toISOString();
  const account = wellFormedToken(token)
    ? await q.consumeLoginUnlock(ctx.db, hashToken(token), `${kind}:`, now)
    : undefined;
  const id = account === undefined ? NaN : Number(account.slice(kind.length + 1));
  if (!Number.isSafeInteger(id)) throw new AppError('UNLOCK_LINK_INVALID', unlockLinkInvalid);
  return rememberDevice(ctx, kind, id, currentDeviceToken);
}
