import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { renewalsApi } from '#shared/renewals.ts';
import type { ProgramCategory } from '#shared/visits.ts';
import { call } from '#client/lib/api.ts';

/**
 * Issue 29: a prescription's renewal. Its questions are the visit's own calls; these open it and
 * send it. Answers travel only in the visit's request bodies: nothing here logs or tracks them.
 */

export const renewalKeys = {
  open: (category: ProgramCategory) => ['renewal', 'open', category] as const,
};

/** Opens the program's renewal that is due, or resumes it: its id and the screen it is on. */
export function useOpenRenewal(category: ProgramCategory) {
  return useQuery({
    queryKey: renewalKeys.open(category),
    queryFn: ({ signal }) =>
      call(renewalsApi.startRenewal, {
        body: { category },
        fallbackMessage: 'We could not open your renewal. Please try again.',
        signal,
      }),
    // Asked afresh each time the page opens: the server decides where the renewal is.
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

/** "Send to my provider": the renewal goes for review; Home and the member area ask again. */
export function useSendRenewal(visitId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      call(renewalsApi.sendRenewal, {
        body: { visit_id: visitId, confirm: true },
        fallbackMessage: 'We could not send your answers. Please try again.',
      }),
    onSuccess: () => void queryClient.invalidateQueries(),
  });
}
