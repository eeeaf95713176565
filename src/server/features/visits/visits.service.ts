import type { AppContext } from '#server/context.ts';
import type { ActiveSession } from '#server/features/auth/auth.service.ts';
import type { AddressInput } from '#shared/accounts.ts';
import {
  cardOnFileToken,
  rememberCheckoutAddresses,
  updateCard,
} from '#server/features/accounts/accounts.service.ts';
import { sessionUser } from '#server/features/auth/auth.service.ts';
import {
  createPendingOrder,
  discardOrderAttempt,
  markAuthorized,
  orderAttempt,
  visitOrder,
} from '#server/features/orders/orders.service.ts';
import { queueEmail, sendQueuedSoon } from '#server/features/outbox/outbox.service.ts';
import {
  authorize,
  gatewayRecord,
  outcomeOf,
  release,
  settleCall,
  type LedgerRow,
} from '#server/features/payments/payments.service.ts';
import { storePhotoId } from '#server/features/uploads/uploads.service.ts';
import { emailHtml, emailSignature } from '#server/lib/email-layout.ts';
import { faultPoint } from '#server/lib/faults.ts';
import { AppError, notFound } from '#server/lib/errors.ts';
import { dobProblem, isoDate, parseUsDate } from '#shared/dates.ts';
import { messages } from '#shared/messages.ts';
import {
  answerProblem,
  disqualification,
  effectiveAnswers,
  firstDisqualification,
  firstUnanswered,
  nextItem,
  previousItem,
  progress,
  visibleItems,
} from '#shared/questionnaires/engine.ts';
import type {
  AnswerValue,
  Answers,
  Questionnaire,
  QuestionnaireItem,
} from '#shared/questionnaires/format.ts';
import { latestQuestionnaire, questionnaireVersion } from '#shared/questionnaires/registry.ts';
import {
  programs,
  treatmentsFor,
  type PatientItem,
  type PendingOrder,
  type ProgramCategory,
  type QuestionState,
  type VisitPreferences,
} from '#shared/telehealth.ts';
import { isUsState, prescriptionShipsOnlyTo, usStates } from '#shared/us-states.ts';
import { paths } from '#shared/paths.ts';
import * as q from './visits.queries.ts';

/** States where the service has licensed providers, unless STATES_ALLOWED says otherwise. */
export function statesAllowed(ctx: AppContext): string[] {
  return ctx.env.STATES_ALLOWED;
}

export function destinationOf(visit: q.VisitRow): string {
  return paths.visitScreen(visit.category, visit.step);
}

/**
 * Spec §7 "Finish pending order" / `/visit/:category`: resumes the patient's visit in progress for the
 * program, or opens one on the newest questionnaire version. Answers the destination to go to.
 */
export async function startProgram(
  ctx: AppContext,
  session: ActiveSession,
  category: ProgramCategory,
): Promise<{ visit: q.VisitRow; destination: string }> {
  const questionnaire = latestQuestionnaire(category);
  await q.insertVisit(ctx.db, {
    customerId: session.customerId,
    category,
    questionnaireId: questionnaire.id,
    questionnaireVersion: questionnaire.version,
    now: ctx.clock.now().toISOString(),
  });
  const visit = await q.selectOpenVisit(ctx.db, session.customerId, category);
  if (!visit) throw new AppError(409, 'VISIT_BUSY', messages.consultationFailed);
  return { visit, destination: destinationOf(visit) };
}

/** Spec §3 "Pending order": the visits the patient started and has not finished. */
export async function pendingOrders(ctx: AppContext, customerId: number): Promise<PendingOrder[]> {
  const visits = await q.selectOpenVisitsOf(ctx.db, customerId);
  return visits.map((visit) => ({
    product: `${programs[visit.category].headline} — online visit`,
    product_category: visit.category,
    visit_id: visit.id,
    started_at: visit.createdAt,
    step: visit.step,
  }));
}

/** The patient's own visit, or "not found" (another patient's visit is never revealed). */
async function ownVisit(
  ctx: AppContext,
  session: ActiveSession,
  visitId: number,
): Promise<q.VisitRow> {
  const visit = await q.selectVisit(ctx.db, visitId);
  if (!visit || visit.customerId !== session.customerId)
    throw notFound('We could not find that visit.');
  return visit;
}

