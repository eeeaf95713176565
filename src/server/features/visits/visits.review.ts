// What the provider console (reviews) reads and writes of a visit.
import type { AppContext } from '#server/context.ts';
import type { Answers, Questionnaire } from '#shared/questionnaires/format.ts';
import { questionnaireVersion } from '#shared/questionnaires/registry.ts';
import * as q from './visits.queries.ts';

export function reviewQueue(ctx: AppContext, states: string[]) {
  return q.selectReviewQueue(ctx.db, states);
}

export function chartBase(ctx: AppContext, visitId: number) {
  return q.selectChartBase(ctx.db, visitId);
}

export async function visitAnswersOf(ctx: AppContext, visitId: number): Promise<Answers> {
  return q.selectAnswers(ctx.db, visitId);
}

export function questionnaireFor(id: string, version: string): Questionnaire | undefined {
  return questionnaireVersion(id, version);
}

export function decideVisit(
  ctx: AppContext,
  visitId: number,
  status: 'APPROVED' | 'DECLINED',
  reason: string | null,
) {
  return q.decideVisit(ctx.db, visitId, status, reason, ctx.clock.now().toISOString());
}

export function recordPrescription(
  ctx: AppContext,
  p: Omit<Parameters<typeof q.insertPrescription>[1], 'now'>,
) {
  return q.insertPrescription(ctx.db, { ...p, now: ctx.clock.now().toISOString() });
}

export function visitPrescription(ctx: AppContext, visitId: number) {
  return q.selectVisitPrescription(ctx.db, visitId);
}

/** A prescription by its id, with the program and the state it was written for (issue 29). */
export function prescriptionById(ctx: AppContext, id: number) {
  return q.selectPrescription(ctx.db, id);
}
