import type { AppContext } from '#server/context.ts';
import { sessionUser } from '#server/features/auth/auth.service.ts';
import { queueEmail, sendQueuedSoon } from '#server/features/outbox/outbox.service.ts';
import { emailHtml, emailSignature } from '#server/lib/email-layout.ts';
import { AppError, notFound } from '#server/lib/errors.ts';
import { absoluteLink } from '#server/lib/links.ts';
import {
  activeProviders,
  auditAs,
  type StaffActor,
  type StaffSession,
} from '#server/features/staff/staff.service.ts';
import {
  CHOOSE_TOPIC,
  type ActivePrescriptions,
  isClinical,
  MESSAGES_PAGE_SIZE,
  type CareInboxItem,
  type Message,
  type MessageTopic,
  type PatientMessageItem,
  type Thread,
} from '#shared/messages.ts';
import { calendarDateOf, isoDate } from '#shared/dates.ts';
import { paths } from '#shared/paths.ts';
import { medicineName } from '#shared/visits.ts';
import { messages as wording } from '#shared/wording.ts';
import * as q from './messages.queries.ts';

/**
 * Threads between a patient and their care team. A thread may belong to a visit (the provider's
 * conversation about it). Otherwise the patient says what it is about: a clinical one ("My
 * treatment") is a provider's to answer (the provider of their latest visit, or any provider
 * licensed in their state), the others are the care team's (operations staff), who may hand one
 * to a provider. Bodies are health information: they are stored, shown to the patient and to
 * whoever answers, and never logged or emailed — the email only says a message is waiting.
 */

function toMessage(row: q.MessageRow, patientFirstName: string): Message {
  return {
    id: row.id,
    thread_id: row.threadId,
    sender: row.sender,
    author: row.sender === 'patient' ? patientFirstName : (row.staffName ?? 'Your care team'),
    body: row.body,
    created_at: row.createdAt,
    read: row.readAt !== null,
  };
}

/** One page of a thread: its rows oldest first, and where the earlier page starts. */
interface Page {
  rows: q.MessageRow[];
  hasMore: boolean;
  nextCursor: string | null;
}

/** A page from up to one message more than a page, oldest first: the extra says earlier ones exist. */
function paged(rows: q.MessageRow[]): Page {
  const hasMore = rows.length > MESSAGES_PAGE_SIZE;
  const page = hasMore ? rows.slice(rows.length - MESSAGES_PAGE_SIZE) : rows;
  const oldest = page[0];
  return { rows: page, hasMore, nextCursor: hasMore && oldest ? String(oldest.id) : null };
}

/**
 * A page of one thread: the newest without a cursor, else the messages before the one the cursor
 * names; a cursor that is not a message of this thread is not found.
 */
async function pageOf(
  ctx: AppContext,
  threadId: number,
  cursor: string | undefined,
): Promise<Page> {
  let before: q.MessageKey | null = null;
  if (cursor !== undefined) {
    before = (await q.selectMessageKey(ctx.db, threadId, Number(cursor))) ?? null;
    if (!before) throw notFound('We could not find those messages.');
  }
  return paged(await q.selectThreadPage(ctx.db, threadId, before, MESSAGES_PAGE_SIZE + 1));
}

/** A thread as the patient and whoever answers see it: one page of it, and its unread count. */
function toThread(
  thread: q.ThreadRow,
  page: Page,
  unread: number,
  patientFirstName: string,
): Thread {
  return {
    id: thread.id,
    subject: thread.subject,
    topic: thread.topic,
    visit_id: thread.visitId,
    order_number: thread.orderNumber,
    updated_at: thread.updatedAt,
    unread,
    messages: page.rows.map((m) => toMessage(m, patientFirstName)),
    has_more: page.hasMore,
    next_cursor: page.nextCursor,
  };
}

/** Unread messages from `writtenBy` in one thread. */
async function unreadIn(
  ctx: AppContext,
  threadId: number,
  writtenBy: Message['sender'],
): Promise<number> {
  return (await q.countUnreadByThread(ctx.db, [threadId], writtenBy)).get(threadId) ?? 0;
}

