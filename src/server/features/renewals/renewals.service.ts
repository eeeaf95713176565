// Issue 29, renewals (decision 023): which of a patient's prescriptions is due for renewal (the
// rule is shared/renewals.ts'), what Home says of it, the one e-mail that says it is time, and
// opening the renewal visit. A feature above visits (prescriptions, renewal visits) and
// subscriptions (refill plans), so neither imports the other for it.
import type { AppContext } from '#server/context.ts';
import { sessionUser, type ActiveSession } from '#server/features/auth/auth.service.ts';
import { queueEmail, sendQueuedSoon } from '#server/features/outbox/outbox.service.ts';
import {
  refillPlansOf,
  type RefillPlanStanding,
} from '#server/features/subscriptions/subscriptions.service.ts';
import {
  markRenewalReminded,
  openRenewalVisit,
  prescriptionsOf,
  prescriptionsToRemind,
  renewalVisitsOf,
  type PrescriptionRow,
} from '#server/features/visits/visits.renewal.ts';
import { emailHtml, emailSignature } from '#server/lib/email-layout.ts';
import { notFound } from '#server/lib/errors.ts';
import type { Job } from '#server/lib/jobs.ts';
import { absoluteLink } from '#server/lib/links.ts';
import { paths } from '#shared/paths.ts';
import {
  RENEWAL_GRACE_DAYS,
  renewalDue,
  type Renewal,
  type RenewalStatus,
} from '#shared/renewals.ts';
import { addDays } from '#shared/subscriptions.ts';
import { medicineName, programs, type ProgramCategory } from '#shared/visits.ts';

export const RENEWAL_DUE_JOB = 'renewal-due';
const BATCH = 200;

function today(ctx: AppContext): string {
  return ctx.clock.now().toISOString().slice(0, 10);
}

/** The newest prescription of each program: only it is renewed (an older one was replaced). */
function newestByProgram(prescriptions: PrescriptionRow[]): PrescriptionRow[] {
  const newest = new Map<ProgramCategory, PrescriptionRow>();
  for (const p of prescriptions) if (!newest.has(p.category)) newest.set(p.category, p);
  return [...newest.values()];
}

function isDue(
  ctx: AppContext,
  prescription: PrescriptionRow,
  plan: RefillPlanStanding | undefined,
): boolean {
  return renewalDue({ validUntil: prescription.validUntil, plan: plan ?? null }, today(ctx));
}

/**
 * Home's "Renew your prescription": each program whose newest prescription is due, and where its
 * renewal stands — not started, started, or with a provider. A renewal a provider decided is
 * gone from here (approved: a newer prescription; declined: its reason is in Messages), as is
 * one a knock-out closed (Home shows why, as for any closed visit).
 */
export async function renewalsOf(ctx: AppContext, customerId: number): Promise<Renewal[]> {
  const newest = newestByProgram(await prescriptionsOf(ctx, customerId));
  if (newest.length === 0) return [];
  const plans = await refillPlansOf(
    ctx,
    newest.map((p) => p.id),
  );
  const visits = await renewalVisitsOf(
    ctx,
    newest.map((p) => p.id),
  );
  const renewals: Renewal[] = [];
  for (const prescription of newest) {
    const plan = plans.get(prescription.id);
    if (!isDue(ctx, prescription, plan)) continue;
    const visit = visits.find((v) => v.renewsPrescriptionId === prescription.id);
    let status: RenewalStatus = 'due';
    if (visit?.status === 'IN_PROGRESS') status = 'started';
    else if (visit?.status === 'PENDING_REVIEW') status = 'in_review';
    else if (visit) continue;
    renewals.push({
      category: prescription.category,
      program: programs[prescription.category].headline,
      medicine: medicineName(prescription.category, prescription.drug, prescription.dosage),
      status,
      refills_remaining: plan && plan.status !== 'COMPLETED' ? plan.refillsRemaining : 0,
      valid_until: prescription.validUntil,
      href: paths.visitScreen(prescription.category, 'renew'),
    });
  }
  return renewals;
}

/**
 * `/visit/<program>/renew`: opens the renewal of the program's newest prescription when it is due
 * (or resumes the one in progress, or shows the one sent, or why the last one closed).
 */