function requireOpen(visit: q.VisitRow): void {
  if (visit.status !== 'IN_PROGRESS') {
    throw new AppError(
      409,
      'VISIT_CLOSED',
      visit.closedReason ?? 'This visit can no longer be changed.',
    );
  }
}

// --- Eligibility ---------------------------------------------------------------------------------

export interface EligibilityOutcome {
  eligible: boolean;
  reason: string | null;
  supplement_slug: string | null;
  destination: string;
}

/**
 * Before any health question (issue: eligibility first): the state the patient lives in must be
 * one the service covers, and their age 19 to 99. An ineligible visit closes with a reason the
 * patient is shown, and, where one fits, a supplement to consider instead.
 */
export async function checkEligibility(
  ctx: AppContext,
  session: ActiveSession,
  visitId: number,
  state: string,
  dob: string,
): Promise<EligibilityOutcome> {
  const visit = await ownVisit(ctx, session, visitId);
  requireOpen(visit);
  if (!isUsState(state))
    throw new AppError(400, 'VALIDATION', 'Choose the state you live in', {
      state: 'Choose the state you live in',
    });
  const problem = dobProblem(dob, ctx.clock.now());
  const parsed = parseUsDate(dob);
  const ageProblem = problem === messages.dobMinAge || problem === messages.dobMaxAge;
  if ((problem && !ageProblem) || !parsed) {
    throw new AppError(400, 'VALIDATION', problem ?? messages.dobInvalid, {
      dob: problem ?? messages.dobInvalid,
    });
  }
  const now = ctx.clock.now().toISOString();
  const stateName = usStates.find(([code]) => code === state)?.[1] ?? state;
  let reason: string | null = null;
  if (!statesAllowed(ctx).includes(state)) {
    reason = `We're not yet able to offer online visits to people living in ${stateName}. Our providers must be licensed where you live, and we're working to reach more states.`;
  } else if (ageProblem) {
    reason = `${problem}. Online visits are for adults aged 19 to 99.`;
  }
  const supplement = programs[visit.category].supplementSlug;
  if (reason) {
    await q.updateVisit(ctx.db, visit.id, {
      status: 'INELIGIBLE',
      closedReason: reason,
      state,
      dob: isoDate(parsed),
      now,
    });
    return {
      eligible: false,
      reason,
      supplement_slug: supplement,
      destination: paths.visitScreen(visit.category, 'ineligible'),
    };
  }
  const questionnaire = questionnaireOf(visit);
  const first = nextItem(questionnaire, {});
  await q.updateVisit(ctx.db, visit.id, {
    step: 'questions',
    state,
    dob: isoDate(parsed),
    currentLinkId: first?.linkId ?? null,
    now,
  });
  return {
    eligible: true,
    reason: null,
    supplement_slug: null,
    destination: paths.visitScreen(visit.category, 'questions'),
  };
}

// --- Questionnaire -------------------------------------------------------------------------------

function questionnaireOf(visit: q.VisitRow): Questionnaire {
  const found = questionnaireVersion(visit.questionnaireId, visit.questionnaireVersion);
  if (!found)
    throw new Error(
      `Questionnaire ${visit.questionnaireId} ${visit.questionnaireVersion} is missing from the registry`,
    );
  return found;
}

/** What the patient sees of an item: no disqualification rules, no provider flags. */
export function patientItem(item: QuestionnaireItem): PatientItem {
  return {
    linkId: item.linkId,
    type: item.type,
    text: item.text,
    ...(item.helpText ? { helpText: item.helpText } : {}),
    required: item.type !== 'display' && item.required !== false,
    ...(item.options
      ? {
          options: item.options.map((o) => ({
            code: o.code,
            display: o.display,
            ...(o.exclusive ? { exclusive: true } : {}),
          })),
        }
      : {}),
    ...(item.min !== undefined ? { min: item.min } : {}),
    ...(item.max !== undefined ? { max: item.max } : {}),
    ...(item.unit ? { unit: item.unit } : {}),
    ...(item.maxLength !== undefined ? { maxLength: item.maxLength } : {}),
  };
}

