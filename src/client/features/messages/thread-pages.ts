import type { InfiniteData } from '@tanstack/react-query';
import type { Thread } from '#shared/messages.ts';

/**
 * A conversation is read a page at a time: the newest page first, then each earlier one on "Load
 * earlier messages". These join the pages an infinite query holds back into one thread.
 */

/** The cursor of the page before this one, or null when it is the conversation's first. */
export function earlierCursor(thread: Thread | null | undefined): string | null {
  return thread?.has_more ? thread.next_cursor : null;
}

/**
 * The pages (newest first, as fetched) as one thread, oldest message first: the first page's
 * subject and unread count, the last page's cursor. A message on two pages shows once.
 */
export function joinThread(pages: readonly Thread[]): Thread | null {
  const [newest] = pages;
  if (!newest) return null;
  const oldest = pages[pages.length - 1] ?? newest;
  const seen = new Set<number>();
  const messages = [...pages]
    .reverse()
    .flatMap((page) => page.messages)
    .filter((message) => {
      if (seen.has(message.id)) return false;
      seen.add(message.id);
      return true;
    });
  return { ...newest, messages, has_more: oldest.has_more, next_cursor: oldest.next_cursor };
}

/** The same for answers that carry a thread beside other things (the patient, the providers). */
export function joinPages<P extends { thread: Thread }>(data: InfiniteData<P>): P {
  const first = data.pages[0] as P;
  return { ...first, thread: joinThread(data.pages.map((page) => page.thread)) ?? first.thread };
}

/** What "Load earlier messages" needs from an infinite query. */
export interface EarlierMessages {
  hasMore: boolean;
  loading: boolean;
  failed: boolean;
  load: () => Promise<unknown>;
}

export function earlierOf(query: {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage: () => Promise<unknown>;
}): EarlierMessages {
  return {
    hasMore: query.hasNextPage,
    loading: query.isFetchingNextPage,
    failed: query.isFetchNextPageError,
    load: () => query.fetchNextPage(),
  };
}
