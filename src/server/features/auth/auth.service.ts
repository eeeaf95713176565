import crypto from 'node:crypto';
import type { AppContext } from '#server/context.ts';
import { emailHtml, emailSignature } from '#server/lib/email-layout.ts';
import { AppError } from '#server/plugins/errors.ts';
import type {
  ChangePasswordSchema,
  Login,
  PasswordUpdateSchema,
  SessionInfo,
} from '#shared/accounts.ts';
import { messages } from '#shared/messages.ts';
import type { SessionUser } from '#shared/session.ts';
import { site } from '#shared/site.ts';
import type { z } from 'zod';
import * as q from './auth.queries.ts';
import { decoyPasswordHash, hashPassword, passwordProblem, verifyPassword } from './passwords.ts';

/** DESIGN §7: customers are logged out after 30 minutes idle or 12 hours in all. */
export const SESSION_IDLE_MS = 30 * 60_000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60_000;
/** Touch last-seen at most once a minute, not on every request. */
const TOUCH_EVERY_MS = 60_000;
export const RESET_TOKEN_TTL_MS = 60 * 60_000;

const FIFTEEN_MINUTES = 15 * 60_000;
const ONE_HOUR = 60 * 60_000;
export const loginLimits = { perAccountFailures: 5, perAddress: 30, windowMs: FIFTEEN_MINUTES };
const resetLimits = { perAccount: 3, perAddress: 10, windowMs: ONE_HOUR };

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

function randomToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

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
  return new AppError(429, 'TOO_MANY_ATTEMPTS', messages.tooManyRequests);
}

// --- Sessions ------------------------------------------------------------------------------------

export interface ActiveSession {
  tokenHash: string;
  customerId: number;
  leadsId: string;
}

/** A new server-side session: the caller puts the token in the cookie; only its hash is stored. */
export async function startSession(
  ctx: AppContext,
  customerId: number,
  userAgent: string,
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
    userAgent: userAgent.slice(0, 300),
  });
  return { token, maxAgeSeconds: SESSION_ABSOLUTE_MS / 1000 };
}

/** The session a cookie names, if it is still alive; an idle or expired one is deleted. */
export async function resolveSession(
  ctx: AppContext,
  token: string,
): Promise<ActiveSession | null> {
  if (token.length < 20 || token.length > 100) return null;
  const tokenHash = hashToken(token);
  const session = await q.selectSession(ctx.db, tokenHash);
  if (!session) return null;
  const now = ctx.clock.now().getTime();
  const idleFor = now - Date.parse(session.lastSeenAt);
  if (now >= Date.parse(session.expiresAt) || idleFor >= SESSION_IDLE_MS) {
    await q.deleteSession(ctx.db, tokenHash);
    return null;
  }
  if (idleFor >= TOUCH_EVERY_MS)
    await q.touchSession(ctx.db, tokenHash, new Date(now).toISOString());
  return { tokenHash, customerId: session.customerId, leadsId: session.leadsId };
}

export async function endSession(ctx: AppContext, tokenHash: string): Promise<void> {
  await q.deleteSession(ctx.db, tokenHash);
}

export async function sessionUser(ctx: AppContext, customerId: number): Promise<SessionUser> {
  const row = await q.selectSessionUser(ctx.db, customerId);
  if (!row) throw new AppError(401, 'UNAUTHENTICATED', messages.unauthorized);
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
    }));
}