/**
 * Every conversation of the patient's, each with its newest page of messages: two statements, one
 * when there is no conversation.
 */
export async function threadsOf(
  ctx: AppContext,
  customerId: number,
): Promise<{ threads: Thread[]; unread: number }> {
  const patient = await q.selectPatientThreads(ctx.db, customerId);
  if (!patient) throw new AppError('UNAUTHENTICATED', wording.unauthorized);
  if (patient.threads.length === 0) return { threads: [], unread: 0 };
  const byThread = new Map<number, q.MessageRow[]>();
  for (const row of await q.selectNewestOfCustomer(ctx.db, customerId)) {
    const rows = byThread.get(row.threadId);
    if (rows) rows.push(row);
    else byThread.set(row.threadId, [row]);
  }
  return {
    threads: patient.threads.map(({ thread, unread }) =>
      toThread(thread, paged(byThread.get(thread.id) ?? []), unread, patient.patientFirstName),
    ),
    unread: patient.threads.reduce((sum, { unread }) => sum + unread, 0),
  };
}

/** One of the patient's conversations, a page at a time; anyone else's is not found. */
export async function patientThread(
  ctx: AppContext,
  customerId: number,
  threadId: number,
  cursor: string | undefined,
): Promise<Thread> {
  const thread = await q.selectThread(ctx.db, threadId);
  if (!thread || thread.customerId !== customerId)
    throw notFound('We could not find that conversation.');
  const user = await sessionUser(ctx, customerId);
  const page = await pageOf(ctx, thread.id, cursor);
  return toThread(thread, page, await unreadIn(ctx, thread.id, 'care_team'), user.first_name);
}

/**
 * Messages since an instant, for the page's polling (new messages appear without a reload): the
 * newest page of them at most (the page reloads its conversations when any arrive).
 */
export async function recentMessages(ctx: AppContext, customerId: number, since?: string) {
  const user = await sessionUser(ctx, customerId);
  const threads = await q.selectThreadsOf(ctx.db, customerId);
  const rows = await q.selectMessages(
    ctx.db,
    threads.map((t) => t.id),
    { since, limit: MESSAGES_PAGE_SIZE },
  );
  return {
    messages: rows.map((m) => toMessage(m, user.first_name)),
    unread: await q.countUnreadForPatient(ctx.db, customerId),
    now: ctx.clock.now().toISOString(),
  };
}

/**
 * The patient writes: in one of their threads, or a new thread about what they chose (`topic`),
 * about one of their orders when they name it (another customer's order is "not found").
 */
export async function sendAsPatient(
  ctx: AppContext,
  customerId: number,
  input: {
    threadId?: number | undefined;
    subject?: string | undefined;
    topic?: MessageTopic | undefined;
    orderNumber?: string | undefined;
    body: string;
  },
): Promise<Message> {
  const now = ctx.clock.now().toISOString();
  let threadId = input.threadId;
  if (threadId !== undefined) {
    const thread = await q.selectThread(ctx.db, threadId);
    if (!thread || thread.customerId !== customerId)
      throw notFound('We could not find that conversation.');
  } else {
    let orderId: number | null = null;
    if (input.orderNumber !== undefined) {
      orderId = (await q.selectOwnOrderId(ctx.db, customerId, input.orderNumber)) ?? null;
      if (orderId === null) throw notFound('We could not find that order.');
    }
    const topic = input.topic ?? (orderId !== null ? 'order' : undefined);
    const subject = input.subject ?? (input.orderNumber && `Order ${input.orderNumber}`);
    if (!topic || !subject)
      throw new AppError('VALIDATION', topic ? 'Add a subject' : CHOOSE_TOPIC, {
        ...(topic ? {} : { topic: CHOOSE_TOPIC }),
        ...(subject ? {} : { subject: 'Add a subject' }),
      });
    threadId = await q.insertThread(ctx.db, {
      customerId,
      subject,
      topic,
      orderId,
      providerId: isClinical(topic) ? await providerFor(ctx, customerId) : null,
      now,
    });
  }
  const id = await q.insertMessage(ctx.db, {
    threadId,
    sender: 'patient',
    staffId: null,
    body: input.body,
    now,
  });
  const user = await sessionUser(ctx, customerId);
  const row = await q.selectMessage(ctx.db, id);
  if (!row) throw new Error('message missing after insert');
  return toMessage(row, user.first_name);
}