function requireQuestionsStep(visit: q.VisitRow): void {
  requireOpen(visit);
  if (visit.step === 'eligibility')
    throw new AppError(
      409,
      'VISIT_STEP',
      'Please confirm where you live and your date of birth first.',
    );
}

function state(
  visit: q.VisitRow,
  questionnaire: Questionnaire,
  answers: Answers,
  item: QuestionnaireItem | null,
  disqualified: string | null = null,
): QuestionState {
  const done = !disqualified && firstUnanswered(questionnaire, answers) === null && item === null;
  return {
    item: item ? patientItem(item) : null,
    answer: item ? (effectiveAnswers(questionnaire, answers)[item.linkId] ?? null) : null,
    progress: progress(questionnaire, answers, item?.linkId ?? null),
    done,
    disqualified,
    destination: disqualified
      ? paths.visitScreen(visit.category, 'not-a-fit')
      : done
        ? paths.visitScreen(visit.category, 'preferences')
        : paths.visitScreen(visit.category, 'questions'),
  };
}

/** `/questionnaire/get_questions/`: the questionnaire as answered so far, and where the patient is. */
export async function getQuestions(ctx: AppContext, session: ActiveSession, visitId: number) {
  const visit = await ownVisit(ctx, session, visitId);
  requireQuestionsStep(visit);
  const questionnaire = questionnaireOf(visit);
  const answers = effectiveAnswers(questionnaire, await q.selectAnswers(ctx.db, visit.id));
  const current = visit.currentLinkId ?? firstUnanswered(questionnaire, answers)?.linkId ?? null;
  return {
    questionnaire: {
      id: questionnaire.id,
      version: questionnaire.version,
      title: questionnaire.title,
    },
    items: visibleItems(questionnaire, answers).map(patientItem),
    answers,
    current,
    progress: progress(questionnaire, answers, current),
  };
}

/** The question after `linkId` (or where the patient left off), with the answer already given. */
export async function nextQuestion(
  ctx: AppContext,
  session: ActiveSession,
  visitId: number,
  linkId?: string,
): Promise<QuestionState> {
  const visit = await ownVisit(ctx, session, visitId);
  requireQuestionsStep(visit);
  const questionnaire = questionnaireOf(visit);
  const answers = await q.selectAnswers(ctx.db, visit.id);
  let item: QuestionnaireItem | null;
  if (linkId) item = nextItem(questionnaire, answers, linkId);
  else if (visit.currentLinkId)
    item =
      visibleItems(questionnaire, effectiveAnswers(questionnaire, answers)).find(
        (i) => i.linkId === visit.currentLinkId,
      ) ?? firstUnanswered(questionnaire, answers);
  else item = nextItem(questionnaire, answers);
  await q.updateVisit(ctx.db, visit.id, {
    currentLinkId: item?.linkId ?? null,
    now: ctx.clock.now().toISOString(),
  });
  return state(visit, questionnaire, answers, item);
}

export async function previousQuestion(
  ctx: AppContext,
  session: ActiveSession,
  visitId: number,
  linkId: string,
): Promise<QuestionState> {
  const visit = await ownVisit(ctx, session, visitId);
  requireQuestionsStep(visit);
  const questionnaire = questionnaireOf(visit);
  const answers = await q.selectAnswers(ctx.db, visit.id);
  const item = previousItem(questionnaire, answers, linkId) ?? nextItem(questionnaire, answers);
  await q.updateVisit(ctx.db, visit.id, {
    currentLinkId: item?.linkId ?? null,
    ...(visit.step !== 'questions' ? { step: 'questions' as const } : {}),
    now: ctx.clock.now().toISOString(),
  });
  return state(visit, questionnaire, answers, item);
}

/**
 * Saves one answer as it is given. A disqualifying answer closes the visit with its reason; the
 * last answer moves the visit on to treatment preferences. Answers the next question.
 */
