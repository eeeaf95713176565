import { useQuery, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiPaths, v1Success } from '#shared/api.ts';
import type { OrderStatus } from '#shared/orders.ts';
import {
  StaffMeSchema,
  StaffOrderListSchema,
  StaffOrderResultSchema,
  StaffUserSchema,
  type StaffLogin,
  type StaffOrderDetail,
  type StaffUser,
} from '#shared/staff.ts';
import {
  CareInboxResponseSchema,
  CareThreadResponseSchema,
  SentResponseSchema,
  StaffThreadResponseSchema,
} from '#shared/messaging.ts';
import type { PrescriptionSchema } from '#shared/telehealth.ts';
import { ReviewQueueSchema, ReviewResultSchema, type Chart } from '#shared/telehealth.ts';
import { ApiError, apiPost } from '#client/lib/api.ts';

type StaffMe = z.infer<typeof StaffMeSchema>;

/** The console's cache keys, apart from the customer's (`/staff/…`). */
export const staffKeys = {
  all: ['/staff'] as const,
  me: ['/staff', 'me'] as const,
  orders: (filters: OrderFilters) => ['/staff', 'orders', filters] as const,
  ordersAll: ['/staff', 'orders'] as const,
  order: (id: number) => ['/staff', 'order', id] as const,
};

export interface OrderFilters {
  status?: OrderStatus | undefined;
  query?: string | undefined;
}

/** The staff session ended (15 idle minutes on the server, or logged out elsewhere). */
export function isStaffUnauthenticated(error: unknown): boolean {
  return (
    error instanceof ApiError && error.status === 401 && error.code === 'STAFF_UNAUTHENTICATED'
  );
}

/** Who is logged in to the console, if anyone: the guard's source of truth. */
export function useStaffMe() {
  return useQuery({
    queryKey: staffKeys.me,
    queryFn: ({ signal }) =>
      apiPost(apiPaths.staffMe, v1Success(StaffMeSchema), { body: {}, signal }).then(
        (response) => response.data,
      ),
    staleTime: 60_000,
  });
}

export async function staffLogIn(body: StaffLogin): Promise<StaffUser> {
  const response = await apiPost(
    apiPaths.staffLogin,
    v1Success(z.object({ staff: StaffUserSchema })),
    { body },
  );
  return response.data.staff;
}

const MessageResultSchema = z.object({ status: z.literal('SUCCESS'), message: z.string() });

/** While a staff account's log-ins are paused: e-mail a link that lets this device log in. */
export function requestStaffUnlock(body: { email: string }) {
  return apiPost(apiPaths.staffLoginUnlock, MessageResultSchema, { body });
}

/** The link from that e-mail, opened on the device that should log in. */
export function confirmStaffUnlock(body: { token: string }) {
  return apiPost(apiPaths.staffLoginUnlockConfirm, MessageResultSchema, { body });
}

export function staffLogOut() {
  return apiPost(apiPaths.staffLogout, z.object({ status: z.literal('SUCCESS') }), { body: {} });
}

export function rememberStaff(queryClient: QueryClient, staff: StaffUser): void {
  queryClient.setQueryData<StaffMe>(staffKeys.me, { authenticated: true, staff });
}

/** Logged out (by choice, when idle, or by the server): nothing of the console stays cached. */
export function forgetStaff(queryClient: QueryClient): void {
  queryClient.setQueryData<StaffMe>(staffKeys.me, { authenticated: false, staff: null });
  queryClient.removeQueries({
    queryKey: staffKeys.all,
    predicate: (query) => query.queryKey[1] !== staffKeys.me[1],
  });
}

// --- Operations ----------------------------------------------------------------------------------

export function useStaffOrders(filters: OrderFilters) {
  return useQuery({
    queryKey: staffKeys.orders(filters),
    queryFn: ({ signal }) =>
      apiPost(apiPaths.staffOrders, v1Success(StaffOrderListSchema), {
        body: {
          ...(filters.status ? { status: filters.status } : {}),
          ...(filters.query ? { query: filters.query } : {}),
        },
        signal,
      }).then((response) => response.data.orders),
    // A new filter keeps the last rows on screen until the new ones arrive.
    placeholderData: (previous) => previous,
    staleTime: 15_000,
  });
}

export function useStaffOrder(id: number, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: staffKeys.order(id),
    queryFn: ({ signal }) =>
      apiPost(apiPaths.staffOrder, StaffOrderResultSchema, {
        body: { order_id: id },
        signal,
      }).then((response) => response.data.order),
    enabled: (options.enabled ?? true) && Number.isInteger(id) && id > 0,
    staleTime: 15_000,
  });
}

export type OrderAction =
  | { action: 'ship'; tracking_number: string }
  | { action: 'deliver' }
  | { action: 'refund'; amount_cents: number }
  | { action: 'cancel' };

const actionPaths = {
  ship: apiPaths.staffShip,
  deliver: apiPaths.staffDeliver,
  refund: apiPaths.staffRefund,
  cancel: apiPaths.staffCancel,
} as const;

