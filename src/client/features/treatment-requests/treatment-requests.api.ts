import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BodyOf } from '#shared/contract.ts';
import { treatmentRequestsApi } from '#shared/treatment-requests.ts';
import { showToast } from '#client/components/ui/toast.tsx';
import { call, callWithMessage } from '#client/lib/api.ts';

/**
 * Issue 29: a patient's requests between visits (an early refill, a change of dose, a side
 * effect), each asked from a refill plan's card and answered in its own conversation.
 */

export const treatmentRequestKeys = {
  list: ['/account/treatment-requests'] as const,
};

/**
 * The messages feature's keys start with this: a request starts a conversation, so Messages (and
 * its unread marks) ask again. Named here rather than imported, as features do not import Messages.
 */
const messagesKeyPrefix = ['/messaging'] as const;

export type NewTreatmentRequest = BodyOf<typeof treatmentRequestsApi.create>;

/** Every request of the logged-in patient, newest first; each card picks its plan's. */
export function useTreatmentRequests() {
  return useQuery({
    queryKey: treatmentRequestKeys.list,
    queryFn: ({ signal }) =>
      call(treatmentRequestsApi.list, {
        body: {},
        fallbackMessage: 'We could not load your requests.',
        signal,
      }).then((data) => data.requests),
  });
}

/**
 * "Send to my provider": the request and its conversation are written together, so the card's
 * list and Messages both ask again. The toast is the server's message.
 */
export function useCreateTreatmentRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewTreatmentRequest) =>
      callWithMessage(treatmentRequestsApi.create, {
        body,
        fallbackMessage: 'We could not send your request. Please try again.',
      }),
    onSuccess: ({ message }) => {
      void queryClient.invalidateQueries({ queryKey: treatmentRequestKeys.list });
      void queryClient.invalidateQueries({ queryKey: messagesKeyPrefix });
      showToast({ kind: 'success', title: 'Request sent', description: message });
    },
  });
}