export async function saveAnswer(
  ctx: AppContext,
  session: ActiveSession,
  visitId: number,
  linkId: string,
  value: AnswerValue,
): Promise<QuestionState> {
  const visit = await ownVisit(ctx, session, visitId);
  requireQuestionsStep(visit);
  const questionnaire = questionnaireOf(visit);
  const answers = await q.selectAnswers(ctx.db, visit.id);
  const shown = visibleItems(questionnaire, effectiveAnswers(questionnaire, answers));
  const item = shown.find((i) => i.linkId === linkId);
  if (!item || item.type === 'display')
    throw new AppError(400, 'VALIDATION', 'That question is not part of this visit.', {
      linkId: 'That question is not part of this visit.',
    });
  const problem = answerProblem(item, value);
  if (problem) throw new AppError(400, 'VALIDATION', problem, { value: problem });
  const now = ctx.clock.now().toISOString();
  await q.upsertAnswer(ctx.db, visit.id, linkId, value, now);
  const updated = { ...answers, [linkId]: value };
  const reason =
    disqualification(item, value) ?? firstDisqualification(questionnaire, updated)?.reason ?? null;
  if (reason) {
    await q.updateVisit(ctx.db, visit.id, {
      status: 'DISQUALIFIED',
      closedReason: reason,
      currentLinkId: linkId,
      now,
    });
    return state(visit, questionnaire, updated, null, reason);
  }
  const next = nextItem(questionnaire, updated, linkId);
  const complete = firstUnanswered(questionnaire, updated) === null;
  const target = next ?? (complete ? null : firstUnanswered(questionnaire, updated));
  await q.updateVisit(ctx.db, visit.id, {
    currentLinkId: target?.linkId ?? null,
    step: complete && !target ? 'preferences' : 'questions',
    now,
  });
  return state(
    { ...visit, step: complete && !target ? 'preferences' : 'questions' },
    questionnaire,
    updated,
    target,
  );
}

// --- Treatment preferences, photo ID, consent ----------------------------------------------------

const afterQuestions: readonly string[] = ['preferences', 'photo', 'consent', 'checkout'];

function requireQuestionsDone(visit: q.VisitRow): void {
  requireOpen(visit);
  if (!afterQuestions.includes(visit.step))
    throw new AppError(409, 'VISIT_STEP', 'Please answer the health questions first.');
}

function toPreferences(stored: Record<string, unknown>): VisitPreferences {
  return {
    drug: typeof stored.drug === 'string' ? stored.drug : null,
    dosage: typeof stored.dosage === 'string' ? stored.dosage : null,
    frequency: typeof stored.frequency === 'string' ? stored.frequency : null,
    hair: (stored.hair as VisitPreferences['hair']) ?? null,
    sleep: (stored.sleep as VisitPreferences['sleep']) ?? null,
  };
}

function preferencesComplete(category: ProgramCategory, p: VisitPreferences): boolean {
  const base = p.drug !== null && p.dosage !== null && p.frequency !== null;
  if (category === 'hair') return base && p.hair !== null;
  if (category === 'sleep') return base && p.sleep !== null;
  return base;
}

export type PreferenceChange =
  | { kind: 'drug'; drug: string }
  | { kind: 'dosage'; dosage: string }
  | { kind: 'frequency'; frequency: string }
  | { kind: 'hair'; form: string; notes?: string | undefined }
  | { kind: 'sleep'; goal: string; notes?: string | undefined };

/**
 * Spec §7 `/product/drug/`, `/product/dosage/`, `/product/frequency/`, `/product/hair-preferences/`,
 * `/product/sleep-preferences/`: the patient's treatment preferences, each checked against the
 * program's treatments. Once all are chosen the visit moves on to the photo ID.
 */