/**
 * Who answers a patient's clinical question: the provider of their latest visit while they are
 * active; otherwise nobody in particular (every provider licensed in the patient's state sees it).
 */
async function providerFor(ctx: AppContext, customerId: number): Promise<number | null> {
  const latest = await q.selectLatestVisitProvider(ctx.db, customerId);
  return latest?.active ? latest.providerId : null;
}

export async function markThreadRead(
  ctx: AppContext,
  customerId: number,
  threadId: number,
): Promise<void> {
  const thread = await q.selectThread(ctx.db, threadId);
  if (!thread || thread.customerId !== customerId)
    throw notFound('We could not find that conversation.');
  await q.markRead(ctx.db, threadId, 'care_team', ctx.clock.now().toISOString());
}

// --- The care team's side ------------------------------------------------------------------------

/** A visit's conversation, a page at a time (the patient's messages are now read). */
export async function visitThread(
  ctx: AppContext,
  visitId: number,
  customerId: number,
  cursor?: string,
): Promise<Thread | null> {
  const thread = await q.selectThreadOfVisit(ctx.db, visitId);
  if (!thread || thread.customerId !== customerId) return null;
  const user = await sessionUser(ctx, customerId);
  const page = await pageOf(ctx, thread.id, cursor);
  const unread = await unreadIn(ctx, thread.id, 'patient');
  await q.markRead(ctx.db, thread.id, 'patient', ctx.clock.now().toISOString());
  return toThread(thread, page, unread, user.first_name);
}

/**
 * The provider's words that come with a decision (a decline's reason), written into the visit's
 * conversation in the caller's transaction so the patient reads them in Messages and can reply.
 * No email of its own: the decision's email says where to read them.
 */
export async function writeDecisionNote(
  tx: AppContext,
  staffId: number | null,
  visit: { id: number; customerId: number },
  body: string,
): Promise<void> {
  const now = tx.clock.now().toISOString();
  const thread = await q.ensureVisitThread(
    tx.db,
    visit.customerId,
    visit.id,
    'Your online visit',
    now,
  );
  await q.insertMessage(tx.db, { threadId: thread.id, sender: 'care_team', staffId, body, now });
}

/**
 * The care team tells the patient something about their visit's treatment that no staff member
 * wrote (the pharmacy could not fill the prescription: issue 29), in the caller's transaction: the
 * words in the visit's conversation, an email that says only that a message waits.
 */
export async function tellPatientAboutVisit(
  tx: AppContext,
  visit: { id: number; customerId: number },
  body: string,
): Promise<void> {
  await writeDecisionNote(tx, null, visit, body);
  const user = await sessionUser(tx, visit.customerId);
  await queueEmail(tx, newMessageEmail(tx, user));
}

/** Whether the care team has written to the patient about a visit (in the visit's conversation). */
export async function careTeamWroteAbout(
  ctx: AppContext,
  visit: { id: number; customerId: number },
): Promise<boolean> {
  const thread = await q.selectThreadOfVisit(ctx.db, visit.id);
  if (!thread || thread.customerId !== visit.customerId) return false;
  return q.careTeamHasWritten(ctx.db, thread.id);
}

/** A provider writes to the patient about a visit; the patient is told by email that a message waits. */
export async function sendAsCareTeam(
  ctx: AppContext,
  actor: StaffActor,
  visit: { id: number; customerId: number },
  body: string,
): Promise<Message> {
  const now = ctx.clock.now().toISOString();
  const thread = await q.ensureVisitThread(
    ctx.db,
    visit.customerId,
    visit.id,
    'Your online visit',
    now,
  );
  return writeAndNotify(
    ctx,
    visit.customerId,
    { threadId: thread.id, staffId: actor.staffId, body, now },
    { ip: actor.ip, subjectType: 'visit', subjectId: visit.id },
  );
}

