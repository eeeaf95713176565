import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { apiPaths } from '#shared/api.ts';
import {
  RecentResponseSchema,
  SentResponseSchema,
  ThreadsResponseSchema,
} from '#shared/messaging.ts';
import { z } from 'zod';
import { accountKeys } from '#client/features/accounts/accounts.api.ts';
import { apiPost } from '#client/lib/api.ts';

export const messageKeys = {
  all: ['/messaging'] as const,
  threads: (leadsId: string) => ['/messaging', 'threads', leadsId] as const,
  recent: (leadsId: string) => ['/messaging', 'recent', leadsId] as const,
};

/** How often the page asks for new messages while it is visible. */
export const POLL_MS = 15_000;

/** The patient's conversations with the care team, newest activity first as the server orders them. */
export function useThreads(leadsId: string) {
  return useQuery({
    queryKey: messageKeys.threads(leadsId),
    queryFn: ({ signal }) =>
      apiPost(apiPaths.messagingGetAll, ThreadsResponseSchema, {
        body: { leads_id: leadsId },
        signal,
      }).then((response) => response.data),
  });
}

/**
 * Asks for messages newer than the last answer every 15 s while the page is visible; when any
 * arrive the conversations reload, so they appear without a reload of the page.
 */
export function useNewMessagesPoll(leadsId: string) {
  const queryClient = useQueryClient();
  const since = useRef<string | null>(null);
  return useQuery({
    queryKey: messageKeys.recent(leadsId),
    queryFn: async ({ signal }) => {
      const response = await apiPost(apiPaths.messagingGetRecent, RecentResponseSchema, {
        body: { leads_id: leadsId, ...(since.current ? { since: since.current } : {}) },
        signal,
      });
      const first = since.current === null;
      since.current = response.data.now;
      if (!first && response.data.messages.length > 0)
        await queryClient.invalidateQueries({ queryKey: messageKeys.threads(leadsId) });
      return response.data.unread;
    },
    refetchInterval: POLL_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: true,
    staleTime: 0,
  });
}

export function markThreadRead(leadsId: string, threadId: number) {
  return apiPost(apiPaths.messagingRead, z.object({ status: z.literal('SUCCESS') }), {
    body: { leads_id: leadsId, thread_id: threadId },
  });
}

export async function sendMessage(
  leadsId: string,
  message:
    { thread_id: number; body: string } | { subject: string; order_number?: string; body: string },
) {
  const response = await apiPost(apiPaths.messagingSend, SentResponseSchema, {
    body: { leads_id: leadsId, ...message },
  });
  return response.data.message;
}

/** The conversations reload, and so does Home's "unread messages" flag. */
export function refreshThreads(queryClient: QueryClient, leadsId: string) {
  void queryClient.invalidateQueries({ queryKey: accountKeys.patientData(leadsId) });
  return queryClient.invalidateQueries({ queryKey: messageKeys.threads(leadsId) });
}
