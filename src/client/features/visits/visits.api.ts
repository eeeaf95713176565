import { useQuery } from '@tanstack/react-query';
import type { BodyOf } from '#shared/contract.ts';
import type { AnswerValue } from '#shared/questionnaires/format.ts';
import { visitsApi, type ProgramCategory } from '#shared/visits.ts';
import { messages } from '#shared/wording.ts';
import { call, failedWith, type ApiError } from '#client/lib/api.ts';

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

/** "Tell me when {State} opens". */
export function joinWaitlist(visitId: number) {
  return call(visitsApi.joinWaitlist, {
    body: { visit_id: visitId },
    fallbackMessage: 'We could not add you to the list. Please try again.',
  });
}

/** "Ask a provider to review": the answers as given go to a provider; nothing is charged. */
export function requestReview(visitId: number) {
  return call(visitsApi.requestReview, {
    body: { visit_id: visitId },
    fallbackMessage: 'We could not send your answers to a provider. Please try again.',
  });
}

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

/** "Change" on the review: the question opens again with its answer. */
export function changeAnswer(visitId: number, linkId: string) {
  return call(visitsApi.changeAnswer, {
    body: { visit_id: visitId, linkId },
    fallbackMessage: messages.nextQuestionFailed,
  });
}
