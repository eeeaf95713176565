import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BodyOf } from '#shared/contract.ts';
import type { AnswerValue } from '#shared/questionnaires/format.ts';
import { visitsApi, type ProgramCategory, type QuestionState } from '#shared/visits.ts';
import { messages } from '#shared/wording.ts';
import { showToast } from '#client/components/ui/toast.tsx';
import { ApiError, call, callWithMessage, errorText, failedWith } from '#client/lib/api.ts';
import { reportError } from '#client/lib/error-reporting.ts';
import { orderKeys } from '#client/features/orders/orders.api.ts';

/**
 * The online visit's calls (spec §7 telehealth and questionnaire calls), each with its own failure
 * message (spec §8). Answers to health questions travel only in these request bodies: nothing here
 * logs, tracks or reports them.
 */

/** Opens the program's visit, or resumes the one in progress; answers where it is. */
export function startProgram(leadsId: string, category: ProgramCategory, signal?: AbortSignal) {
  return call(visitsApi.startProgram, {
    body: { leads_id: leadsId, new_category: category },
    fallbackMessage: messages.consultationFailed,
    ...(signal ? { signal } : {}),
  });
}

/** A visitor's state and age, before any account or visit: eligible, or why not. */
export function checkVisitorEligibility(body: BodyOf<typeof visitsApi.checkEligibility>) {
  return call(visitsApi.checkEligibility, { body, fallbackMessage: messages.eligibilityFailed });
}

/** "Tell me when {State} opens" from a visitor: their address, for one e-mail (with the server's words). */
export function joinVisitorWaitlist(body: BodyOf<typeof visitsApi.joinVisitorWaitlist>) {
  return callWithMessage(visitsApi.joinVisitorWaitlist, {
    body,
    fallbackMessage: 'We could not add you to the list. Please try again.',
  });
}

export function checkEligibility(body: BodyOf<typeof visitsApi.eligibility>) {
  return call(visitsApi.eligibility, { body, fallbackMessage: messages.eligibilityFailed });
}

/** Without a linkId: the question the patient is on (a visit resumes where it was left). */
export function nextQuestion(visitId: number, linkId?: string) {
  return call(visitsApi.v2NextQuestion, {
    body: { visit_id: visitId, ...(linkId ? { linkId } : {}) },
    fallbackMessage: messages.nextQuestionFailed,
  });
}

/** The visit moved on or closed while the patient was on a question (another tab, a provider). */
export function visitMovedOn(error: unknown): error is ApiError {
  return failedWith(error, visitsApi.v2NextQuestion, 'VISIT_STEP', 'VISIT_CLOSED');
}

export function previousQuestion(visitId: number, linkId: string) {
  return call(visitsApi.v2PreviousQuestion, {
    body: { visit_id: visitId, linkId },
    fallbackMessage: messages.previousQuestionFailed,
  });
}

export function submitQuestion(visitId: number, linkId: string, value: AnswerValue) {
  return call(visitsApi.v2SubmitQuestion, {
    body: { visit_id: visitId, linkId, value },
    fallbackMessage: messages.submitQuestionFailed,
  });
}

/** Errors that are not the API's are bugs: reported by name only, never with an answer. */
function messageOf(error: unknown, fallback: string): Error {
  if (error instanceof ApiError) return error;
  reportError(new Error('Questionnaire call failed'), 'error', 'visit');
  return new Error(fallback);
}

const questionKey = (visitId: number) => ['visit', visitId, 'question'] as const;

/**
 * The question the patient is on. The server decides where the visit is, so it is asked afresh
 * each time the page opens (nothing kept once it closes) and never behind the patient's back.
 */
export function useCurrentQuestion(visitId: number) {
  return useQuery({
    queryKey: questionKey(visitId),
    queryFn: async () => {
      try {
        return await nextQuestion(visitId);
      } catch (error) {
        throw messageOf(error, messages.nextQuestionFailed);
      }
    },
    staleTime: Infinity,
    gcTime: 0,
  });
}

export interface QuestionCall<V> {
  visitId: number;
  send: (variables: V) => Promise<QuestionState>;
  /** The call's own failure message (spec §8). */
  fallback: string;
  /** A new question is shown. */
  onShown: () => void;
  /** The server refused the answer: its message goes under the question. */
  onAnswerRefused: (message: string) => void;
}

/** A question call's answer becomes the question shown (or sends the patient on, see `Questions`). */
export function useQuestionCall<V>({
  visitId,
  send,
  fallback,
  onShown,
  onAnswerRefused,
}: QuestionCall<V>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (variables: V) => {
      try {
        return await send(variables);
      } catch (error) {
        throw messageOf(error, fallback);
      }
    },
    onSuccess: (next) => {
      queryClient.setQueryData(questionKey(visitId), next);
      onShown();
    },
    onError: (problem) => {
      // A visit that moved on or closed replaces the page (see `Questions`).
      if (visitMovedOn(problem)) return;
      if (problem instanceof ApiError && problem.fields.value)
        onAnswerRefused(problem.fields.value);
      else showToast({ kind: 'error', title: problem.message });
    },
  });
}

type Without<E extends keyof typeof visitsApi> = Omit<BodyOf<(typeof visitsApi)[E]>, 'visit_id'>;

