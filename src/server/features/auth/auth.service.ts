import crypto from 'node:crypto';
import type { AppContext } from '#server/context.ts';
import { emailHtml, emailSignature } from '#server/lib/email-layout.ts';
import { queueEmail, SECRET_SLOT, sendQueuedSoon } from '#server/features/outbox/outbox.service.ts';
import { absoluteLink } from '#server/lib/links.ts';
import { hashToken, randomToken } from '#server/lib/tokens.ts';
import { AppError } from '#server/lib/errors.ts';
import type {
  ChangePasswordSchema,
  Login,
  PasswordUpdateSchema,
  SessionInfo,
} from '#shared/auth.ts';
import { messages } from '#shared/wording.ts';
import type { SessionUser } from '#shared/session.ts';
import { site } from '#shared/site.ts';
import { paths } from '#shared/paths.ts';
import type { z } from 'zod';
import { admitLogin, lockoutLimits, rememberDevice, type DeviceCookie } from './auth.devices.ts';
import * as q from './auth.queries.ts';
import { decoyPasswordHash, hashPassword, passwordProblem, verifyPassword } from './passwords.ts';
import type { KeptSession } from './session-cache.ts';

/** DESIGN §7: customers are logged out after 30 minutes idle or 12 hours in all. */
export const SESSION_IDLE_MS = 30 * 60_000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60_000;
/** Touch last-seen at most once a minute, not on every request. */
const TOUCH_EVERY_MS = 60_000;
export const RESET_TOKEN_TTL_MS = 60 * 60_000;

const ONE_HOUR = 60 * 60_000;
/** The customers' log-in limits (auth.devices.ts has the whole model, decision 004 explains it). */
export const loginLimits = {
  perAccountFailures: lockoutLimits.customer.unknownDeviceFailures,
  perAddress: lockoutLimits.customer.perAddress,
  windowMs: lockoutLimits.customer.windowMs,
};
const resetLimits = { perAccount: 3, perAddress: 10, windowMs: ONE_HOUR };

export { hashToken };

export interface RequestMeta {
  ip: string;
  userAgent: string;
}

// --- Rate limits ---------------------------------------------------------------------------------

/** Counts one attempt; past `limit` in the window the call is refused with 429 and a clear message. */
export async function enforceRateLimit(
  ctx: AppContext,
  key: string,
  limit: number,
  windowMs: number,
): Promise<void> {
  const count = await q.hitRateLimit(ctx.db, key, ctx.clock.now(), windowMs);
  if (count > limit) throw tooMany();
}

/** A limit per client address: the same as `enforceRateLimit`, scaled by ADDRESS_LIMIT_FACTOR. */
export async function enforceAddressLimit(
  ctx: AppContext,
  key: string,
  limit: number,
  windowMs: number,
): Promise<void> {
  await enforceRateLimit(ctx, key, limit * ctx.env.ADDRESS_LIMIT_FACTOR, windowMs);
}

function tooMany() {
  return new AppError('TOO_MANY_ATTEMPTS', messages.tooManyRequests);
}

// --- Sessions ------------------------------------------------------------------------------------

export interface ActiveSession {
  tokenHash: string;
  customerId: number;
  leadsId: string;
}

/** A new server-side session: the caller puts the token in the cookie; only its hash is stored. */
/**
 * The network an address belongs to, masked so no full address is kept: an IPv4 /24
 * (`203.0.113.x`) or an IPv6 /48 (`2001:db8:85a3::/48`).
 */
