import {
  useInfiniteQuery,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { useRef } from 'react';
import type { BodyOf } from '#shared/contract.ts';
import { messagesApi, type Thread } from '#shared/messages.ts';
import { accountKeys } from '#client/features/accounts/accounts.api.ts';
import { call } from '#client/lib/api.ts';
import { earlierCursor, joinThread } from './thread-pages.ts';

export const messageKeys = {
  all: ['/messaging'] as const,
  threads: (leadsId: string) => ['/messaging', 'threads', leadsId] as const,
  /** Under `threads`: reloading the conversations reloads every page of the one open. */
  thread: (leadsId: string, threadId: number) =>
    ['/messaging', 'threads', leadsId, threadId] as const,
  recent: (leadsId: string) => ['/messaging', 'recent', leadsId] as const,
};

/** How often the page asks for new messages while it is visible. */
export const POLL_MS = 15_000;

/** The patient's conversations with the care team, newest activity first as the server orders them. */
export function useThreads(leadsId: string) {
  return useQuery({
    queryKey: messageKeys.threads(leadsId),
    queryFn: ({ signal }) => call(messagesApi.getAll, { body: { leads_id: leadsId }, signal }),
  });
}

/**
 * One conversation, a page at a time: its newest page is the one the list of conversations brought
 * (`thread`), and `fetchNextPage` loads the page before the oldest shown. Reloading the
 * conversations reloads every page shown, each from the one after it, so none is missed or shown
 * twice when new messages arrive.
 */
export function useThreadPages(leadsId: string, thread: Thread, listUpdatedAt: number) {
  const query = useInfiniteQuery({
    queryKey: messageKeys.thread(leadsId, thread.id),
    queryFn: async ({ signal, pageParam }) =>
      (
        await call(messagesApi.thread, {
          body: {
            leads_id: leadsId,
            thread_id: thread.id,
            ...(pageParam ? { cursor: pageParam } : {}),
          },
          signal,
        })
      ).thread,
    initialPageParam: null as string | null,
    getNextPageParam: (page) => earlierCursor(page),
    initialData: { pages: [thread], pageParams: [null] },
    initialDataUpdatedAt: listUpdatedAt,
    select: (data) => joinThread(data.pages),
  });
  return { ...query, thread: query.data ?? thread };
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
      const recent = await call(messagesApi.getRecent, {
        body: { leads_id: leadsId, ...(since.current ? { since: since.current } : {}) },
        signal,
      });
      const first = since.current === null;
      since.current = recent.now;
      if (!first && recent.messages.length > 0)
        await queryClient.invalidateQueries({ queryKey: messageKeys.threads(leadsId) });
      return recent.unread;
    },
    refetchInterval: POLL_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: true,
    staleTime: 0,
  });
}

export function markThreadRead(leadsId: string, threadId: number) {
  return call(messagesApi.read, { body: { leads_id: leadsId, thread_id: threadId } });
}

/** A reply (`thread_id`) or a new conversation (`subject`, maybe about an order). */
export async function sendMessage(
  leadsId: string,
  message: Omit<BodyOf<typeof messagesApi.send>, 'leads_id'>,
) {
  const sent = await call(messagesApi.send, { body: { leads_id: leadsId, ...message } });
  return sent.message;
}

/** The conversations reload, and so does Home's "unread messages" flag. */
export function refreshThreads(queryClient: QueryClient, leadsId: string) {
  void queryClient.invalidateQueries({ queryKey: accountKeys.patientData(leadsId) });
  return queryClient.invalidateQueries({ queryKey: messageKeys.threads(leadsId) });
}
