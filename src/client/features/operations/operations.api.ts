import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { operationsApi, type StaffOrderDetail } from '#shared/operations.ts';
import type { BodyOf } from '#shared/contract.ts';
import { showToast } from '#client/components/ui/toast.tsx';
import { call, failedWith } from '#client/lib/api.ts';
import { earlierCursor, joinPages } from '#client/features/messages/thread-pages.ts';

/** The operations console's cache keys, under the console's `/staff` (logging out forgets them). */
export const operationsKeys = {
  orders: (filters: OrderFilters) => ['/staff', 'orders', filters] as const,
  ordersAll: ['/staff', 'orders'] as const,
  order: (id: number) => ['/staff', 'order', id] as const,
};

export type OrderFilters = BodyOf<typeof operationsApi.orders>;

const isId = (id: number) => Number.isInteger(id) && id > 0;

export function useStaffOrders(filters: OrderFilters) {
  return useQuery({
    queryKey: operationsKeys.orders(filters),
    queryFn: async ({ signal }) => {
      const body = {
        ...(filters.status ? { status: filters.status } : {}),
        ...(filters.query ? { query: filters.query } : {}),
      };
      return (await call(operationsApi.orders, { body, signal })).orders;
    },
    // A new filter keeps the last rows on screen until the new ones arrive.
    placeholderData: (previous) => previous,
    staleTime: 15_000,
  });
}

export function useStaffOrder(id: number, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: operationsKeys.order(id),
    queryFn: async ({ signal }) =>
      (await call(operationsApi.order, { body: { order_id: id }, signal })).order,
    enabled: (options.enabled ?? true) && isId(id),
    staleTime: 15_000,
  });
}

/** A change to an order, as its call takes it (without the order's id). */
export type OrderAction =
  | ({ action: 'ship' } & Pick<BodyOf<typeof operationsApi.ship>, 'tracking_number'>)
  | { action: 'deliver' }
  | ({ action: 'refund' } & Pick<BodyOf<typeof operationsApi.refund>, 'amount_cents' | 'reason'>)
  | { action: 'cancel' };

/** Ship, deliver, refund or cancel; the answer carries the order as it is now, and what happened. */
export async function changeOrder(
  orderId: number,
  change: OrderAction,
): Promise<{ order: StaffOrderDetail; message: string }> {
  switch (change.action) {
    case 'ship': {
      const body = { order_id: orderId, tracking_number: change.tracking_number };
      const { order } = await call(operationsApi.ship, { body });
      return { order, message: operationsApi.ship.message };
    }
    case 'deliver': {
      const { order } = await call(operationsApi.deliver, { body: { order_id: orderId } });
      return { order, message: operationsApi.deliver.message };
    }
    case 'refund': {
      const body = { order_id: orderId, amount_cents: change.amount_cents, reason: change.reason };
      const { order } = await call(operationsApi.refund, { body });
      return { order, message: operationsApi.refund.message };
    }
    case 'cancel': {
      const { order } = await call(operationsApi.cancel, { body: { order_id: orderId } });
      return { order, message: operationsApi.cancel.message };
    }
  }
}

/** The changed order shows at once; the lists reload in the background. */
export function storeOrder(queryClient: QueryClient, order: StaffOrderDetail): void {
  queryClient.setQueryData(operationsKeys.order(order.orders_id), order);
  void queryClient.invalidateQueries({ queryKey: operationsKeys.ordersAll });
}

/**
 * Ships, delivers, refunds or cancels an order, with the declared message of what happened. The
 * form places a refusal itself (its fields, or its alert).
 */
export function useChangeOrder(orderId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: OrderAction) => changeOrder(orderId, change),
    onSuccess: ({ order, message }) => {
      storeOrder(queryClient, order);
      showToast({ kind: 'success', title: message });
    },
    onError: (error) => {
      // The order moved on meanwhile (someone else shipped or refunded it): show it as it is.
      // Cancelling can answer both codes; the other changes, the first only.
      if (failedWith(error, operationsApi.cancel, 'ORDER_STATE', 'ORDER_CHANGED'))
        void queryClient.invalidateQueries({ queryKey: operationsKeys.order(orderId) });
    },
  });
}

// --- Provider coverage ---------------------------------------------------------------------------

export const coverageKeys = { states: ['/staff', 'coverage'] as const };

/**
 * Each offered state with its number of licensed providers, and the licences that expire soon,
 * read again once a minute old.
 */
export function useStateCoverage() {
  return useQuery({
    queryKey: coverageKeys.states,
    queryFn: ({ signal }) => call(operationsApi.coverage, { body: {}, signal }),
    staleTime: 60_000,
  });
}

// --- The care team's inbox -----------------------------------------------------------------------

export const inboxKeys = {
  list: ['/staff', 'inbox'] as const,
  thread: (id: number) => ['/staff', 'inbox', id] as const,
};

/** Patient threads not about a visit: waiting ones first. New ones appear without a reload. */
export function useCareInbox(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: inboxKeys.list,
    queryFn: async ({ signal }) => (await call(operationsApi.inbox, { body: {}, signal })).threads,
    enabled: options.enabled ?? true,
    refetchInterval: 30_000,
    refetchIntervalInBackground: false,
  });
}

/** A thread of the inbox, a page at a time (`fetchNextPage`: its earlier messages). */
export function useCareThread(id: number, options: { enabled?: boolean } = {}) {
  return useInfiniteQuery({
    queryKey: inboxKeys.thread(id),
    queryFn: ({ signal, pageParam }) =>
      call(operationsApi.inboxThread, {
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

export async function replyInThread(threadId: number, body: string) {
  return (await call(operationsApi.inboxReply, { body: { thread_id: threadId, body } })).message;
}

/**
 * A clinical question asked as something else goes to a provider (by id); the inbox no longer has
 * it. The form places a refusal itself (its field, or its alert).
 */
export function useHandToProvider(threadId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (providerId: number) =>
      call(operationsApi.inboxHandOff, { body: { thread_id: threadId, provider_id: providerId } }),
    onSuccess: () => {
      showToast({ kind: 'success', title: operationsApi.inboxHandOff.message });
      queryClient.removeQueries({ queryKey: inboxKeys.thread(threadId) });
      void queryClient.invalidateQueries({ queryKey: inboxKeys.list });
    },
  });
}
