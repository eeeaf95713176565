import crypto from 'node:crypto';
import type { AppContext } from '#server/context.ts';
import {
  admitLogin,
  rememberDevice,
  requestLoginUnlock,
  type DeviceCookie,
} from '#server/features/auth/auth.devices.ts';
import { hashToken } from '#server/features/auth/auth.service.ts';
import { decoyPasswordHash, verifyPassword } from '#server/features/auth/passwords.ts';
import { verifyTotp } from '#server/lib/totp.ts';
import { AppError } from '#server/lib/errors.ts';
import type { StaffLogin, StaffRole, StaffUser } from '#shared/staff.ts';
import * as q from './staff.queries.ts';

/** DESIGN §7: staff are logged out after 15 idle minutes; 12 hours at most. */
export const STAFF_IDLE_MS = 15 * 60_000;
export const STAFF_ABSOLUTE_MS = 12 * 60 * 60_000;
const TOUCH_EVERY_MS = 30_000;

export interface StaffSession {
  tokenHash: string;
  staff: StaffUser;
}

function toUser(row: q.StaffRow): StaffUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    licensed_states: row.licensedStates,
  };
}

const refused = () =>
  new AppError('INVALID_CREDENTIALS', 'The email, password or code is incorrect.');

/**
 * Password and a TOTP code from an authenticator app, each code usable once, on any device. The
 * same protection as customers' log-in (auth.devices.ts): a wrong password or code from an unknown
 * device counts against the account; a device that has logged in before is not held up by them.
 */
export async function staffLogin(
  ctx: AppContext,
  input: StaffLogin,
  meta: { ip: string; deviceToken: string | undefined },
): Promise<{ token: string; maxAgeSeconds: number; staff: StaffUser; device: DeviceCookie }> {
  const staff = await q.selectStaffByEmail(ctx.db, input.email);
  const admitted = await admitLogin(ctx, {
    kind: 'staff',
    email: input.email,
    accountId: staff?.id,
    ip: meta.ip,
    deviceToken: meta.deviceToken,
  });
  const passwordOk = await verifyPassword(
    staff?.passwordHash ?? (await decoyPasswordHash()),
    input.password,
  );
  if (!staff || !staff.active || !passwordOk) throw refused();
  const step = verifyTotp(staff.totpSecret, input.code, ctx.clock.now());
  if (step === null || !(await q.useTotpStep(ctx.db, staff.id, step))) throw refused();
  await admitted.succeeded();
  const device = await rememberDevice(ctx, 'staff', staff.id, meta.deviceToken);
  const token = crypto.randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  await q.insertStaffSession(ctx.db, {
    tokenHash: hashToken(token),
    staffId: staff.id,
    now: now.toISOString(),
    expiresAt: new Date(now.getTime() + STAFF_ABSOLUTE_MS).toISOString(),
  });
  return { token, maxAgeSeconds: STAFF_ABSOLUTE_MS / 1000, staff: toUser(staff), device };
}

/** The emailed link that lets a new device log in while a staff account's log-ins are limited. */
export function requestStaffUnlock(ctx: AppContext, email: string, ip: string): Promise<void> {
  return requestLoginUnlock(ctx, 'staff', email, ip, async () => {
    const staff = await q.selectStaffByEmail(ctx.db, email);
    return staff?.active ? { id: staff.id, email: staff.email, name: staff.name } : undefined;
  });
}

export async function resolveStaffSession(
  ctx: AppContext,
  token: string,
): Promise<StaffSession | null> {
  if (token.length < 20 || token.length > 100) return null;
  const tokenHash = hashToken(token);
  const session = await q.selectStaffSession(ctx.db, tokenHash);
  if (!session) return null;
  const now = ctx.clock.now().getTime();
  const idle = now - Date.parse(session.lastSeenAt);
  if (now >= Date.parse(session.expiresAt) || idle >= STAFF_IDLE_MS) {
    await q.deleteStaffSession(ctx.db, tokenHash);
    return null;
  }
  const staff = await q.selectStaff(ctx.db, session.staffId);
  if (!staff || !staff.active) return null;
  if (idle >= TOUCH_EVERY_MS)
    await q.touchStaffSession(ctx.db, tokenHash, new Date(now).toISOString());
  return { tokenHash, staff: toUser(staff) };
}

export function endStaffSession(ctx: AppContext, tokenHash: string): Promise<void> {
  return q.deleteStaffSession(ctx.db, tokenHash);
}

/** Writes who looked at or changed what, for whom (DESIGN §7). */
export async function audit(
  ctx: AppContext,
  session: StaffSession,
  entry: {
    action: string;
    subjectType: string;
    subjectId?: string | number;
    customerId?: number;
    ip: string;
  },
): Promise<void> {
  await q.insertAudit(ctx.db, {
    staffId: session.staff.id,
    action: entry.action,
    subjectType: entry.subjectType,
    subjectId: entry.subjectId === undefined ? null : String(entry.subjectId),
    customerId: entry.customerId ?? null,
    ip: entry.ip,
    at: ctx.clock.now().toISOString(),
  });
}

/** The staff member asking for a change, for the audit entry written in the change's transaction. */
export interface StaffActor {
  staffId: number;
  ip: string;
}

/**
 * The entry of a staff member's change, written by the service in the transaction that makes it
 * (`ctx.db` is that transaction), so the change and its entry commit or roll back together; also
 * for a change finished without the session at hand (a refund the payment reconciler completed for
 * the staff member who asked for it).
 */
export async function auditAs(
  ctx: AppContext,
  staffId: number,
  entry: {
    action: string;
    subjectType: string;
    subjectId: string;
    customerId?: number;
    ip: string;
  },
): Promise<void> {
  await q.insertAudit(ctx.db, {
    staffId,
    action: entry.action,
    subjectType: entry.subjectType,
    subjectId: entry.subjectId,
    customerId: entry.customerId ?? null,
    ip: entry.ip,
    at: ctx.clock.now().toISOString(),
  });
}

/**
 * The account the audit log names for what the payment processor did on its own (a refund made in
 * Stripe's Dashboard, a dispute): migration 0035 made it, inactive and unable to sign in, since
 * every audit entry names a staff member.
 */
export async function processorStaffId(ctx: AppContext): Promise<number> {
  const staff = await q.selectStaffByEmail(ctx.db, 'stripe@processor.invalid');
  if (!staff) throw new Error('The Stripe audit account (migration 0035) is missing.');
  return staff.id;
}

export function hasRole(session: StaffSession, role: StaffRole): boolean {
  return session.staff.role === role;
}

export async function createStaff(
  ctx: AppContext,
  staff: {
    email: string;
    name: string;
    role: StaffRole;
    passwordHash: string;
    totpSecret: string;
    licensedStates: string[];
    /** A provider's National Provider Identifier and state licences (issue 29). */
    npi?: string;
    licences?: { state: string; number: string; expiresOn: string }[];
  },
): Promise<void> {
  await q.insertStaff(ctx.db, { ...staff, now: ctx.clock.now().toISOString() });
}

/** A prescriber as a prescription names them: name, NPI and licence in the patient's state. */
export function prescriberOf(ctx: AppContext, staffId: number, state: string) {
  return q.selectPrescriber(ctx.db, staffId, state);
}

/** What the audit log says was done to a subject (a visit, an upload), oldest first. */
export function auditEntriesOf(
  ctx: AppContext,
  subject: { type: string; id: string; actions: string[] },
) {
  return q.selectAuditEntries(ctx.db, subject);
}

export function staffName(ctx: AppContext, staffId: number): Promise<string | undefined> {
  return q.selectStaffName(ctx.db, staffId);
}