export function endOtherSessions(
  ctx: AppContext,
  customerId: number,
  currentTokenHash: string,
): Promise<number> {
  return q.deleteSessionsOf(ctx.db, customerId, currentTokenHash);
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
  new AppError(401, 'INVALID_CREDENTIALS', 'The email or password you entered is incorrect.');

/**
 * Checks the password and opens a session. Limited per address (every attempt) and per account
 * (failures), in the database so every instance counts the same attempts.
 */
export async function login(
  ctx: AppContext,
  input: Login,
  meta: RequestMeta,
): Promise<{ token: string; maxAgeSeconds: number; user: SessionUser }> {
  await enforceAddressLimit(
    ctx,
    `login:ip:${meta.ip}`,
    loginLimits.perAddress,
    loginLimits.windowMs,
  );
  const accountKey = `login:account:${input.email}`;
  const failures = await q.peekRateLimit(ctx.db, accountKey, ctx.clock.now(), loginLimits.windowMs);
  if (failures >= loginLimits.perAccountFailures) throw tooMany();

  const credentials = await q.selectCredentialsByEmail(ctx.db, input.email);
  const ok = await verifyPassword(
    credentials?.passwordHash ?? (await decoyPasswordHash()),
    input.password,
  );
  if (!credentials || !ok) {
    await q.hitRateLimit(ctx.db, accountKey, ctx.clock.now(), loginLimits.windowMs);
    throw invalidCredentials();
  }
  await q.clearRateLimit(ctx.db, accountKey);
  const session = await startSession(ctx, credentials.customerId, meta.userAgent);
  return { ...session, user: await sessionUser(ctx, credentials.customerId) };
}

// --- Passwords -----------------------------------------------------------------------------------

/**
 * Sends a reset link when the address belongs to an account. The caller answers the same either
 * way, so nobody can learn which addresses have accounts.
 */
export async function requestPasswordReset(
  ctx: AppContext,
  email: string,
  meta: RequestMeta & { origin: string },
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
  const token = randomToken();
  await q.insertPasswordReset(ctx.db, {
    tokenHash: hashToken(token),
    customerId: credentials.customerId,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MS).toISOString(),
  });
  const link = `${ctx.env.PUBLIC_URL ?? meta.origin}/reset-password?id=${encodeURIComponent(token)}`;
  await ctx.mailer.send({
    to: email,
    subject: `Reset your ${site.name} password`,
    text: [
      'Hello,',
      '',
      `We received a request to reset the password of your ${site.name} account. Use this link to choose a new one. It works once and expires in 60 minutes:`,
      '',
      link,
      '',
      'If you did not ask for this, you can ignore this e-mail: your password stays the same.',
      '',
      ...emailSignature,
    ].join('\n'),
    html: emailHtml(
      [
        'Hello,',
        `We received a request to reset the password of your ${site.name} account. Use the button below to choose a new one. It works once and expires in 60 minutes.`,
      ],
      { href: link, label: 'Choose a new password' },
      'If you did not ask for this, you can ignore this e-mail: your password stays the same.',
    ),
  });
}

export const resetLinkInvalid =
  'This reset link has expired or has already been used. Please request a new one.';

/** Spends a reset token once, sets the password, ends every session and says so by e-mail. */
export async function updatePasswordWithToken(
  ctx: AppContext,
  input: z.infer<typeof PasswordUpdateSchema>,
): Promise<void> {
  const problem = passwordProblem(input.password);
  if (problem) throw new AppError(400, 'WEAK_PASSWORD', problem, { password: problem });
  const passwordHash = await hashPassword(input.password);
  const now = ctx.clock.now().toISOString();
  const customerId = await ctx.db.transaction().execute(async (trx) => {
    const owner = await q.consumePasswordReset(trx, hashToken(input.token), now);
    if (owner === undefined) return undefined;
    await q.updatePasswordHash(trx, owner, passwordHash, now);
    await q.deleteSessionsOf(trx, owner);
    return owner;
  });
  if (customerId === undefined) throw new AppError(400, 'RESET_LINK_INVALID', resetLinkInvalid);
  await sendPasswordChanged(ctx, customerId);
}

/** From Accounts: needs the current password; other sessions end, this one stays. */
export async function changePassword(
  ctx: AppContext,
  session: ActiveSession,
  input: z.infer<typeof ChangePasswordSchema>,
): Promise<void> {
  await enforceRateLimit(
    ctx,
    `password:${session.customerId}`,
    loginLimits.perAccountFailures * 2,
    loginLimits.windowMs,
  );
  const current = await q.selectPasswordHash(ctx.db, session.customerId);
  if (!current || !(await verifyPassword(current, input.current_password))) {
    throw new AppError(400, 'WRONG_PASSWORD', 'Your current password is incorrect.', {
      current_password: 'Your current password is incorrect.',
    });
  }
  const problem = passwordProblem(input.password);
  if (problem) throw new AppError(400, 'WEAK_PASSWORD', problem, { password: problem });
  const now = ctx.clock.now().toISOString();
  await q.updatePasswordHash(ctx.db, session.customerId, await hashPassword(input.password), now);
  await q.deleteSessionsOf(ctx.db, session.customerId, session.tokenHash);
  await sendPasswordChanged(ctx, session.customerId);
}

async function sendPasswordChanged(ctx: AppContext, customerId: number): Promise<void> {
  const user = await q.selectSessionUser(ctx.db, customerId);
  if (!user) return;
  await ctx.mailer.send({
    to: user.email,
    subject: `Your ${site.name} password was changed`,
    text: [
      `Hello ${user.firstName},`,
      '',
      `The password of your ${site.name} account was just changed, and every other device was logged out.`,
      '',
      `If this was you, there is nothing more to do. If it was not, reset your password right away and write to us at ${site.supportEmail}.`,
      '',
      ...emailSignature,
    ].join('\n'),
    html: emailHtml(
      [
        `Hello ${user.firstName},`,
        `The password of your ${site.name} account was just changed, and every other device was logged out.`,
      ],
      null,
      `If this was you, there is nothing more to do. If it was not, reset your password right away and write to us at ${site.supportEmail}.`,
    ),
  });
}
