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
import { isNpi, type StaffLogin, type StaffRole, type StaffUser } from '#shared/staff.ts';
import * as q from './staff.queries.ts';

/** DESIGN §7: staff are logged out after 15 idle minutes; 12 hours at most. */
export const STAFF_IDLE_MS = 15 * 60_000;
export const STAFF_ABSOLUTE_MS = 12 * 60 * 60_000;
const TOUCH_EVERY_MS = 30_000;

export interface StaffSession {
  tokenHash: string;
  staff: StaffUser;
}

/** The staff member as a session knows them: a provider's states are their licences valid today. */
async function toUser(ctx: AppContext, row: q.StaffRow): Promise<StaffUser> {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    licensed_states:
      row.role === 'provider' ? await q.selectLicensedStates(ctx.db, row.id, today(ctx)) : [],
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
  return {
    token,
    maxAgeSeconds: STAFF_ABSOLUTE_MS / 1000,
    staff: await toUser(ctx, staff),
    device,
  };
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
  return { tokenHash, staff: await toUser(ctx, staff) };
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

/**
 * A staff member. A provider is licensed where `licences` say, each to its last valid day; their
 * NPI must pass its check digit (issue 29). An email already on file is left as it is.
 */
export async function createStaff(
  ctx: AppContext,
  staff: {
    email: string;
    name: string;
    role: StaffRole;
    passwordHash: string;
    totpSecret: string;
    /** A provider's National Provider Identifier and state licences (issue 29). */
    npi?: string;
    licences?: { state: string; number: string; expiresOn: string }[];
  },
): Promise<void> {
  if (staff.npi !== undefined && !isNpi(staff.npi))
    throw new Error(`${staff.npi} is not an NPI: ten digits whose last is its Luhn check digit`);
  await q.insertStaff(ctx.db, { ...staff, now: ctx.clock.now().toISOString() });
}

/**
 * Records a provider's NPI where none is on file, and their licences (one already on file for a
 * state is kept): for a provider who was on staff before licences were recorded (migration 0037).
 */
export async function addCredentials(
  ctx: AppContext,
  staffId: number,
  credentials: { npi?: string; licences?: { state: string; number: string; expiresOn: string }[] },
): Promise<void> {
  if (credentials.npi !== undefined) {
    if (!isNpi(credentials.npi)) throw new Error(`${credentials.npi} is not an NPI`);
    await q.setMissingNpi(ctx.db, staffId, credentials.npi);
  }
  if (credentials.licences?.length) await q.insertLicences(ctx.db, staffId, credentials.licences);
}

/** Today as the licences count it: the UTC calendar day on the app's clock. */
const today = (ctx: AppContext) => ctx.clock.now().toISOString().slice(0, 10);

/**
 * Active providers, by name, each with the states where they hold a licence valid today: whom a
 * visit may be routed to, who may answer a state's patients, which states are covered.
 */
export function activeProviders(ctx: AppContext) {
  return q.selectActiveProviders(ctx.db, today(ctx));
}

/** Licences of active providers whose last valid day is within `days` from today, soonest first. */
export async function expiringLicences(ctx: AppContext, days: number) {
  const from = today(ctx);
  const to = new Date(Date.parse(`${from}T00:00:00Z`) + days * 86_400_000)
    .toISOString()
    .slice(0, 10);
  return q.selectExpiringLicences(ctx.db, from, to);
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