export async function savePreference(
  ctx: AppContext,
  session: ActiveSession,
  visitId: number,
  change: PreferenceChange,
): Promise<{ preferences: VisitPreferences; destination: string }> {
  const visit = await ownVisit(ctx, session, visitId);
  requireQuestionsDone(visit);
  const stored = await q.selectPreferences(ctx.db, visit.id);
  const current = toPreferences(stored);
  const options = treatmentsFor(visit.category);
  const refuse = (field: string, message: string) =>
    new AppError(400, 'VALIDATION', message, { [field]: message });
  const next: Record<string, unknown> = { ...stored };
  switch (change.kind) {
    case 'drug': {
      if (!options.some((t) => t.drug === change.drug))
        throw refuse('drug', 'Choose one of the treatments offered.');
      // A new treatment: its dose and frequency are chosen again.
      if (change.drug !== current.drug)
        Object.assign(next, { drug: change.drug, dosage: null, frequency: null });
      break;
    }
    case 'dosage': {
      const treatment = options.find((t) => t.drug === current.drug);
      if (!treatment) throw refuse('dosage', 'Choose a treatment first.');
      if (!treatment.dosages.some((d) => d.code === change.dosage))
        throw refuse('dosage', 'Choose one of the doses offered.');
      next.dosage = change.dosage;
      break;
    }
    case 'frequency': {
      const treatment = options.find((t) => t.drug === current.drug);
      if (!treatment) throw refuse('frequency', 'Choose a treatment first.');
      if (!treatment.frequencies.some((f) => f.code === change.frequency))
        throw refuse('frequency', 'Choose one of the options offered.');
      next.frequency = change.frequency;
      break;
    }
    case 'hair':
      if (visit.category !== 'hair')
        throw refuse('form', 'These preferences are for the hair program.');
      next.hair = { form: change.form, ...(change.notes ? { notes: change.notes } : {}) };
      break;
    case 'sleep':
      if (visit.category !== 'sleep')
        throw refuse('goal', 'These preferences are for the sleep program.');
      next.sleep = { goal: change.goal, ...(change.notes ? { notes: change.notes } : {}) };
      break;
  }
  const preferences = toPreferences(next);
  const complete = preferencesComplete(visit.category, preferences);
  const step = complete ? (visit.step === 'preferences' ? 'photo' : visit.step) : 'preferences';
  await q.savePreferences(ctx.db, visit.id, next, step, ctx.clock.now().toISOString());
  return { preferences, destination: paths.visitScreen(visit.category, step) };
}

/** The photo ID, stored by the uploads feature; the visit moves on to consent. */
export async function attachPhotoId(
  ctx: AppContext,
  session: ActiveSession,
  visitId: number,
  bytes: Buffer,
): Promise<{ uploadId: string; destination: string }> {
  const visit = await ownVisit(ctx, session, visitId);
  requireQuestionsDone(visit);
  if (visit.step === 'preferences')
    throw new AppError(409, 'VISIT_STEP', 'Please choose your treatment first.');
  const upload = await storePhotoId(ctx, session.customerId, visit.id, bytes);
  await q.attachPhoto(ctx.db, visit.id, upload.id, ctx.clock.now().toISOString());
  // The answer names the upload by its opaque id only (decision 005).
  return { uploadId: upload.publicId, destination: paths.visitScreen(visit.category, 'consent') };
}

/** Consent to telehealth (linking /consent-to-telehealth); the visit moves on to checkout. */
export async function giveConsent(
  ctx: AppContext,
  session: ActiveSession,
  visitId: number,
): Promise<{ destination: string }> {
  const visit = await ownVisit(ctx, session, visitId);
  requireQuestionsDone(visit);
  if ((await q.selectVisitPhoto(ctx.db, visit.id)) === null)
    throw new AppError(409, 'VISIT_STEP', 'Please upload a photo of your ID first.');
  await q.recordConsent(ctx.db, visit.id, ctx.clock.now().toISOString());
  return { destination: paths.visitScreen(visit.category, 'checkout') };
}

// --- Checkout: the card is authorised now, charged only on approval ------------------------------

/**
 * Submits the visit for review: the treatment's price is held on the card (not charged), an order
 * waits for the provider, and a provider licensed in the patient's state is assigned (spec §7
 * `/doctor`). Resubmitting the same visit answers the same order.
 */
