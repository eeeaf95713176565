import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import type { StaffRole } from '#shared/staff.ts';

type Db = Kysely<Database>;

export interface StaffRow {
  id: number;
  email: string;
  name: string;
  role: StaffRole;
  passwordHash: string;
  totpSecret: string;
  totpLastStep: number;
  active: boolean;
}

const columns = [
  'id',
  'email',
  'name',
  'role',
  'password_hash',
  'totp_secret',
  'totp_last_step',
  'active',
] as const;

function toStaff(r: {
  id: number;
  email: string;
  name: string;
  role: StaffRole;
  password_hash: string;
  totp_secret: string;
  totp_last_step: number;
  active: number;
}): StaffRow {
  return {
    id: r.id,
    email: r.email,
    name: r.name,
    role: r.role,
    passwordHash: r.password_hash,
    totpSecret: r.totp_secret,
    totpLastStep: r.totp_last_step,
    active: r.active === 1,
  };
}

export async function selectStaffByEmail(db: Db, email: string): Promise<StaffRow | undefined> {
  const row = await db
    .selectFrom('staff_users')
    .select(columns)
    .where('email', '=', email)
    .executeTakeFirst();
  return row && toStaff(row);
}

export async function selectStaff(db: Db, id: number): Promise<StaffRow | undefined> {
  const row = await db
    .selectFrom('staff_users')
    .select(columns)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toStaff(row);
}

/**
 * Issue 29: the states where a provider holds a licence valid on `today` (YYYY-MM-DD): where they
 * may see charts, be routed visits and prescribe. An expired licence counts for nothing.
 */
export async function selectLicensedStates(
  db: Db,
  staffId: number,
  today: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('staff_licences')
    .select('state')
    .where('staff_id', '=', staffId)
    .where('expires_on', '>=', today)
    .orderBy('state')
    .execute();
  return rows.map((r) => r.state);
}

/** Active providers, by name, each with the states where a licence of theirs is valid on `today`. */
export async function selectActiveProviders(db: Db, today: string) {
  const rows = await db
    .selectFrom('staff_users as s')
    .leftJoin('staff_licences as l', (join) =>
      join.onRef('l.staff_id', '=', 's.id').on('l.expires_on', '>=', today),
    )
    .select(['s.id', 's.name', 'l.state'])
    .where('s.role', '=', 'provider')
    .where('s.active', '=', 1)
    .orderBy('s.name')
    .orderBy('s.id')
    .orderBy('l.state')
    .execute();
  const providers = new Map<number, { id: number; name: string; licensedStates: string[] }>();
  for (const row of rows) {
    const provider = providers.get(row.id) ?? { id: row.id, name: row.name, licensedStates: [] };
    if (row.state !== null) provider.licensedStates.push(row.state);
    providers.set(row.id, provider);
  }
  return [...providers.values()];
}

/** Active providers' licences whose last valid day is between `from` and `to`, soonest first. */
export async function selectExpiringLicences(db: Db, from: string, to: string) {
  return db
    .selectFrom('staff_licences as l')
    .innerJoin('staff_users as s', 's.id', 'l.staff_id')
    .select(['s.name', 'l.state', 'l.number', 'l.expires_on'])
    .where('s.role', '=', 'provider')
    .where('s.active', '=', 1)
    .where('l.expires_on', '>=', from)
    .where('l.expires_on', '<=', to)
    .orderBy('l.expires_on')
    .orderBy('s.name')
    .orderBy('l.state')
    .execute();
}