/** Ship, deliver, refund or cancel; the answer carries the order as it is now. */
export async function changeOrder(
  orderId: number,
  change: OrderAction,
): Promise<{ order: StaffOrderDetail; message: string }> {
  const { action, ...fields } = change;
  const response = await apiPost(actionPaths[action], StaffOrderResultSchema, {
    body: { order_id: orderId, ...fields },
  });
  return { order: response.data.order, message: response.message };
}

/** The changed order shows at once; the lists reload in the background. */
export function storeOrder(queryClient: QueryClient, order: StaffOrderDetail): void {
  queryClient.setQueryData(staffKeys.order(order.orders_id), order);
  void queryClient.invalidateQueries({ queryKey: staffKeys.ordersAll });
}

// --- Providers -----------------------------------------------------------------------------------

export const providerKeys = {
  queue: ['/staff', 'visits'] as const,
  chart: (id: number) => ['/staff', 'visit', id] as const,
  thread: (id: number) => ['/staff', 'visit-thread', id] as const,
};

/** The visits waiting for this provider, oldest first. */
export function useReviewQueue(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: providerKeys.queue,
    queryFn: ({ signal }) =>
      apiPost(apiPaths.staffVisits, v1Success(ReviewQueueSchema), { body: {}, signal }).then(
        (response) => response.data.visits,
      ),
    enabled: options.enabled ?? true,
    staleTime: 15_000,
  });
}

export function useChart(id: number, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: providerKeys.chart(id),
    queryFn: ({ signal }) =>
      apiPost(apiPaths.staffVisit, ReviewResultSchema, { body: { visit_id: id }, signal }).then(
        (response) => response.data.chart,
      ),
    enabled: (options.enabled ?? true) && Number.isInteger(id) && id > 0,
    staleTime: 15_000,
  });
}

export function useVisitThread(id: number, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: providerKeys.thread(id),
    queryFn: ({ signal }) =>
      apiPost(apiPaths.staffMessages, StaffThreadResponseSchema, {
        body: { visit_id: id },
        signal,
      }).then((response) => response.data.thread),
    enabled: (options.enabled ?? true) && Number.isInteger(id) && id > 0,
    // The patient may answer while the chart is open.
    refetchInterval: 15_000,
    refetchIntervalInBackground: false,
  });
}

export async function sendVisitMessage(visitId: number, body: string) {
  const response = await apiPost(apiPaths.staffMessageSend, SentResponseSchema, {
    body: { visit_id: visitId, body },
  });
  return response.data.message;
}

export type Prescription = z.infer<typeof PrescriptionSchema>;

export type VisitDecision =
  { decision: 'approve'; prescription: Prescription } | { decision: 'decline'; reason: string };

/** Approve with a prescription or decline with a reason; the answer carries the chart as it is now. */
export async function decideVisit(
  visitId: number,
  decision: VisitDecision,
): Promise<{ chart: Chart; message: string }> {
  const response =
    decision.decision === 'approve'
      ? await apiPost(apiPaths.staffApprove, ReviewResultSchema, {
          body: { visit_id: visitId, prescription: decision.prescription },
        })
      : await apiPost(apiPaths.staffDecline, ReviewResultSchema, {
          body: { visit_id: visitId, reason: decision.reason },
        });
  return { chart: response.data.chart, message: response.message };
}

export function storeChart(queryClient: QueryClient, chart: Chart): void {
  queryClient.setQueryData(providerKeys.chart(chart.visit_id), chart);
  void queryClient.invalidateQueries({ queryKey: providerKeys.queue });
}

// --- The care team's inbox (operations) ----------------------------------------------------------

export const inboxKeys = {
  list: ['/staff', 'inbox'] as const,
  thread: (id: number) => ['/staff', 'inbox', id] as const,
};

/** Patient threads not about a visit: waiting ones first. New ones appear without a reload. */
export function useCareInbox(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: inboxKeys.list,
    queryFn: ({ signal }) =>
      apiPost(apiPaths.staffInbox, CareInboxResponseSchema, { body: {}, signal }).then(
        (response) => response.data.threads,
      ),
    enabled: options.enabled ?? true,
    refetchInterval: 30_000,
    refetchIntervalInBackground: false,
  });
}

export function useCareThread(id: number, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: inboxKeys.thread(id),
    queryFn: ({ signal }) =>
      apiPost(apiPaths.staffInboxThread, CareThreadResponseSchema, {
        body: { thread_id: id },
        signal,
      }).then((response) => response.data),
    enabled: (options.enabled ?? true) && Number.isInteger(id) && id > 0,
    // The patient may write again while the thread is open.
    refetchInterval: 15_000,
    refetchIntervalInBackground: false,
  });
}

export async function replyInThread(threadId: number, body: string) {
  const response = await apiPost(apiPaths.staffInboxReply, SentResponseSchema, {
    body: { thread_id: threadId, body },
  });
  return response.data.message;
}