export async function submitVisit(
  ctx: AppContext,
  session: ActiveSession,
  input: {
    visitId: number;
    shipping: AddressInput & { phoneNo: string };
    billing: AddressInput | null;
    payment: { method: 'card'; ccnum: string; ccexp: string; cccvv: string } | { method: 'saved' };
  },
): Promise<{ orderNumber: string; amountCents: number; destination: string }> {
  const visit = await ownVisit(ctx, session, input.visitId);
  const key = `visit:${visit.id}`;
  const previous = await orderAttempt(ctx, key);
  if (previous && visit.status === 'PENDING_REVIEW') {
    return {
      orderNumber: previous.orderNumber,
      amountCents: previous.totalCents,
      destination: paths.visitScreen(visit.category, 'submitted'),
    };
  }
  requireOpen(visit);
  if (visit.step !== 'checkout')
    throw new AppError(409, 'VISIT_STEP', 'Please finish the earlier steps of your visit first.');
  const preferences = toPreferences(await q.selectPreferences(ctx.db, visit.id));
  const treatment = treatmentsFor(visit.category).find((t) => t.drug === preferences.drug);
  const frequency = treatment?.frequencies.find((f) => f.code === preferences.frequency);
  const dosage = treatment?.dosages.find((d) => d.code === preferences.dosage);
  if (!treatment || !frequency || !dosage)
    throw new AppError(409, 'VISIT_STEP', 'Please choose your treatment first.');
  // The provider is licensed, and the prescription valid, only where the visit was eligible.
  if (!visit.state || input.shipping.state !== visit.state) {
    const message = prescriptionShipsOnlyTo(visit.state ?? '');
    throw new AppError(400, 'SHIPPING_STATE', message, { 'shipping.state': message });
  }

  if (input.payment.method === 'card') {
    const { ccnum, ccexp, cccvv } = input.payment;
    await updateCard(ctx, session, { ccnum, ccexp, cccvv, consent: true });
  }
  const token = await cardOnFileToken(ctx, session.customerId);
  if (!token)
    throw new AppError(400, 'NO_CARD', 'Add a card to pay with.', {
      ccnum: 'Add a card to pay with.',
    });
  const { phoneNo, ...shippingAddress } = input.shipping;
  const shipping = { ...shippingAddress, country: 'US' };
  await rememberCheckoutAddresses(
    ctx,
    session.customerId,
    shipping,
    input.billing ? { ...input.billing, country: 'US' } : shipping,
    phoneNo,
  );

  const order =
    previous ??
    (await createPendingOrder(ctx, {
      customerId: session.customerId,
      kind: 'visit',
      idempotencyKey: key,
      subtotalCents: frequency.priceCents,
      discountCents: 0,
      totalCents: frequency.priceCents,
      couponCode: null,
      clickId: null,
      shipping,
      lines: [
        {
          productId: 0,
          name: `${treatment.label} ${dosage.label}`,
          image: programs[visit.category].illustration,
          category: visit.category,
          frequency: 'MONTHLY',
          unitPriceCents: frequency.priceCents,
          quantity: 1,
        },
      ],
      now: ctx.clock.now().toISOString(),
    }));
  const attempt = await orderAttempt(ctx, key);
  if (!order || !attempt)
    throw new AppError(409, 'VISIT_BUSY', 'Your visit is being submitted. Please wait a moment.');
  const call = {
    purpose: 'visit',
    idempotencyKey: authorizationKey(attempt.id),
    amountCents: attempt.totalCents,
    orderId: attempt.id,
    visitId: visit.id,
  };
  const held = await authorize(ctx, call, token);
  if (!held.ok) {
    await ctx.db.transaction().execute(async (trx) => {
      const tx = { ...ctx, db: trx };
      await settleCall(tx, call.idempotencyKey, outcomeOf(held));
      await discardOrderAttempt(tx, attempt.id);
    });
    throw new AppError(402, 'CARD_DECLINED', held.message, { ccnum: held.message });
  }
  if (!(await completeSubmission(ctx, visit.id, attempt.id, held.authorizationId))) {
    // The attempt was undone while the gateway was answering: nothing stays held.
    await releaseOrphanHold(ctx, attempt.id, held.authorizationId, attempt.totalCents);
    throw new AppError(409, 'VISIT_BUSY', 'Your visit is being submitted. Please wait a moment.');
  }
  return {
    orderNumber: attempt.orderNumber,
    amountCents: attempt.totalCents,
    destination: paths.visitScreen(visit.category, 'submitted'),
  };
}