/** The email that says a care-team message waits: never its words, which are health information. */
function newMessageEmail(ctx: AppContext, user: { first_name: string; email: string }) {
  const link = absoluteLink(ctx.env, paths.messages);
  const lines = [
    `Hello ${user.first_name},`,
    'You have a new message from your care team. For your privacy we do not include it here: log in to read it in Messages.',
  ];
  return {
    to: user.email,
    subject: 'You have a new message from your care team',
    text: [...lines, '', `Read it in Messages: ${link}`, '', ...emailSignature].join('\n'),
    html: emailHtml(
      lines,
      { href: link, label: 'Read your message' },
      'We never put health details in email.',
    ),
  };
}

/**
 * Writes the care team's message, its audit entry (`audited`: what it is about, from where) and
 * the patient's email in one transaction. The email says only that a message waits: its words are
 * health information.
 */
async function writeAndNotify(
  ctx: AppContext,
  customerId: number,
  message: { threadId: number; staffId: number; body: string; now: string },
  audited: { ip: string; subjectType: 'visit' | 'thread'; subjectId: number },
): Promise<Message> {
  const user = await sessionUser(ctx, customerId);
  const messageId = await ctx.db.transaction().execute(async (trx) => {
    const id = await q.insertMessage(trx, { ...message, sender: 'care_team' });
    await auditAs({ ...ctx, db: trx }, message.staffId, {
      action: 'message',
      subjectType: audited.subjectType,
      subjectId: String(audited.subjectId),
      customerId,
      ip: audited.ip,
    });
    await queueEmail({ ...ctx, db: trx }, newMessageEmail(ctx, user));
    return id;
  });
  sendQueuedSoon(ctx);
  const row = await q.selectMessage(ctx.db, messageId);
  if (!row) throw new Error('message missing after insert');
  return toMessage(row, user.first_name);
}

// --- The care team's inbox (operations staff) ----------------------------------------------------

export async function careInbox(ctx: AppContext): Promise<CareInboxItem[]> {
  const rows = await q.selectCareInbox(ctx.db, 200);
  return rows.map((r) => ({
    thread_id: r.id,
    // A clinical thread's subject may name a medicine: it is the provider's to read.
    subject: isClinical(r.topic) ? null : r.subject,
    topic: r.topic,
    provider: isClinical(r.topic) ? r.providerName : null,
    patient: r.patient,
    customer_id: r.customerId,
    order_number: r.orderNumber,
    updated_at: r.updatedAt,
    unread: r.unread,
    last_sender: r.lastSender,
    waiting_for_provider: isClinical(r.topic) && r.awaitingProvider,
  }));
}

/**
 * A thread that is the care team's to answer: not about a visit, not clinical (those are a
 * provider's).
 */
async function careThreadRow(ctx: AppContext, threadId: number): Promise<q.ThreadRow> {
  const thread = await q.selectThread(ctx.db, threadId);
  if (!thread || thread.visitId !== null || isClinical(thread.topic))
    throw notFound('We could not find that conversation.');
  return thread;
}

/**
 * Opens a thread for the care team: a page of its messages (the patient's are now read), and the
 * providers it could be handed to, those licensed in the patient's state first.
 */
export async function careThread(ctx: AppContext, threadId: number, cursor?: string) {
  const thread = await careThreadRow(ctx, threadId);
  const user = await sessionUser(ctx, thread.customerId);
  await q.markRead(ctx.db, thread.id, 'patient', ctx.clock.now().toISOString());
  const page = await pageOf(ctx, thread.id, cursor);
  const state = await q.selectPatientState(ctx.db, thread.customerId);
  const providers = (await activeProviders(ctx))
    .map((p) => ({
      id: p.id,
      name: p.name,
      licensed_in_state: state !== null && p.licensedStates.includes(state),
    }))
    .sort((a, b) => Number(b.licensed_in_state) - Number(a.licensed_in_state));
  return {
    thread: toThread(thread, page, 0, user.first_name),
    patient: { name: `${user.first_name} ${user.last_name}`, customer_id: thread.customerId },
    providers,
  };
}

