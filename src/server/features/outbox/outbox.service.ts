import crypto from 'node:crypto';
import type { AppContext } from '#server/context.ts';
import { AppError, notFound } from '#server/lib/errors.ts';
import type { OutboxProblem } from '#shared/outbox.ts';
import * as q from './outbox.queries.ts';

/**
 * The outbox (decision 012): every email and text message is a row written through `ctx.db`, which
 * the caller passes as its transaction (`{ ...ctx, db: trx }`) so the message exists exactly when
 * the change that causes it does. The outbox job sends it later, retrying with backoff; no request
 * waits for SMTP, so none fails because of it.
 */

export const OUTBOX_JOB = 'outbox';

/**
 * Where a one-time secret goes in a message's text and HTML. The secret (a reset token, a phone
 * code) is minted only when the message is sent, by the minter its purpose names, so no secret ever
 * waits in the outbox table (DESIGN §7: job payloads carry no tokens).
 */
export const SECRET_SLOT = '[[outbox-secret]]';

/**
 * Makes the secret for a message about to be sent: stores what is needed to check it later (its
 * hash) and returns it, or null when the message no longer makes sense (the account is gone). A
 * retry mints a new secret, so only the latest copy of a message works.
 */
export type SecretMinter = (
  ctx: AppContext,
  ref: string,
  recipient: string,
) => Promise<string | null>;

export interface MessageSecret {
  /** Names the minter (`password-reset`, `phone-code`…). */
  purpose: string;
  /** What the minter needs to find its record (an account id…); never the secret itself. */
  ref: string;
}

export interface QueuedEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  secret?: MessageSecret;
}

/** After attempt n fails, the next waits BACKOFF_MS[n-1]; after the last one the message is failed. */
export const BACKOFF_MS = [10_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000] as const;
export const MAX_ATTEMPTS = BACKOFF_MS.length + 1;
/** A sender holds a batch this long; SMTP time-outs (adapters/mailer.ts) keep a batch well inside. */
const LEASE_MS = 15 * 60_000;
const BATCH = 20;
/** Operations see a pending message as late once it has waited this long. */
export const LATE_AFTER_MS = 15 * 60_000;

function messageIdFor(ctx: AppContext): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(ctx.env.MAIL_FROM)?.[1] ?? 'pairwell.example';
  return `<${crypto.randomUUID()}@${domain}>`;
}

/** Queues an email in `ctx.db`'s transaction; returns its Message-ID. */
export async function queueEmail(ctx: AppContext, message: QueuedEmail): Promise<string> {
  const messageId = messageIdFor(ctx);
  await q.insertMessage(ctx.db, {
    kind: 'email',
    messageId,
    recipient: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    secretPurpose: message.secret?.purpose ?? null,
    secretRef: message.secret?.ref ?? null,
    now: ctx.clock.now().toISOString(),
  });
  sendQueuedSoon(ctx);
  return messageId;
}

/** Queues a text message in `ctx.db`'s transaction. */
export async function queueSms(
  ctx: AppContext,
  message: { to: string; text: string; secret?: MessageSecret },
): Promise<void> {
  await q.insertMessage(ctx.db, {
    kind: 'sms',
    messageId: messageIdFor(ctx),
    recipient: message.to,
    subject: 'Text message',
    text: message.text,
    html: null,
    secretPurpose: message.secret?.purpose ?? null,
    secretRef: message.secret?.ref ?? null,
    now: ctx.clock.now().toISOString(),
  });
  sendQueuedSoon(ctx);
}

/**
 * Asks the outbox job to run soon. Queueing calls it; a caller whose transaction is still open when
 * it queues may call it again after commit, so another connection's run sees the row at once
 * instead of on the next tick.
 */
export function sendQueuedSoon(ctx: AppContext): void {
  ctx.jobs.kick(OUTBOX_JOB);
}

/**
 * What went wrong, in words that carry no address and no content: an SMTP reply's code (a
 * rejection's text often quotes the recipient) and nodemailer's or the system's error code.
 */
export function describeSendError(error: unknown): string {
  const parts: string[] = [];
  if (error && typeof error === 'object') {
    const { responseCode, code } = error as { responseCode?: unknown; code?: unknown };
    if (typeof responseCode === 'number' && Number.isInteger(responseCode))
      parts.push(`SMTP ${responseCode}`);
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,31}$/.test(code)) parts.push(code);
  }
  return parts.length > 0 ? parts.join(' ') : 'send failed';
}

export interface SendOutcome {
  sent: number;
  retrying: number;
  failed: number;
}

interface SendDeps {
  minters: Record<string, SecretMinter>;
  log: { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void };
}

/**
 * Claims one batch of due messages and sends each through the mailer or the SMS sender; returns
 * whether a full batch was due (more may be). At least once: a message whose sender dies after
 * sending but before recording it goes again, with the same Message-ID.
 */