/** The treatment the patient would like, and the program's own preference where it has one. */
export interface TreatmentChoice {
  drug: string;
  dosage: string;
  frequency: string;
  hair?: Without<'hairPreferences'>;
  sleep?: Without<'sleepPreferences'>;
}

/**
 * Saves each preference in turn (spec §7 `/product/…`), the program's own last; answers where the
 * visit goes next, as the last call says.
 */
export async function saveTreatmentChoice(visitId: number, choice: TreatmentChoice) {
  const fallbackMessage = messages.productPreferencesFailed;
  const visit_id = visitId;
  await call(visitsApi.drug, { body: { visit_id, drug: choice.drug }, fallbackMessage });
  await call(visitsApi.dosage, { body: { visit_id, dosage: choice.dosage }, fallbackMessage });
  let saved = await call(visitsApi.frequency, {
    body: { visit_id, frequency: choice.frequency },
    fallbackMessage,
  });
  if (choice.hair)
    saved = await call(visitsApi.hairPreferences, {
      body: { visit_id, ...choice.hair },
      fallbackMessage,
    });
  if (choice.sleep)
    saved = await call(visitsApi.sleepPreferences, {
      body: { visit_id, ...choice.sleep },
      fallbackMessage,
    });
  return saved;
}

/** Multipart: the photo goes as form data, the visit beside it. */
export function uploadPhotoId(visitId: number, file: File) {
  return call(visitsApi.uploadImage, {
    body: { visit_id: String(visitId), fileToUpload: file },
    fallbackMessage: 'We could not upload your photo. Please try again.',
  });
}

export function giveConsent(visitId: number) {
  return call(visitsApi.consent, { body: { visit_id: visitId, consent: true } });
}

export function visitCheckout(body: BodyOf<typeof visitsApi.checkout>) {
  return call(visitsApi.checkout, { body });
}

/** Both under `all`: acting on a closed visit refreshes its page and Home. */
export const closedVisitKeys = {
  all: ['visit', 'closed'] as const,
  one: (visitId: number) => ['visit', 'closed', visitId] as const,
  list: ['visit', 'closed', 'list'] as const,
};

/** A closed visit: why it closed, and what the patient can do instead. */
export function useClosedVisit(visitId: number) {
  return useQuery({
    queryKey: closedVisitKeys.one(visitId),
    queryFn: ({ signal }) => call(visitsApi.closedVisit, { body: { visit_id: visitId }, signal }),
  });
}

/** The patient's closed visits, for Home. */
export function useClosedVisits() {
  return useQuery({
    queryKey: closedVisitKeys.list,
    queryFn: ({ signal }) => call(visitsApi.closedVisits, { body: {}, signal }),
  });
}

/** "Yes, that's right": the answer that ends the visit stands. */
export function confirmKnockout(visitId: number) {
  return call(visitsApi.confirmKnockout, {
    body: { visit_id: visitId },
    fallbackMessage: messages.submitQuestionFailed,
  });
}

/** Acting on a closed visit: its page and Home ask again, so both say what happened. */
function useClosedVisitAction(run: () => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: closedVisitKeys.all }),
  });
}

/** "Tell me when {State} opens". */
export const useJoinWaitlist = (visitId: number) =>
  useClosedVisitAction(() =>
    call(visitsApi.joinWaitlist, {
      body: { visit_id: visitId },
      fallbackMessage: 'We could not add you to the list. Please try again.',
    }),
  );

/** "Ask a provider to review": the answers as given go to a provider; nothing is charged. */
export const useRequestReview = (visitId: number) =>
  useClosedVisitAction(() =>
    call(visitsApi.requestReview, {
      body: { visit_id: visitId },
      fallbackMessage: 'We could not send your answers to a provider. Please try again.',
    }),
  );

/** The review of the answers: read afresh each time the screen opens (the server decides). */
export const answersReviewKey = (visitId: number) => ['visit', visitId, 'answers'] as const;

/** "Review your answers": every question shown, with the answer in words. */
export function useAnswersReview(visitId: number) {
  return useQuery({
    queryKey: answersReviewKey(visitId),
    queryFn: ({ signal }) =>
      call(visitsApi.reviewAnswers, {
        body: { visit_id: visitId },
        fallbackMessage: messages.questionsFailed,
        signal,
      }),
    staleTime: 0,
    gcTime: 0,
  });
}

/**
 * "Change" on the review: the question (by its linkId) opens again with its answer. A visit that
 * moved on meanwhile is the page's to show (`visitMovedOn`); any other refusal is the toast.
 */
export function useChangeAnswer(visitId: number) {
  return useMutation({
    mutationFn: (linkId: string) =>
      call(visitsApi.changeAnswer, {
        body: { visit_id: visitId, linkId },
        fallbackMessage: messages.nextQuestionFailed,
      }),
    onError: (problem) => {
      if (!visitMovedOn(problem))
        showToast({ kind: 'error', title: errorText(problem, messages.nextQuestionFailed) });
    },
  });
}

/** The programs whose visit is paid for but not finished, shown on the orders page. */
export function usePendingOrders(leadsId: string) {
  return useQuery({
    queryKey: orderKeys.pending(leadsId),
    queryFn: ({ signal }) => call(visitsApi.pendingOrders, { body: { leads_id: leadsId }, signal }),
  });
}