/**
 * Operations hand a thread of their inbox to an active provider: it becomes clinical and theirs,
 * and leaves the inbox (operations no longer read it). Audited with the change.
 */
export async function handToProvider(
  ctx: AppContext,
  actor: StaffActor,
  threadId: number,
  providerId: number,
): Promise<void> {
  const thread = await careThreadRow(ctx, threadId);
  const provider = (await activeProviders(ctx)).find((p) => p.id === providerId);
  if (!provider)
    throw new AppError('NOT_FOUND', 'We could not find that provider.', {
      provider_id: 'Choose a provider',
    });
  await ctx.db.transaction().execute(async (trx) => {
    await q.assignThread(trx, thread.id, provider.id);
    await auditAs({ ...ctx, db: trx }, actor.staffId, {
      action: 'hand_off',
      subjectType: 'thread',
      subjectId: String(thread.id),
      customerId: thread.customerId,
      ip: actor.ip,
    });
  });
}

/** The care team answers in a thread of their inbox; the patient is told by email. */
export async function careReply(
  ctx: AppContext,
  actor: StaffActor,
  threadId: number,
  body: string,
): Promise<Message> {
  const thread = await careThreadRow(ctx, threadId);
  return writeAndNotify(
    ctx,
    thread.customerId,
    { threadId: thread.id, staffId: actor.staffId, body, now: ctx.clock.now().toISOString() },
    { ip: actor.ip, subjectType: 'thread', subjectId: thread.id },
  );
}

// --- A provider's patient messages: clinical threads not about a visit ---------------------------

export async function providerThreads(
  ctx: AppContext,
  staff: StaffSession,
): Promise<PatientMessageItem[]> {
  const rows = await q.selectProviderThreads(
    ctx.db,
    staff.staff.id,
    staff.staff.licensed_states,
    200,
  );
  return rows.map((r) => ({
    thread_id: r.id,
    subject: r.subject,
    patient: r.patient,
    state: r.state,
    assigned: r.assigned,
    updated_at: r.updatedAt,
    unread: r.unread,
    last_sender: r.lastSender,
    waiting_for_provider: r.awaitingProvider,
  }));
}

/**
 * A clinical thread this provider may answer: theirs, or open (nobody assigned, or a provider no
 * longer active) with the patient in a state they are licensed in, or in no state we know of. Any
 * other is not found.
 */
async function providerThreadRow(
  ctx: AppContext,
  staff: StaffSession,
  threadId: number,
): Promise<{ thread: q.ThreadRow; assigned: 'me' | 'open'; state: string | null }> {
  const thread = await q.selectThread(ctx.db, threadId);
  const missing = () => notFound('We could not find that conversation.');
  if (!thread || thread.visitId !== null || !isClinical(thread.topic)) throw missing();
  const state = await q.selectPatientState(ctx.db, thread.customerId);
  if (thread.providerId === staff.staff.id) return { thread, assigned: 'me', state };
  const assignedActive =
    thread.providerId !== null &&
    (await activeProviders(ctx)).some((p) => p.id === thread.providerId);
  if (assignedActive || (state !== null && !staff.staff.licensed_states.includes(state)))
    throw missing();
  return { thread, assigned: 'open', state };
}

/** Opens a clinical thread for its provider: a page of its messages; the patient's are now read. */
export async function providerThread(
  ctx: AppContext,
  staff: StaffSession,
  threadId: number,
  cursor?: string,
) {
  const { thread, assigned, state } = await providerThreadRow(ctx, staff, threadId);
  const user = await sessionUser(ctx, thread.customerId);
  await q.markRead(ctx.db, thread.id, 'patient', ctx.clock.now().toISOString());
  const page = await pageOf(ctx, thread.id, cursor);
  return {
    // Every message of the patient's was just marked read.
    thread: toThread(thread, page, 0, user.first_name),
    patient: {
      name: `${user.first_name} ${user.last_name}`,
      customer_id: thread.customerId,
      state,
    },
    assigned,
    visit_id: await q.selectLatestChartVisit(
      ctx.db,
      thread.customerId,
      staff.staff.licensed_states,
    ),
    prescriptions: await activePrescriptions(ctx, thread.customerId),
  };
}

