// The emails a subscription sends on its own account: a reminder before each renewal, and a
// confirmation when the customer cancels. Neither names a prescription refill's medicine.
import type { AppContext } from '#server/context.ts';
import { sessionUser } from '#server/features/auth/auth.service.ts';
import { offer } from '#server/features/catalog/catalog.service.ts';
import { queueEmail, sendQueuedSoon } from '#server/features/outbox/outbox.service.ts';
import { emailHtml, emailSignature } from '#server/lib/email-layout.ts';
import type { Job } from '#server/lib/jobs.ts';
import { absoluteLink } from '#server/lib/links.ts';
import { bottlesText } from '#shared/catalog.ts';
import { couplesPriceCents } from '#shared/couples-price.ts';
import { usDateFromIso } from '#shared/dates.ts';
import { formatCents } from '#shared/money.ts';
import { paths } from '#shared/paths.ts';
import { site } from '#shared/site.ts';
import { addDays, allowedChanges } from '#shared/subscriptions.ts';
import * as q from './subscriptions.queries.ts';

/** How many days before a renewal its subscriber is reminded of it. */
export const RENEWAL_REMINDER_DAYS = 3;
export const RENEWAL_REMINDER_JOB = 'renewal-reminders';
const BATCH = 25;

const privacyNote = 'For your privacy, we never put health details in email.';

/**
 * What a subscription brings, as an email may say it: a supplement by name and bottles ('Sleep
 * Gummies (1 bottle a month)'); a prescription refill never by name, only as 'your refill'.
 */
async function whatItBrings(
  ctx: AppContext,
  row: q.SubscriptionRow,
): Promise<{ label: string; totalCents: number } | null> {
  if (row.refill) return { label: 'your refill', totalCents: row.unitPriceCents * row.quantity };
  const product = row.productId === null ? undefined : await offer(ctx.db, row.productId);
  if (!product) return null;
  const bottles = bottlesText(
    { product_id: product.productId, frequency: row.frequency },
    row.quantity,
  );
  const own = `${product.name} (${bottles})`;
  // Renewals are charged at the offer's current price (billing.service renewalLines); a couples'
  // plan charges both lines, each at its couples' price (decision 018).
  if (row.planPartner) {
    const partner = await offer(ctx.db, row.planPartner.productId);
    if (!partner) return null;
    const theirs = bottlesText(
      { product_id: partner.productId, frequency: row.frequency },
      row.planPartner.quantity,
    );
    return {
      label: `your couples' plan, ${own} and ${partner.name} (${theirs})`,
      totalCents:
        couplesPriceCents(product.priceCents) * row.quantity +
        couplesPriceCents(partner.priceCents) * row.planPartner.quantity,
    };
  }
  return {
    label: row.gift ? `your gift subscription, ${own}` : own,
    totalCents: product.priceCents * row.quantity,
  };
}

/** Queued in `ctx.db`'s transaction, with the claim that makes it once per period. */
async function queueRenewalReminder(
  ctx: AppContext,
  row: q.SubscriptionRow,
  item: { label: string; totalCents: number },
): Promise<void> {
  const user = await sessionUser(ctx, row.customerId);
  // Gifts and couples' plans are managed from the partner page (decision 018).
  const together = row.gift !== null || row.planPartner !== null;
  const link = absoluteLink(ctx.env, together ? paths.partner : paths.subscriptions);
  const date = usDateFromIso(row.nextBillingDate);
  const amount = formatCents(item.totalCents);
  const lines = [
    `Hello ${user.first_name},`,
    `Your subscription renews on ${date}: we will charge ${amount} for ${item.label} to the card on file and send it on its way.`,
    together
      ? 'Nothing to do if that suits you. To see it or cancel it, visit your partner page before then.'
      : 'Nothing to do if that suits you. To skip this delivery, move its date or make another change, visit your Subscriptions page before then.',
  ];
  await queueEmail(ctx, {
    to: user.email,
    subject: `Your ${site.name} subscription renews on ${date}`,
    text: [...lines, '', `Skip or change it: ${link}`, '', ...emailSignature].join('\n'),
    html: emailHtml(
      lines,
      { href: link, label: 'Skip or change it' },
      `You can also reply to this email if you need help. ${row.refill ? privacyNote : ''}`.trim(),
    ),
  });
}

