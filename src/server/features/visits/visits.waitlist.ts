// "Tell me when my state opens": when the states online visits cover gain one (a new
// STATES_ALLOWED at start, a provider licensed there), each patient waiting for it is emailed once.
import type { AppContext } from '#server/context.ts';
import { queueEmail, sendQueuedSoon } from '#server/features/outbox/outbox.service.ts';
import { emailHtml, emailSignature } from '#server/lib/email-layout.ts';
import type { Job } from '#server/lib/jobs.ts';
import { absoluteLink } from '#server/lib/links.ts';
import { paths } from '#shared/paths.ts';
import { stateName } from '#shared/us-states.ts';
import { statesAllowed } from './visits.program.ts';
import { markNotified, selectDueWaitlist, type WaitingPatient } from './visits.waitlist.queries.ts';

export const WAITLIST_JOB = 'state-waitlist';
const BATCH = 20;

/**
 * No program and no health detail: only that the state opened. The link opens Home, where the
 * closed visit offers to start again — a link to the visit itself would name the program.
 */
async function queueStateOpened(ctx: AppContext, patient: WaitingPatient): Promise<void> {
  const name = stateName(patient.state);
  const link = absoluteLink(ctx.env, paths.dashboard);
  const lines = [
    `Hello ${patient.firstName},`,
    `You asked us to tell you when our providers could see patients in ${name}. They can now: log in to start your online visit.`,
  ];
  await queueEmail(ctx, {
    to: patient.email,
    subject: `Online visits are now open in ${name}`,
    text: [...lines, '', `Start your visit: ${link}`, '', ...emailSignature].join('\n'),
    html: emailHtml(
      lines,
      { href: link, label: 'Start your visit' },
      'You are receiving this one email because you asked for it. For your privacy, we never put health details in email.',
    ),
  });
}

/**
 * One batch: patients waiting for a state that is covered now. Each is claimed (notified_at set
 * where it was empty) in the transaction that queues their email, so however many runs or
 * instances race, each patient is told once. Answers whether more may be left.
 */
export async function notifyWaitlist(ctx: AppContext): Promise<{ sent: number; more: boolean }> {
  const due = await selectDueWaitlist(ctx.db, await statesAllowed(ctx), BATCH);
  let sent = 0;
  for (const patient of due) {
    const told = await ctx.db.transaction().execute(async (trx) => {
      const tx = { ...ctx, db: trx };
      if (!(await markNotified(trx, patient.id, ctx.clock.now().toISOString()))) return false;
      await queueStateOpened(tx, patient);
      return true;
    });
    if (told) sent += 1;
  }
  if (sent > 0) sendQueuedSoon(ctx);
  return { sent, more: due.length === BATCH };
}

/** Every WAITLIST_INTERVAL_SECONDS (0 turns it off), and once when the server is ready. */
export function waitlistJob(ctx: AppContext): Job {
  return {
    name: WAITLIST_JOB,
    intervalMs: ctx.env.WAITLIST_INTERVAL_SECONDS * 1000,
    run: async () => (await notifyWaitlist(ctx)).more,
  };
}
