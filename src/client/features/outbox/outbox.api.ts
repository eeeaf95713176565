import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { outboxApi } from '#shared/outbox.ts';
import { showToast } from '#client/components/ui/toast.tsx';
import { call, errorText } from '#client/lib/api.ts';

/** Email and text messages that could not be sent (operations staff), under the console's `/staff`. */
export const outboxKeys = { problems: ['/staff', 'outbox'] as const };

export function useOutboxProblems(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: outboxKeys.problems,
    queryFn: async ({ signal }) => (await call(outboxApi.problems, { signal })).messages,
    enabled: options.enabled ?? true,
    refetchInterval: 60_000,
    refetchIntervalInBackground: false,
  });
}

/** Queues a message again (by its outbox id); the answer is the list as it is now, shown at once. */
export function useRetryOutboxMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (outboxId: number) => call(outboxApi.retry, { body: { outbox_id: outboxId } }),
    onSuccess: ({ messages }) => {
      queryClient.setQueryData(outboxKeys.problems, messages);
      showToast({
        kind: 'success',
        title: 'Queued to send again',
        description: outboxApi.retry.message,
      });
    },
    onError: (error) =>
      showToast({ kind: 'error', title: 'Not sent again', description: errorText(error) }),
  });
}
