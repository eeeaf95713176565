// "Tell me when my state opens": when the states online visits cover gain one (a new
// STATES_ALLOWED at start, a provider licensed there), each patient or visitor waiting for it is
// emailed once.
import type { AppContext } from '#server/context.ts';
import { enforceAddressLimit } from '#server/features/auth/auth.service.ts';
import { AppError } from '#server/lib/errors.ts';
import { queueEmail, sendQueuedSoon } from '#server/features/outbox/outbox.service.ts';
import { emailHtml, emailSignature } from '#server/lib/email-layout.ts';
import type { Job } from '#server/lib/jobs.ts';
import { absoluteLink } from '#server/lib/links.ts';
import { paths } from '#shared/paths.ts';
import { isUsState, stateName } from '#shared/us-states.ts';
import { statesAllowed } from './visits.program.ts';
import {
  claimVisitor,
  insertVisitorWaitlist,
  markNotified,
  selectDueVisitors,
  selectDueWaitlist,
  type WaitingPatient,
} from './visits.waitlist.queries.ts';

export const WAITLIST_JOB = 'state-waitlist';
const BATCH = 20;

/**
 * No program and no health detail: only that the state opened. A patient's link opens Home, where
 * the closed visit offers to start again — a link to the visit itself would name the program; a
 * visitor, who has no account, gets the home page.
 */
async function queueStateOpened(
  ctx: AppContext,
  patient: Pick<WaitingPatient, 'email' | 'state'> & { firstName: string | null },
): Promise<void> {
  const name = stateName(patient.state);
  const link = absoluteLink(ctx.env, patient.firstName === null ? paths.home : paths.dashboard);
  const lines = [
    patient.firstName === null ? 'Hello,' : `Hello ${patient.firstName},`,
    patient.firstName === null
      ? `You asked us to tell you when our providers could see patients in ${name}. They can now: you can start an online visit.`
      : `You asked us to tell you when our providers could see patients in ${name}. They can now: log in to start your online visit.`,
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
  const open = await statesAllowed(ctx);
  const due = await selectDueWaitlist(ctx.db, open, BATCH);
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
  // Visitors (issue 29): each claimed by deleting their row as their e-mail is queued.
  const visitors = await selectDueVisitors(ctx.db, open, BATCH);
  for (const visitor of visitors) {
    const told = await ctx.db.transaction().execute(async (trx) => {
      if (!(await claimVisitor(trx, visitor.id))) return false;
      await queueStateOpened({ ...ctx, db: trx }, { ...visitor, firstName: null });
      return true;
    });
    if (told) sent += 1;
  }
  if (sent > 0) sendQueuedSoon(ctx);
  return { sent, more: due.length === BATCH || visitors.length === BATCH };
}

/** Each client address may join this many waitlists an hour (scaled by ADDRESS_LIMIT_FACTOR). */
const VISITOR_JOINS_PER_ADDRESS_HOUR = 10;

/**
 * "Tell me when {State} opens" for a visitor, before any account (issue 29): their address, on the
 * state's list, for one e-mail when online visits open there. Asking twice changes nothing, and
 * the answer is the same whether or not the address has an account. Limited per client address,
 * like the other calls open to anyone.
 */
export async function joinVisitorWaitlist(
  ctx: AppContext,
  input: { state: string; email: string; ip: string },
): Promise<{ state: string; state_name: string }> {
  await enforceAddressLimit(
    ctx,
    `waitlist:ip:${input.ip}`,
    VISITOR_JOINS_PER_ADDRESS_HOUR,
    60 * 60_000,
  );
  if (!isUsState(input.state))
    throw new AppError('VALIDATION', 'Choose the state you live in', {
      state: 'Choose the state you live in',
    });
  if ((await statesAllowed(ctx)).includes(input.state))
    throw new AppError(
      'VISIT_STEP',
      `Online visits are open in ${stateName(input.state)} now: you can start your visit.`,
    );
  await insertVisitorWaitlist(
    ctx.db,
    input.email.toLowerCase(),
    input.state,
    ctx.clock.now().toISOString(),
  );
  return { state: input.state, state_name: stateName(input.state) };
}

/** Every WAITLIST_INTERVAL_SECONDS (0 turns it off), and once when the server is ready. */
export function waitlistJob(ctx: AppContext): Job {
  return {
    name: WAITLIST_JOB,
    intervalMs: ctx.env.WAITLIST_INTERVAL_SECONDS * 1000,
    run: async () => (await notifyWaitlist(ctx)).more,
  };
}
