import type { AppContext } from '#server/context.ts';
import { AppError } from '#server/lib/errors.ts';
import { selectStanding, type StandingRow } from './accounts.queries.ts';

export type { StandingRow } from './accounts.queries.ts';

/**
 * Who the customer is and everything the member area's flags need, in one statement: the member
 * feature composes it with the order history and the visits. 401 when the customer is gone.
 */
export async function standingOf(ctx: AppContext, customerId: number): Promise<StandingRow> {
  const standing = await selectStanding(ctx.db, customerId);
  if (!standing) throw new AppError('UNAUTHENTICATED', 'Please log in to continue.');
  return standing;
}