export async function startRenewal(
  ctx: AppContext,
  session: ActiveSession,
  category: ProgramCategory,
): Promise<{ visit_id: number; destination: string }> {
  const [prescription] = newestByProgram(await prescriptionsOf(ctx, session.customerId)).filter(
    (p) => p.category === category,
  );
  const plan = prescription && (await refillPlansOf(ctx, [prescription.id])).get(prescription.id);
  if (!prescription || !isDue(ctx, prescription, plan))
    throw notFound(
      `You have no ${programs[category].name} prescription to renew right now. We will tell you on Home when it is time.`,
    );
  // The newest renewal of it: with a provider, it is shown as sent; closed by a knock-out, it
  // shows why (a new attempt goes through a provider, as for a first visit: visits.program.ts).
  const [latest] = await renewalVisitsOf(ctx, [prescription.id]);
  if (latest?.status === 'PENDING_REVIEW')
    return { visit_id: latest.id, destination: paths.visitScreen(category, 'submitted') };
  if (latest?.status === 'DISQUALIFIED')
    return { visit_id: latest.id, destination: paths.visitScreen(category, 'not-a-fit') };
  const opened = await openRenewalVisit(ctx, session, prescription);
  return { visit_id: opened.visitId, destination: opened.destination };
}

/**
 * One batch of renewal reminders: prescriptions due for renewal and not reminded yet, each claimed
 * in the transaction that queues its e-mail, so however many runs or instances race, a
 * prescription is announced once. Walks in id order from `afterId`.
 */
export async function remindDueRenewals(
  ctx: AppContext,
  afterId = 0,
): Promise<{ sent: number; lastId: number; more: boolean }> {
  const candidates = await prescriptionsToRemind(
    ctx,
    addDays(today(ctx), -RENEWAL_GRACE_DAYS),
    BATCH,
    afterId,
  );
  const plans = await refillPlansOf(
    ctx,
    candidates.map((p) => p.id),
  );
  let sent = 0;
  let lastId = afterId;
  for (const prescription of candidates) {
    lastId = prescription.id;
    if (!isDue(ctx, prescription, plans.get(prescription.id))) continue;
    // Only the newest prescription of its program is renewed.
    const [newest] = newestByProgram(await prescriptionsOf(ctx, prescription.customerId)).filter(
      (p) => p.category === prescription.category,
    );
    if (newest?.id !== prescription.id) continue;
    const user = await sessionUser(ctx, prescription.customerId);
    const told = await ctx.db.transaction().execute(async (trx) => {
      const tx = { ...ctx, db: trx };
      if (!(await markRenewalReminded(tx, prescription.id))) return false;
      await queueRenewalDue(tx, user);
      return true;
    });
    if (told) sent += 1;
  }
  if (sent > 0) sendQueuedSoon(ctx);
  return { sent, lastId, more: candidates.length === BATCH };
}

/**
 * No program, medicine, condition or "prescription" in it (docs/emails.md: whoever reads over the
 * patient's shoulder learns nothing): a short check-in with their provider keeps the refills
 * coming. The link is Home, where "Renew your prescription" names the rest; a link to the
 * renewal itself would name the program in its path.
 */
async function queueRenewalDue(
  ctx: AppContext,
  user: { first_name: string; email: string },
): Promise<void> {
  const link = absoluteLink(ctx.env, paths.dashboard);
  const lines = [
    `Hello ${user.first_name},`,
    'It is time for a short check-in with your provider, so your refills continue without a gap. It takes about five minutes: a few questions about how things are going and what has changed.',
    'Nothing is charged for the check-in.',
  ];
  await queueEmail(ctx, {
    to: user.email,
    subject: 'Time for your check-in',
    text: [...lines, '', `Start your check-in: ${link}`, '', ...emailSignature].join('\n'),
    html: emailHtml(
      lines,
      { href: link, label: 'Start your check-in' },
      'For your privacy, we never put health details in email.',
    ),
  });
}

/** Every BILLING_INTERVAL_SECONDS (0 turns it off), beside billing; each run walks every batch. */
export function renewalDueJob(ctx: AppContext): Job {
  let afterId = 0;
  return {
    name: RENEWAL_DUE_JOB,
    intervalMs: ctx.env.BILLING_INTERVAL_SECONDS * 1000,
    run: async () => {
      const batch = await remindDueRenewals(ctx, afterId);
      afterId = batch.more ? batch.lastId : 0;
      return batch.more;
    },
  };
}