export function maskedNetwork(ip: string): string | null {
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/.exec(ip);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.x`;
  if (!ip.includes(':')) return null;
  const head = ip.split('::')[0]?.split(':').filter(Boolean).slice(0, 3) ?? [];
  return head.length > 0 ? `${head.join(':')}::/48` : null;
}

export async function startSession(
  ctx: AppContext,
  customerId: number,
  meta: { userAgent: string; ip: string },
): Promise<{ token: string; maxAgeSeconds: number }> {
  const token = randomToken();
  const now = ctx.clock.now();
  await q.insertSession(ctx.db, {
    tokenHash: hashToken(token),
    publicId: crypto.randomBytes(9).toString('base64url'),
    customerId,
    createdAt: now.toISOString(),
    lastSeenAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS).toISOString(),
    userAgent: meta.userAgent.slice(0, 300),
    network: maskedNetwork(meta.ip),
  });
  return { token, maxAgeSeconds: SESSION_ABSOLUTE_MS / 1000 };
}

/** Whether a session, as last read, is neither past its end nor idle too long at `now`. */
const live = (session: KeptSession, now: number) =>
  now < Date.parse(session.expiresAt) && now - Date.parse(session.lastSeenAt) < SESSION_IDLE_MS;

/**
 * What can be said of a cookie's session without a statement: null when the token cannot be one,
 * the session when it was read a moment ago and is not due to be touched (see SessionCache),
 * undefined when it must be read (`resolveSession`).
 */
export function keptSession(ctx: AppContext, token: string): ActiveSession | null | undefined {
  if (token.length < 20 || token.length > 100) return null;
  const tokenHash = hashToken(token);
  const kept = ctx.sessions.get(tokenHash);
  if (!kept) return undefined;
  const now = ctx.clock.now().getTime();
  if (!live(kept, now) || now - Date.parse(kept.lastSeenAt) >= TOUCH_EVERY_MS) return undefined;
  return { tokenHash, customerId: kept.customerId, leadsId: kept.leadsId };
}

/** The session a cookie names, if it is still alive; an idle or expired one is deleted. */
export async function resolveSession(
  ctx: AppContext,
  token: string,
): Promise<ActiveSession | null> {
  const kept = keptSession(ctx, token);
  if (kept !== undefined) return kept;
  const tokenHash = hashToken(token);
  const now = ctx.clock.now().getTime();
  const keep = ctx.sessions.reading();
  const session = await q.selectSession(ctx.db, tokenHash);
  if (!session) return null;
  if (!live(session, now)) {
    await q.deleteSession(ctx.db, tokenHash);
    return null;
  }
  let lastSeenAt = session.lastSeenAt;
  if (now - Date.parse(lastSeenAt) >= TOUCH_EVERY_MS) {
    lastSeenAt = new Date(now).toISOString();
    await q.touchSession(ctx.db, tokenHash, lastSeenAt);
  }
  keep(tokenHash, {
    customerId: session.customerId,
    leadsId: session.leadsId,
    lastSeenAt,
    expiresAt: session.expiresAt,
  });
  return { tokenHash, customerId: session.customerId, leadsId: session.leadsId };
}

/** Logs this device out, on every instance. */
export async function endSession(ctx: AppContext, session: ActiveSession): Promise<void> {
  await q.deleteSession(ctx.db, session.tokenHash);
  await ctx.sessions.ended(ctx.db, session.customerId);
}

export async function sessionUser(ctx: AppContext, customerId: number): Promise<SessionUser> {
  const row = await q.selectSessionUser(ctx.db, customerId);
  if (!row) throw new AppError('UNAUTHENTICATED', messages.unauthorized);
  return {
    leads_id: row.leadsId,
    customer_id: row.customerId,
    first_name: row.firstName,
    last_name: row.lastName,
    email: row.email,
  };
}

export async function listSessions(
  ctx: AppContext,
  customerId: number,
  currentTokenHash: string,
): Promise<SessionInfo[]> {
  const now = ctx.clock.now().getTime();
  const sessions = await q.selectSessionsOf(ctx.db, customerId);
  return sessions
    .filter(
      (s) => Date.parse(s.expiresAt) > now && now - Date.parse(s.lastSeenAt) < SESSION_IDLE_MS,
    )
    .map((s) => ({
      id: s.publicId,
      current: s.tokenHash === currentTokenHash,
      created_at: s.createdAt,
      last_seen_at: s.lastSeenAt,
      device: describeDevice(s.userAgent),
      network: s.network,
    }));
}

/**
 * Logs one other device out. This device logs out with Log out; a session that is not the
 * customer's, or has already ended, is not found.
 */
export async function endSessionOf(
  ctx: AppContext,
  session: ActiveSession,
  publicId: string,
): Promise<void> {
  const current = (await q.selectSessionsOf(ctx.db, session.customerId)).find(
    (s) => s.tokenHash === session.tokenHash,
  );
  if (current?.publicId === publicId)
    throw new AppError('VALIDATION', 'To log out of this device, use Log out.', {
      id: 'To log out of this device, use Log out.',
    });
  if (!(await q.deleteSessionByPublicId(ctx.db, session.customerId, publicId)))
    throw new AppError('NOT_FOUND', 'That device is no longer logged in.');
  await ctx.sessions.ended(ctx.db, session.customerId);
}

export async function endOtherSessions(
  ctx: AppContext,
  customerId: number,
  currentTokenHash: string | undefined,
): Promise<number> {
  const ended = await q.deleteSessionsOf(ctx.db, customerId, currentTokenHash);
  await ctx.sessions.ended(ctx.db, customerId);
  return ended;
}

/** "Chrome on macOS" from a user-agent string; enough for a person to recognise their device. */
export function describeDevice(userAgent: string): string {
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : 'Browser';
  const os = /iPhone|iPad/.test(userAgent)
    ? 'iOS'
    : /Android/.test(userAgent)
      ? 'Android'
      : /Mac OS X/.test(userAgent)
        ? 'macOS'
        : /Windows/.test(userAgent)
          ? 'Windows'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : 'an unknown system';
  return `${browser} on ${os}`;
}

// --- Log in --------------------------------------------------------------------------------------

const invalidCredentials = () =>
  new AppError('INVALID_CREDENTIALS', 'The email or password you entered is incorrect.');

/**
 * Checks the password and opens a session; the browser becomes a known device of the account.
 * The limits (auth.devices.ts) live in the database, so every instance counts the same attempts:
 * unknown devices per address and per account, a known device on its own.
 */
export async function login(
  ctx: AppContext,
  input: Login,
  meta: RequestMeta & { deviceToken: string | undefined },
): Promise<{ token: string; maxAgeSeconds: number; user: SessionUser; device: DeviceCookie }> {
  const credentials = await q.selectCredentialsByEmail(ctx.db, input.email);
  const admitted = await admitLogin(ctx, {
    kind: 'customer',
    email: input.email,
    accountId: credentials?.customerId,
    ip: meta.ip,
    deviceToken: meta.deviceToken,
  });
  const ok = await verifyPassword(
    credentials?.passwordHash ?? (await decoyPasswordHash()),
    input.password,
  );
  if (!credentials || !ok) throw invalidCredentials();
  await admitted.succeeded();
  const device = await rememberDevice(ctx, 'customer', credentials.customerId, meta.deviceToken);
  const session = await startSession(ctx, credentials.customerId, meta);
  return { ...session, device, user: await sessionUser(ctx, credentials.customerId) };
}

/** Who gets the emailed link that lets a new device log in, when the address has an account. */
export async function unlockRecipient(ctx: AppContext, email: string) {
  const user = await q.selectCredentialsByEmail(ctx.db, email);
  if (!user) return undefined;
  const named = await q.selectSessionUser(ctx.db, user.customerId);
  return named && { id: named.customerId, email: named.email, name: named.firstName };
}

// --- Passwords -----------------------------------------------------------------------------------

/**
 * Sends a reset link when the address belongs to an account. The caller answers the same either
 * way, so nobody can learn which addresses have accounts.
 */
export async function requestPasswordReset(
  ctx: AppContext,
  email: string,
  meta: RequestMeta,
): Promise<void> {
  const now = ctx.clock.now();
  const perAddress = await q.hitRateLimit(ctx.db, `reset:ip:${meta.ip}`, now, resetLimits.windowMs);
  const perAccount = await q.hitRateLimit(
    ctx.db,
    `reset:account:${email}`,
    now,
    resetLimits.windowMs,
  );
  if (
    perAddress > resetLimits.perAddress * ctx.env.ADDRESS_LIMIT_FACTOR ||
    perAccount > resetLimits.perAccount
  )
    return;

  const credentials = await q.selectCredentialsByEmail(ctx.db, email);
  if (!credentials) return;
  // The token is made when the email goes out (mintPasswordReset), so none waits in the outbox.
  const link = absoluteLink(ctx.env, `${paths.resetPassword}?id=${SECRET_SLOT}`);
  await queueEmail(ctx, {
    to: email,
    secret: { purpose: PASSWORD_RESET_SECRET, ref: String(credentials.customerId) },
    subject: `Reset your ${site.name} password`,
    text: [
      'Hello,',
      '',
      `We received a request to reset the password of your ${site.name} account. Use this link to choose a new one. It works once and expires in 60 minutes:`,
      '',
      link,
      '',
      'If you did not ask for this, you can ignore this email: your password stays the same.',
      '',
      ...emailSignature,
    ].join('\n'),
    html: emailHtml(
      [
        'Hello,',
        `We received a request to reset the password of your ${site.name} account. Use the button below to choose a new one. It works once and expires in 60 minutes.`,
      ],
      { href: link, label: 'Choose a new password' },
      'If you did not ask for this, you can ignore this email: your password stays the same.',
    ),
  });
}

export const PASSWORD_RESET_SECRET = 'password-reset';

/**
 * The outbox's minter for reset emails: a fresh token, valid 60 minutes from when it is sent,
 * for the account the email was queued for, while that account still has this address.
 */
export async function mintPasswordReset(
  ctx: AppContext,
  ref: string,
  recipient: string,
): Promise<string | null> {
  const customerId = Number(ref);
  const user = Number.isSafeInteger(customerId)
    ? await q.selectSessionUser(ctx.db, customerId)
    : undefined;
  if (!user || user.email.toLowerCase() !== recipient.toLowerCase()) return null;
  const token = randomToken();
  const now = ctx.clock.now();
  await q.insertPasswordReset(ctx.db, {
    tokenHash: hashToken(token),
    customerId,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MS).toISOString(),
  });
  return token;
}

export const resetLinkInvalid =
  'This reset link has expired or has already been used. Please request a new one.';

/**
 * Whether a reset link can still set a password, asked when its page opens: the token is looked up
 * by its hash (so the answer's timing says nothing of the token) and never spent, the answer names
 * no account, and each address may ask only so often.
 */
export async function checkPasswordResetLink(
  ctx: AppContext,
  token: string,
  meta: Pick<RequestMeta, 'ip'>,
): Promise<boolean> {
  await enforceAddressLimit(
    ctx,
    `reset-check:ip:${meta.ip}`,
    resetLimits.perAddress * 3,
    resetLimits.windowMs,
  );
  if (token.length === 0) return false;
  return q.isPasswordResetUsable(ctx.db, hashToken(token), ctx.clock.now().toISOString());
}

/** Spends a reset token once, sets the password, ends every session and says so by email. */
export async function updatePasswordWithToken(
  ctx: AppContext,
  input: z.infer<typeof PasswordUpdateSchema>,
): Promise<void> {
  const now = ctx.clock.now().toISOString();
  // A link that does not work has no account to compare with: it is refused below as it is.
  const email = await q.selectPasswordResetEmail(ctx.db, hashToken(input.token), now);
  const problem = passwordProblem(input.password, email ?? '');
  if (problem) throw new AppError('WEAK_PASSWORD', problem, { password: problem });
  const passwordHash = await hashPassword(input.password);
  const customerId = await ctx.db.transaction().execute(async (trx) => {
    const owner = await q.consumePasswordReset(trx, hashToken(input.token), now);
    if (owner === undefined) return undefined;
    await q.updatePasswordHash(trx, owner, passwordHash, now);
    await q.deleteSessionsOf(trx, owner);
    await ctx.sessions.ended(trx, owner);
    await sendPasswordChanged({ ...ctx, db: trx }, owner);
    return owner;
  });
  if (customerId === undefined) throw new AppError('RESET_LINK_INVALID', resetLinkInvalid);
  sendQueuedSoon(ctx);
}

/** From Accounts: needs the current password; other sessions end, this one stays. */
export const currentPasswordNeeded = 'Enter your current password to change your email.';
const wrongCurrentPassword = 'Your current password is incorrect.';

/**
 * Changes that could hand the account to someone else (password, email) need the current
 * password, not only a session: a stolen session alone cannot keep the account. Limited per
 * customer, so a session cannot be used to guess it either.
 */
export async function confirmCurrentPassword(
  ctx: AppContext,
  session: ActiveSession,
  password: string | undefined,
): Promise<void> {
  if (!password)
    throw new AppError('CURRENT_PASSWORD_REQUIRED', currentPasswordNeeded, {
      current_password: currentPasswordNeeded,
    });
  await enforceRateLimit(
    ctx,
    `password:${session.customerId}`,
    loginLimits.perAccountFailures * 2,
    loginLimits.windowMs,
  );
  const current = await q.selectPasswordHash(ctx.db, session.customerId);
  if (!current || !(await verifyPassword(current, password)))
    throw new AppError('WRONG_PASSWORD', wrongCurrentPassword, {
      current_password: wrongCurrentPassword,
    });
}

/**
 * After the owner undoes an email change (someone else had the account): every session ends,
 * every reset link still unused stops working and every device must log in anew. Runs in the
 * caller's transaction (`ctx.db`).
 */
export async function secureAccount(ctx: AppContext, customerId: number): Promise<void> {
  await q.deleteSessionsOf(ctx.db, customerId);
  await ctx.sessions.ended(ctx.db, customerId);
  await q.revokePasswordResets(ctx.db, customerId, ctx.clock.now().toISOString());
  await q.deleteKnownDevicesOf(ctx.db, `customer:${customerId}`);
}

export async function changePassword(
  ctx: AppContext,
  session: ActiveSession,
  input: z.infer<typeof ChangePasswordSchema>,
): Promise<void> {
  await confirmCurrentPassword(ctx, session, input.current_password);
  const user = await q.selectSessionUser(ctx.db, session.customerId);
  const problem = passwordProblem(input.password, user?.email ?? '');
  if (problem) throw new AppError('WEAK_PASSWORD', problem, { password: problem });
  const now = ctx.clock.now().toISOString();
  const passwordHash = await hashPassword(input.password);
  await ctx.db.transaction().execute(async (trx) => {
    await q.updatePasswordHash(trx, session.customerId, passwordHash, now);
    await q.deleteSessionsOf(trx, session.customerId, session.tokenHash);
    await ctx.sessions.ended(trx, session.customerId);
    await sendPasswordChanged({ ...ctx, db: trx }, session.customerId);
  });
  sendQueuedSoon(ctx);
}

/** Queued in `ctx.db`'s transaction, with the change it tells of. */
async function sendPasswordChanged(ctx: AppContext, customerId: number): Promise<void> {
  const user = await q.selectSessionUser(ctx.db, customerId);
  if (!user) return;
  // The page that emails a reset link: the owner asks for one there if the change was not theirs.
  const link = absoluteLink(ctx.env, paths.resetPassword);
  await queueEmail(ctx, {
    to: user.email,
    subject: `Your ${site.name} password was changed`,
    text: [
      `Hello ${user.firstName},`,
      '',
      `The password of your ${site.name} account was just changed, and every other device was logged out.`,
      '',
      `If this was you, there is nothing more to do. If it was not, reset your password right away and write to us at ${site.supportEmail}.`,
      '',
      `Reset your password: ${link}`,
      '',
      ...emailSignature,
    ].join('\n'),
    html: emailHtml(
      [
        `Hello ${user.firstName},`,
        `The password of your ${site.name} account was just changed, and every other device was logged out.`,
      ],
      { href: link, label: 'Reset your password' },
      `If this was you, there is nothing more to do. If it was not, reset your password right away and write to us at ${site.supportEmail}.`,
    ),
  });
}
