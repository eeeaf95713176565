import { useQuery, type QueryClient } from '@tanstack/react-query';
import { apiPaths, v1Success } from '#shared/api.ts';
import { OutboxProblemListSchema, type OutboxProblem } from '#shared/outbox.ts';
import { apiPost } from '#client/lib/api.ts';

/** E-mail and text messages that could not be sent (operations staff). */
export const outboxKeys = { problems: ['/staff', 'outbox'] as const };

export function useOutboxProblems(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: outboxKeys.problems,
    queryFn: ({ signal }) =>
      apiPost(apiPaths.staffOutbox, v1Success(OutboxProblemListSchema), { body: {}, signal }).then(
        (response) => response.data.messages,
      ),
    enabled: options.enabled ?? true,
    refetchInterval: 60_000,
    refetchIntervalInBackground: false,
  });
}

/** Queues a message again; answers with the list as it is now. */
export async function retryOutboxMessage(
  queryClient: QueryClient,
  outboxId: number,
): Promise<OutboxProblem[]> {
  const response = await apiPost(apiPaths.staffOutboxRetry, v1Success(OutboxProblemListSchema), {
    body: { outbox_id: outboxId },
  });
  queryClient.setQueryData(outboxKeys.problems, response.data.messages);
  return response.data.messages;
}