export async function sendDueBatch(
  ctx: AppContext,
  deps: SendDeps,
): Promise<{ more: boolean } & SendOutcome> {
  const now = ctx.clock.now();
  const leaseUntil = new Date(now.getTime() + LEASE_MS).toISOString();
  const { claimed: batch, full } = await q.claimDue(ctx.db, now.toISOString(), leaseUntil, BATCH);
  const outcome: SendOutcome = { sent: 0, retrying: 0, failed: 0 };
  for (const message of batch) {
    const result = await sendOne(ctx, deps, message);
    if (result === 'sent') {
      await q.markSent(ctx.db, message.id, leaseUntil, ctx.clock.now().toISOString());
      outcome.sent++;
      continue;
    }
    const attempt = message.attempts + 1;
    const delay = result.final ? undefined : BACKOFF_MS[attempt - 1];
    const nextAttemptAt =
      delay === undefined ? null : new Date(ctx.clock.now().getTime() + delay).toISOString();
    await q.markAttemptFailed(ctx.db, message.id, leaseUntil, {
      error: result.error,
      nextAttemptAt,
    });
    // The outbox row's id and the error's code only: never the recipient or the words.
    const fields = { outboxId: message.id, kind: message.kind, attempt, error: result.error };
    if (nextAttemptAt === null) {
      outcome.failed++;
      deps.log.warn(fields, 'outbox message failed for good');
      ctx.reporter.report(
        new Error(
          `An outbox ${message.kind} (id ${message.id}) failed after ${attempt} attempts: ${result.error}`,
        ),
        { route: `job:${OUTBOX_JOB}` },
      );
    } else {
      outcome.retrying++;
      deps.log.info({ ...fields, nextAttemptAt }, 'outbox message will be retried');
    }
  }
  return { more: full, ...outcome };
}

async function sendOne(
  ctx: AppContext,
  deps: SendDeps,
  message: q.ClaimedMessage,
): Promise<'sent' | { error: string; final: boolean }> {
  let text = message.text;
  let html = message.html;
  if (message.secretPurpose !== null) {
    const mint = deps.minters[message.secretPurpose];
    if (!mint) return { error: `no minter for ${message.secretPurpose}`, final: true };
    let secret: string | null;
    try {
      secret = await mint(ctx, message.secretRef ?? '', message.recipient);
    } catch (error) {
      return { error: `secret not minted: ${describeSendError(error)}`, final: false };
    }
    if (secret === null) return { error: 'no longer applies', final: true };
    text = text.replaceAll(SECRET_SLOT, secret);
    html = html?.replaceAll(SECRET_SLOT, secret) ?? null;
  }
  try {
    if (message.kind === 'sms') await ctx.sms.send(message.recipient, text);
    else
      await ctx.mailer.send({
        messageId: message.messageId,
        to: message.recipient,
        subject: message.subject,
        text,
        html: html ?? '',
      });
    return 'sent';
  } catch (error) {
    return { error: describeSendError(error), final: false };
  }
}

// --- For operations staff ------------------------------------------------------------------------

/** `j***@example.com`; a phone number keeps its last four digits. */
export function maskRecipient(kind: 'email' | 'sms', recipient: string): string {
  if (kind === 'sms') return `***${recipient.replace(/\D/g, '').slice(-4)}`;
  const at = recipient.lastIndexOf('@');
  if (at < 1) return '***';
  return `${recipient.slice(0, 1)}***${recipient.slice(at)}`;
}

/** Failed messages and late pending ones, without their words. */
export async function outboxProblems(ctx: AppContext): Promise<OutboxProblem[]> {
  const lateBefore = new Date(ctx.clock.now().getTime() - LATE_AFTER_MS).toISOString();
  const rows = await q.selectProblems(ctx.db, lateBefore, 200);
  return rows.map((r) => ({
    outbox_id: r.id,
    kind: r.kind,
    recipient: maskRecipient(r.kind, r.recipient),
    subject: r.subject,
    status: r.status === 'failed' ? 'failed' : 'pending',
    attempts: r.attempts,
    last_error: r.lastError,
    created_at: r.createdAt,
    next_attempt_at: r.status === 'failed' ? null : r.nextAttemptAt,
  }));
}

/**
 * Sends a failed (or late) message again, with a fresh set of attempts and the same Message-ID.
 * `audit` writes the staff member's audit entry in the retry's transaction (`tx.db`). The caller
 * hands it over (route.ts's `auditChange`) because the outbox sits below staff: staff log in
 * through auth, whose emails go through the outbox, so the outbox cannot call staff's audit log.
 */
export async function retryMessage(
  ctx: AppContext,
  id: number,
  audit: (tx: AppContext) => Promise<void>,
): Promise<void> {
  const current = await q.selectStatus(ctx.db, id);
  if (!current) throw notFound('We could not find that message.');
  if (current.status === 'sent')
    throw new AppError('MESSAGE_SENT', 'This message has been sent already.');
  const requeued = await ctx.db.transaction().execute(async (trx) => {
    if (!(await q.requeue(trx, id, ctx.clock.now().toISOString()))) return false;
    await audit({ ...ctx, db: trx });
    return true;
  });
  if (!requeued) throw new AppError('MESSAGE_SENDING', 'This message is being sent right now.');
  sendQueuedSoon(ctx);
}
