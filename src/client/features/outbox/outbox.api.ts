import { useQuery, type QueryClient } from '@tanstack/react-query';
import { outboxApi, type OutboxProblem } from '#shared/outbox.ts';
import { call } from '#client/lib/api.ts';

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

/** Queues a message again; answers with the list as it is now. */
export async function retryOutboxMessage(
  queryClient: QueryClient,
  outboxId: number,
): Promise<OutboxProblem[]> {
  const { messages } = await call(outboxApi.retry, { body: { outbox_id: outboxId } });
  queryClient.setQueryData(outboxKeys.problems, messages);
  return messages;
}