/** Spends a TOTP step: false when it (or a later one) was used already, so a code works once. */
export async function useTotpStep(db: Db, staffId: number, step: number): Promise<boolean> {
  const result = await db
    .updateTable('staff_users')
    .set({ totp_last_step: step })
    .where('id', '=', staffId)
    .where('totp_last_step', '<', step)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertStaff(
  db: Db,
  staff: {
    email: string;
    name: string;
    role: StaffRole;
    passwordHash: string;
    totpSecret: string;
    npi?: string;
    licences?: { state: string; number: string; expiresOn: string }[];
    now: string;
  },
): Promise<void> {
  const licences = staff.licences ?? [];
  const row = await db
    .insertInto('staff_users')
    .values({
      email: staff.email,
      name: staff.name,
      role: staff.role,
      password_hash: staff.passwordHash,
      totp_secret: staff.totpSecret,
      // Kept for reading by hand only: where a provider may practise is their licences valid today.
      licensed_states: licences.map((l) => l.state).join(','),
      npi: staff.npi ?? null,
      created_at: staff.now,
    })
    .onConflict((oc) => oc.column('email').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (row && licences.length > 0) await insertLicences(db, row.id, licences);
}

export async function setMissingNpi(db: Db, staffId: number, npi: string): Promise<void> {
  await db
    .updateTable('staff_users')
    .set({ npi })
    .where('id', '=', staffId)
    .where('npi', 'is', null)
    .execute();
}

/** Records licences a staff member holds; one already on file for its state is left as it is. */
export async function insertLicences(
  db: Db,
  staffId: number,
  licences: { state: string; number: string; expiresOn: string }[],
): Promise<void> {
  await db
    .insertInto('staff_licences')
    .values(
      licences.map((l) => ({
        staff_id: staffId,
        state: l.state,
        number: l.number,
        expires_on: l.expiresOn,
      })),
    )
    .onConflict((oc) => oc.columns(['staff_id', 'state']).doNothing())
    .execute();
}

/** A prescriber's name, NPI and licence in one state (null when they hold none there). */
export async function selectPrescriber(db: Db, staffId: number, state: string) {
  const row = await db
    .selectFrom('staff_users as s')
    .leftJoin('staff_licences as l', (join) =>
      join.onRef('l.staff_id', '=', 's.id').on('l.state', '=', state),
    )
    .select(['s.name', 's.npi', 'l.number', 'l.expires_on'])
    .where('s.id', '=', staffId)
    .executeTakeFirst();
  return (
    row && {
      name: row.name,
      npi: row.npi,
      licence:
        row.number !== null && row.expires_on !== null
          ? { state, number: row.number, expiresOn: row.expires_on }
          : null,
    }
  );
}

export async function insertStaffSession(
  db: Db,
  s: { tokenHash: string; staffId: number; now: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('staff_sessions')
    .values({
      token_hash: s.tokenHash,
      staff_id: s.staffId,
      created_at: s.now,
      last_seen_at: s.now,
      expires_at: s.expiresAt,
    })
    .execute();
}

export async function selectStaffSession(db: Db, tokenHash: string) {
  const row = await db
    .selectFrom('staff_sessions')
    .select(['staff_id', 'last_seen_at', 'expires_at'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row && { staffId: row.staff_id, lastSeenAt: row.last_seen_at, expiresAt: row.expires_at };
}

export async function touchStaffSession(db: Db, tokenHash: string, now: string): Promise<void> {
  await db
    .updateTable('staff_sessions')
    .set({ last_seen_at: now })
    .where('token_hash', '=', tokenHash)
    .execute();
}

export async function deleteStaffSession(db: Db, tokenHash: string): Promise<void> {
  await db.deleteFrom('staff_sessions').where('token_hash', '=', tokenHash).execute();
}

export async function insertAudit(
  db: Db,
  entry: {
    staffId: number;
    action: string;
    subjectType: string;
    subjectId: string | null;
    customerId: number | null;
    ip: string;
    at: string;
  },
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      staff_id: entry.staffId,
      action: entry.action,
      subject_type: entry.subjectType,
      subject_id: entry.subjectId,
      customer_id: entry.customerId,
      ip_address: entry.ip,
      at: entry.at,
    })
    .execute();
}

/** Audit entries about one subject, oldest first, with the name of who acted. */
export async function selectAuditEntries(
  db: Db,
  subject: { type: string; id: string; actions: string[] },
): Promise<{ action: string; at: string; staffId: number; name: string }[]> {
  if (subject.actions.length === 0) return [];
  return db
    .selectFrom('audit_log as a')
    .innerJoin('staff_users as s', 's.id', 'a.staff_id')
    .select(['a.action', 'a.at', 'a.staff_id as staffId', 's.name'])
    .where('a.subject_type', '=', subject.type)
    .where('a.subject_id', '=', subject.id)
    .where('a.action', 'in', subject.actions)
    .orderBy('a.id')
    .execute();
}

export async function selectStaffName(db: Db, staffId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('staff_users')
    .select('name')
    .where('id', '=', staffId)
    .executeTakeFirst();
  return row?.name;
}
