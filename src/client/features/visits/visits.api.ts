import { useQuery } from '@tanstack/react-query';
import { apiPaths, apiUrl } from '#shared/api.ts';
import { messages } from '#shared/messages.ts';
import type { AnswerValue } from '#shared/questionnaires/format.ts';
import {
  ConsentResultSchema,
  EligibilityResultSchema,
  PreferencesResultSchema,
  StartProgramResultSchema,
  StatesAllowedResponseSchema,
  UploadResultSchema,
  V2QuestionStateResponseSchema,
  VisitCheckoutResultSchema,
  type ProgramCategory,
  type QuestionState,
} from '#shared/telehealth.ts';
import { ApiError, apiPost } from '#client/lib/api.ts';

/**
 * The online visit's calls (spec §7 telehealth and questionnaire calls), each with its own failure
 * message (spec §8). Answers to health questions travel only in these request bodies: nothing here
 * logs, tracks or reports them.
 */

export async function startProgram(leadsId: string, category: ProgramCategory) {
  const result = await apiPost(apiPaths.startProgram, StartProgramResultSchema, {
    body: { leads_id: leadsId, new_category: category },
    fallbackMessage: messages.consultationFailed,
  });
  return result.data;
}

export function useStatesAllowed() {
  return useQuery({
    queryKey: ['/click/statesallowed/'],
    queryFn: async () =>
      (
        await apiPost(apiPaths.statesAllowed, StatesAllowedResponseSchema, {
          body: {},
          fallbackMessage: messages.eligibilityFailed,
        })
      ).data.states,
    staleTime: Infinity,
  });
}

export async function checkEligibility(body: { visit_id: number; state: string; dob: string }) {
  const result = await apiPost(apiPaths.visitEligibility, EligibilityResultSchema, {
    body,
    fallbackMessage: messages.eligibilityFailed,
  });
  return result.data;
}

async function questionCall(
  path: (typeof apiPaths)['v2QuestionNext' | 'v2QuestionPrevious' | 'v2QuestionSubmit'],
  body: unknown,
  fallbackMessage: string,
): Promise<QuestionState> {
  const result = await apiPost(path, V2QuestionStateResponseSchema, { body, fallbackMessage });
  return result.data;
}

/** Without a linkId: the question the patient is on (a visit resumes where it was left). */
export function nextQuestion(visitId: number, linkId?: string) {
  return questionCall(
    apiPaths.v2QuestionNext,
    { visit_id: visitId, ...(linkId ? { linkId } : {}) },
    messages.nextQuestionFailed,
  );
}

export function previousQuestion(visitId: number, linkId: string) {
  return questionCall(
    apiPaths.v2QuestionPrevious,
    { visit_id: visitId, linkId },
    messages.previousQuestionFailed,
  );
}

export function submitQuestion(visitId: number, linkId: string, value: AnswerValue) {
  return questionCall(
    apiPaths.v2QuestionSubmit,
    { visit_id: visitId, linkId, value },
    messages.submitQuestionFailed,
  );
}

type PreferencePath = (typeof apiPaths)[
  'productDrug' | 'productDosage' | 'productFrequency' | 'hairPreferences' | 'sleepPreferences'];

export async function savePreference(path: PreferencePath, body: Record<string, unknown>) {
  const result = await apiPost(path, PreferencesResultSchema, {
    body,
    fallbackMessage: messages.productPreferencesFailed,
  });
  return result.data;
}

/** Multipart, so not through apiPost: the browser sets the boundary in Content-Type itself. */
export async function uploadPhotoId(visitId: number, file: File) {
  const form = new FormData();
  form.append('visit_id', String(visitId));
  form.append('fileToUpload', file);
  const fallback = 'We could not upload your photo. Please try again.';
  let response: Response;
  try {
    response = await fetch(apiUrl(apiPaths.uploadImage), {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
      body: form,
    });
  } catch {
    throw new ApiError(0, 'NETWORK', fallback);
  }
  const payload: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const body = payload as { code?: unknown; message?: unknown } | undefined;
    const message =
      response.status < 500 && typeof body?.message === 'string' ? body.message : fallback;
    throw new ApiError(
      response.status,
      typeof body?.code === 'string' ? body.code : 'HTTP',
      message,
    );
  }
  const parsed = UploadResultSchema.safeParse(payload);
  if (!parsed.success) throw new ApiError(200, 'BAD_RESPONSE', fallback);
  return parsed.data.data;
}

export async function giveConsent(visitId: number) {
  const result = await apiPost(apiPaths.visitConsent, ConsentResultSchema, {
    body: { visit_id: visitId, consent: true },
  });
  return result.data;
}

export interface VisitCheckoutBody {
  visit_id: number;
  shipping: {
    address: string;
    address2: string;
    city: string;
    state: string;
    zip: string;
    phoneNo: string;
  };
  billing: { address: string; address2: string; city: string; state: string; zip: string } | null;
  payment: { method: 'card'; ccnum: string; ccexp: string; cccvv: string } | { method: 'saved' };
  consent: true;
}

export async function visitCheckout(body: VisitCheckoutBody) {
  const result = await apiPost(apiPaths.visitCheckout, VisitCheckoutResultSchema, { body });
  return result.data;
}
