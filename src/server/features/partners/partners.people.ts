// Who the caller and their partner are, read on the call that asks (issue 16, decision 016): what
// every story of the partners feature starts from. Never kept: an unlink on one instance is the
// next call's truth on every other.
import type { AppContext } from '#server/context.ts';
import { customerBrief, type CustomerBrief } from '#server/features/accounts/accounts.people.ts';
import type { ActiveSession } from '#server/features/auth/auth.service.ts';
import { AppError } from '#server/lib/errors.ts';
import * as q from './partners.queries.ts';

export const notLinked = 'You are not linked with a partner.';

/** The caller, with their email in lower case (invitations are matched on it). */
export async function me(ctx: AppContext, session: ActiveSession): Promise<CustomerBrief> {
  const brief = await customerBrief(ctx, session.customerId);
  // The session outlived its account: as any other call would, ask for a log-in.
  if (!brief) throw new AppError('UNAUTHENTICATED', 'Please log in again.');
  return { ...brief, email: brief.email.toLowerCase() };
}

export interface Partner {
  customerId: number;
  firstName: string;
}

/** The caller's linked partner, read now; undefined when not linked. */
export async function linkedPartner(
  ctx: AppContext,
  customerId: number,
): Promise<Partner | undefined> {
  const link = await q.selectOwnLink(ctx.db, customerId);
  if (!link) return undefined;
  const brief = await customerBrief(ctx, link.partnerId);
  return brief && { customerId: brief.customerId, firstName: brief.firstName };
}