/**
 * One batch of reminders: active subscriptions renewing within RENEWAL_REMINDER_DAYS (after today),
 * not yet reminded of that billing date. Each is claimed in the transaction that queues its
 * email, so however many runs or instances race, each renewal is announced once. Walks in id
 * order from `afterId`; answers where it got to and whether more may be left.
 */
export async function remindRenewals(
  ctx: AppContext,
  afterId = 0,
): Promise<{ sent: number; lastId: number; more: boolean }> {
  const today = ctx.clock.now().toISOString().slice(0, 10);
  const due = await q.selectRenewalsToRemind(
    ctx.db,
    today,
    addDays(today, RENEWAL_REMINDER_DAYS),
    BATCH,
    afterId,
  );
  let sent = 0;
  let lastId = afterId;
  for (const row of due) {
    lastId = row.id;
    // A product no longer sold cannot renew (billing skips it): nothing to announce.
    const item = await whatItBrings(ctx, row);
    if (!item) continue;
    const told = await ctx.db.transaction().execute(async (trx) => {
      const tx = { ...ctx, db: trx };
      const now = ctx.clock.now().toISOString();
      if (!(await q.claimRenewalReminder(trx, row.id, row.nextBillingDate, now))) return false;
      await queueRenewalReminder(tx, row, item);
      return true;
    });
    if (told) sent += 1;
  }
  if (sent > 0) sendQueuedSoon(ctx);
  return { sent, lastId, more: due.length === BATCH };
}

/** Every BILLING_INTERVAL_SECONDS (0 turns it off), beside billing; each run walks every batch. */
export function renewalRemindersJob(ctx: AppContext): Job {
  let afterId = 0;
  return {
    name: RENEWAL_REMINDER_JOB,
    intervalMs: ctx.env.BILLING_INTERVAL_SECONDS * 1000,
    run: async () => {
      const batch = await remindRenewals(ctx, afterId);
      afterId = batch.more ? batch.lastId : 0;
      return batch.more;
    },
  };
}

/**
 * Queued in the cancelling transaction (`ctx.db`): what was cancelled, that it will not be charged
 * again, and where to restart it when it can be.
 */
export async function queueCancellationConfirmation(
  ctx: AppContext,
  row: q.SubscriptionRow,
): Promise<void> {
  const user = await sessionUser(ctx, row.customerId);
  const link = absoluteLink(ctx.env, paths.subscriptions);
  const item = await whatItBrings(ctx, row);
  const what = row.refill
    ? 'your refill plan'
    : `your subscription to ${item?.label ?? 'a product we no longer sell'}`;
  const restartable = allowedChanges({ status: 'CANCELLED', refill: row.refill }).includes(
    'reactivate',
  );
  const lines = [
    `Hello ${user.first_name},`,
    `As you asked, we have cancelled ${what}. We will not charge you for it again, and no more deliveries of it will be sent.`,
    restartable
      ? 'Changed your mind? You can restart it any time from your Subscriptions page.'
      : 'Your Subscriptions page shows what you have with us.',
  ];
  const label = restartable ? 'Restart your subscription' : 'Your subscriptions';
  await queueEmail(ctx, {
    to: user.email,
    subject: `Your ${site.name} subscription is cancelled`,
    text: [...lines, '', `${label}: ${link}`, '', ...emailSignature].join('\n'),
    html: emailHtml(
      lines,
      { href: link, label },
      `If you did not ask for this, reply to this email and we will help. ${row.refill ? privacyNote : ''}`.trim(),
    ),
  });
}
