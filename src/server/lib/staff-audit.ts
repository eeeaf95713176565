import type { AppContext } from '#server/context.ts';
import type { StaffSession } from '#server/features/staff/staff.service.ts';

/** One entry of the staff audit log (DESIGN §7): who did what to which record, from where. */
export interface AuditEntry {
  action: string;
  subjectType: string;
  subjectId?: string | number;
  customerId?: number;
  ip: string;
}

/** Writes an entry; works inside a transaction (the context's `db`). */
export type AuditWriter = (
  ctx: AppContext,
  session: StaffSession,
  entry: AuditEntry,
) => Promise<void>;

/**
 * Writes a staff member's audit entry through the writer the app put in the context at start (the
 * staff feature's), so plumbing such as route() audits a call without importing a feature.
 */
export function audit(ctx: AppContext, session: StaffSession, entry: AuditEntry): Promise<void> {
  return ctx.staffAudit(ctx, session, entry);
}
