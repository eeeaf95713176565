// Once a visit is submitted: the provider assigned to it, the patient's survey; and feedback at large.
import type { AppContext } from '#server/context.ts';
import type { ActiveSession } from '#server/features/auth/auth.service.ts';
import { AppError } from '#server/lib/errors.ts';
import { ownVisit } from './visits.program.ts';
import * as q from './visits.queries.ts';

/** Spec §7 `/doctor`: the provider assigned to the patient's visit (licensed in their state), once submitted. */
export async function assignedProvider(
  ctx: AppContext,
  session: ActiveSession,
  visitId: number,
): Promise<{ name: string } | null> {
  const visit = await ownVisit(ctx, session, visitId);
  const name = await q.selectProviderName(ctx.db, visit.id);
  return name ? { name } : null;
}

/** Spec §7 `/survey/`: how the visit went, once it has been submitted. */
export async function saveSurvey(
  ctx: AppContext,
  session: ActiveSession,
  input: {
    visitId: number;
    rating: number;
    wouldRecommend: boolean;
    comments?: string | undefined;
  },
): Promise<void> {
  const visit = await ownVisit(ctx, session, input.visitId);
  if (visit.status === 'IN_PROGRESS')
    throw new AppError('VISIT_STEP', 'You can rate your visit once it is submitted.');
  await q.insertFeedback(ctx.db, {
    customerId: session.customerId,
    visitId: visit.id,
    kind: 'survey',
    rating: input.rating,
    wouldRecommend: input.wouldRecommend,
    comments: input.comments ?? null,
    now: ctx.clock.now().toISOString(),
  });
}

/** Spec §7 `/feedback/`: anything a customer wants to tell us. */
export async function saveFeedback(
  ctx: AppContext,
  session: ActiveSession,
  input: { message: string; rating?: number | undefined },
): Promise<void> {
  await q.insertFeedback(ctx.db, {
    customerId: session.customerId,
    visitId: null,
    kind: 'feedback',
    rating: input.rating ?? null,
    wouldRecommend: null,
    comments: input.message,
    now: ctx.clock.now().toISOString(),
  });
}
