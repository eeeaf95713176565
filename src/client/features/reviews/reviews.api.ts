import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import type { BodyOf } from '#shared/contract.ts';
import { reviewsApi, type Chart } from '#shared/reviews.ts';
import { showToast } from '#client/components/ui/toast.tsx';
import { call, failedWith } from '#client/lib/api.ts';
import { earlierCursor, joinPages, joinThread } from '#client/features/messages/thread-pages.ts';

/** The provider console's cache keys, under the console's `/staff` (logging out forgets them). */
export const providerKeys = {
  queue: ['/staff', 'visits'] as const,
  chart: (id: number) => ['/staff', 'visit', id] as const,
  thread: (id: number) => ['/staff', 'visit-thread', id] as const,
  patientMessages: ['/staff', 'patient-messages'] as const,
  patientThread: (id: number) => ['/staff', 'patient-messages', id] as const,
};

const isId = (id: number) => Number.isInteger(id) && id > 0;

/** The visits waiting for this provider, oldest first, and the fills the pharmacy rejected. */
export function useReviewQueue(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: providerKeys.queue,
    queryFn: ({ signal }) => call(reviewsApi.queue, { body: {}, signal }),
    enabled: options.enabled ?? true,
    staleTime: 15_000,
  });
}

export function useChart(id: number, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: providerKeys.chart(id),
    queryFn: async ({ signal }) =>
      (await call(reviewsApi.chart, { body: { visit_id: id }, signal })).chart,
    enabled: (options.enabled ?? true) && isId(id),
    staleTime: 15_000,
  });
}

/**
 * A visit's conversation, a page at a time (`fetchNextPage`: its earlier messages), and the
 * patient's active prescriptions as the newest page read them.
 */
export function useVisitThread(id: number, options: { enabled?: boolean } = {}) {
  return useInfiniteQuery({
    queryKey: providerKeys.thread(id),
    queryFn: ({ signal, pageParam }) =>
      call(reviewsApi.messages, {
        body: { visit_id: id, ...(pageParam ? { cursor: pageParam } : {}) },
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => earlierCursor(page.thread),
    select: (data) => ({
      thread: joinThread(data.pages.flatMap((page) => (page.thread ? [page.thread] : []))),
      prescriptions: data.pages[0]?.prescriptions ?? [],
    }),
    enabled: (options.enabled ?? true) && isId(id),
    // The patient may answer while the chart is open.
    refetchInterval: 15_000,
    refetchIntervalInBackground: false,
  });
}

export async function sendVisitMessage(visitId: number, body: string) {
  return (await call(reviewsApi.sendMessage, { body: { visit_id: visitId, body } })).message;
}

export type Prescription = BodyOf<typeof reviewsApi.approve>['prescription'];

export type VisitDecision =
  { decision: 'approve'; prescription: Prescription } | { decision: 'decline'; reason: string };

/**
 * Approve with a prescription or decline with a reason; the answer carries the chart as it is now
 * and the message that says what happened to the payment.
 */
export async function decideVisit(
  visitId: number,
  decision: VisitDecision,
): Promise<{ chart: Chart; message: string }> {
  if (decision.decision === 'approve') {
    const body = { visit_id: visitId, prescription: decision.prescription };
    const { chart } = await call(reviewsApi.approve, { body });
    return { chart, message: reviewsApi.approve.message };
  }
  const body = { visit_id: visitId, reason: decision.reason };
  const { chart } = await call(reviewsApi.decline, { body });
  return { chart, message: reviewsApi.decline.message };
}

export function storeChart(queryClient: QueryClient, chart: Chart): void {
  queryClient.setQueryData(providerKeys.chart(chart.visit_id), chart);
  void queryClient.invalidateQueries({ queryKey: providerKeys.queue });
}

/** The codes that mean the visit changed meanwhile; the approval's include the decline's. */
const changedVisit = ['VISIT_DECIDED', 'NO_AUTHORIZATION', 'SHIP_STATE_MISMATCH'] as const;

/**
 * Approves or declines a visit: the saved chart shows at once with the declared message of what
 * happened to the payment. The form places a refusal itself (its fields, or its alert).
 */
export function useDecideVisit(visitId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: VisitDecision) => decideVisit(visitId, decision),
    onSuccess: ({ chart, message }) => {
      storeChart(queryClient, chart);
      showToast({ kind: 'success', title: message });
    },
    onError: (error) => {
      // The visit changed meanwhile (decided, or its payment or address did): show it as it is.
      if (failedWith(error, reviewsApi.approve, ...changedVisit))
        void queryClient.invalidateQueries({ queryKey: providerKeys.chart(visitId) });
    },
  });
}

/** Patients' clinical questions this provider may answer, waiting ones first; new ones appear. */
export function usePatientMessages(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: providerKeys.patientMessages,
    queryFn: async ({ signal }) =>
      (await call(reviewsApi.patientMessages, { body: {}, signal })).threads,
    enabled: options.enabled ?? true,
    refetchInterval: 30_000,
    refetchIntervalInBackground: false,
  });
}

/** A patient's clinical thread, a page at a time (`fetchNextPage`: its earlier messages). */
export function usePatientThread(id: number, options: { enabled?: boolean } = {}) {
  return useInfiniteQuery({
    queryKey: providerKeys.patientThread(id),
    queryFn: ({ signal, pageParam }) =>
      call(reviewsApi.patientThread, {
        body: { thread_id: id, ...(pageParam ? { cursor: pageParam } : {}) },
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => earlierCursor(page.thread),
    select: joinPages,
    enabled: (options.enabled ?? true) && isId(id),
    // The patient may write again while the thread is open.
    refetchInterval: 15_000,
    refetchIntervalInBackground: false,
  });
}

export async function replyToPatient(threadId: number, body: string) {
  return (await call(reviewsApi.patientReply, { body: { thread_id: threadId, body } })).message;
}

export type RequestDecision = BodyOf<typeof reviewsApi.decideRequest>;

/**
 * Decides a request between visits (issue 29): the conversation shows the decision and the
 * provider's message, the queue and the patient messages list drop it. A request decided meanwhile
 * is shown as it is now.
 */
export function useDecideRequest(threadId: number) {
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: providerKeys.patientThread(threadId) });
    void queryClient.invalidateQueries({ queryKey: providerKeys.queue });
    void queryClient.invalidateQueries({ queryKey: providerKeys.patientMessages });
  };
  return useMutation({
    mutationFn: (decision: RequestDecision) =>
      call(reviewsApi.decideRequest, {
        body: decision,
        fallbackMessage: 'We could not save your decision. Please try again.',
      }),
    onSuccess: () => {
      refresh();
      showToast({ kind: 'success', title: reviewsApi.decideRequest.message });
    },
    onError: (error) => {
      if (failedWith(error, reviewsApi.decideRequest, 'REQUEST_DECIDED')) refresh();
    },
  });
}