/**
 * The patient's prescriptions valid today, newest first: beside every message a provider reads.
 * One per program, the newest: a renewal or a change of dose replaced the ones before it (and
 * cancelled them at the pharmacy), though their last valid day has not come.
 */
export async function activePrescriptions(
  ctx: AppContext,
  customerId: number,
): Promise<ActivePrescriptions> {
  const rows = await q.selectActivePrescriptions(
    ctx.db,
    customerId,
    isoDate(calendarDateOf(ctx.clock.now())),
  );
  const programs = new Set<string>();
  const current = rows.filter((p) => !programs.has(p.category) && programs.add(p.category));
  return current.map((p) => ({
    visit_id: p.visit_id,
    medicine: medicineName(p.category, p.drug, p.dosage),
    directions: p.directions,
    refills: p.refills,
    valid_until: p.valid_until,
  }));
}

/**
 * The provider answers; an open thread becomes theirs. The patient is told by email. `ip` is the
 * provider's, for the audit entry written with the message.
 */
export async function providerReply(
  ctx: AppContext,
  staff: StaffSession,
  threadId: number,
  body: string,
  ip: string,
): Promise<Message> {
  const { thread, assigned } = await providerThreadRow(ctx, staff, threadId);
  if (assigned === 'open') await q.claimThread(ctx.db, thread.id, staff.staff.id);
  return writeAndNotify(
    ctx,
    thread.customerId,
    {
      threadId: thread.id,
      staffId: staff.staff.id,
      body,
      now: ctx.clock.now().toISOString(),
    },
    { ip, subjectType: 'thread', subjectId: thread.id },
  );
}

/**
 * A patient's clinical conversation opened with a structured request (issue 29: an early refill, a
 * dose change, a side effect), in the caller's transaction: the patient's words are its first
 * message, and its provider is found as for any clinical question. The thread's id.
 */
export async function openRequestThread(
  tx: AppContext,
  customerId: number,
  subject: string,
  body: string,
): Promise<number> {
  const sent = await sendAsPatient(tx, customerId, { topic: 'treatment', subject, body });
  return sent.thread_id;
}

/**
 * A clinical conversation the provider may answer (`providerThreadRow`), for a decision made in
 * it: its patient and whether it is theirs or open.
 */
export async function providerThreadOf(ctx: AppContext, staff: StaffSession, threadId: number) {
  const { thread, assigned } = await providerThreadRow(ctx, staff, threadId);
  return { customerId: thread.customerId, assigned };
}

/**
 * The provider's message that comes with a decision in a clinical thread, in the decision's
 * transaction: an open thread becomes theirs, the message is audited with the decision, and the
 * patient gets the e-mail that says only that a message waits (queued; sent once committed).
 */
export async function writeDecisionInThread(
  tx: AppContext,
  staff: StaffSession,
  threadId: number,
  body: string,
  ip: string,
): Promise<void> {
  const { thread, assigned } = await providerThreadRow(tx, staff, threadId);
  if (assigned === 'open') await q.claimThread(tx.db, thread.id, staff.staff.id);
  await q.insertMessage(tx.db, {
    threadId: thread.id,
    sender: 'care_team',
    staffId: staff.staff.id,
    body,
    now: tx.clock.now().toISOString(),
  });
  await auditAs(tx, staff.staff.id, {
    action: 'message',
    subjectType: 'thread',
    subjectId: String(thread.id),
    customerId: thread.customerId,
    ip,
  });
  await queueEmail(tx, newMessageEmail(tx, await sessionUser(tx, thread.customerId)));
}