/** The gateway key of a visit order's authorisation. */
const authorizationKey = (orderId: number) => `authorize:${orderId}`;

/**
 * Makes an authorised visit order a submitted visit, in one transaction with the ledger's record of
 * the authorisation: the order waits for review, the visit for its provider, the e-mail is queued.
 * The request and the reconciler both finish a submission through here. False when the order is
 * gone (the attempt was undone): the caller releases the hold.
 */
async function completeSubmission(
  ctx: AppContext,
  visitId: number,
  orderId: number,
  authorizationId: string,
): Promise<boolean> {
  const visit = await q.selectVisit(ctx.db, visitId);
  if (!visit) return false;
  const provider = await q.selectProviderFor(ctx.db, visit.state ?? '');
  const user = await sessionUser(ctx, visit.customerId);
  // Submitted and acknowledged, or neither; a repeated submission queues no second e-mail.
  const submitted = await ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    await settleCall(tx, authorizationKey(orderId), { ok: true, ref: authorizationId });
    await markAuthorized(tx, orderId, authorizationId);
    if (
      !(await q.markSubmitted(
        trx,
        visitId,
        orderId,
        provider?.id ?? null,
        ctx.clock.now().toISOString(),
      ))
    )
      return false;
    await sendVisitReceived(tx, user);
    return true;
  });
  if (submitted) {
    faultPoint(ctx.env, 'visit:after-commit');
    sendQueuedSoon(ctx);
  }
  const order = await visitOrder(ctx, orderId);
  return order?.chargeId === authorizationId && order.paymentStatus !== 'pending';
}

async function releaseOrphanHold(
  ctx: AppContext,
  orderId: number,
  authorizationId: string,
  amountCents: number,
): Promise<void> {
  const call = {
    purpose: 'release_orphan',
    idempotencyKey: `release:${authorizationId}`,
    amountCents,
    orderId,
    sourceRef: authorizationId,
  };
  await settleCall(ctx, call.idempotencyKey, await release(ctx, call));
}

/**
 * For the payment reconciler: settles a visit authorisation a crash left unanswered, by what the
 * gateway did. A hold that went through becomes the submitted visit (or is released when its order
 * is gone); one that failed or never arrived removes the pending order, so the patient can submit
 * again.
 */
export async function finishVisitAuthorization(ctx: AppContext, call: LedgerRow): Promise<void> {
  const orderId = call.orderId ?? 0;
  const record = await gatewayRecord(ctx, { idempotencyKey: call.idempotencyKey });
  if (record?.status === 'authorized' || record?.status === 'succeeded') {
    if (!(await completeSubmission(ctx, call.visitId ?? 0, orderId, record.id)))
      await releaseOrphanHold(ctx, orderId, record.id, record.amountCents);
    return;
  }
  await ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    await settleCall(tx, call.idempotencyKey, {
      ok: false,
      failure: record?.failureMessage ?? 'The authorisation never reached the gateway.',
    });
    await discardOrderAttempt(tx, orderId);
  });
}

/** No program, answer or medicine in the e-mail: it says only that a visit is waiting for review. */
async function sendVisitReceived(
  ctx: AppContext,
  user: { first_name: string; email: string },
): Promise<void> {
  const lines = [
    `Hello ${user.first_name},`,
    'Thank you. We received your online visit, and a licensed provider will review it, usually within one business day.',
    'Your card has been authorised but will be charged only if your provider approves treatment. You will find their reply in Messages in your account.',
  ];
  await queueEmail(ctx, {
    to: user.email,
    subject: 'We received your online visit',
    text: [...lines, '', ...emailSignature].join('\n'),
    html: emailHtml(lines, null, 'Questions? Write to us any time from your account.'),
  });
}

// --- For the provider console --------------------------------------------------------------------

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

export { toPreferences };

// --- /doctor, /survey/, /feedback/ ---------------------------------------------------------------

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
    throw new AppError(409, 'VISIT_STEP', 'You can rate your visit once it is submitted.');
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
