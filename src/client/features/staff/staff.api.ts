import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { DataOf } from '#shared/contract.ts';
import { staffApi, type StaffLogin, type StaffUser } from '#shared/staff.ts';
import { showToast } from '#client/components/ui/toast.tsx';
import { call, failedWithCode, type ApiError } from '#client/lib/api.ts';
import { reportError } from '#client/lib/error-reporting.ts';

/*
 * The console's frame: who is logged in, log-in, the emailed unlock and log-out. The provider's
 * and operations' calls are in their features (reviews, operations, outbox), under the same
 * `/staff` cache key so that logging out forgets them all.
 */

type StaffMe = DataOf<typeof staffApi.me>;

/** The console's cache keys, apart from the customer's (`/staff/…`). */
export const staffKeys = {
  all: ['/staff'] as const,
  me: ['/staff', 'me'] as const,
};

/** What every call with `staff`, `provider` or `operations` access answers once the session ended. */

/**
 * Whether a console call failed because the staff session ended (15 idle minutes on the server, or
 * logged out elsewhere). Not `failedWith`: this is asked of every console call alike (the query
 * cache's errors), not of one endpoint.
 */
export function isStaffUnauthenticated(error: unknown): error is ApiError {
  return failedWithCode(error, 'STAFF_UNAUTHENTICATED');
}

/** Who is logged in to the console, if anyone: the guard's source of truth. */
export function useStaffMe() {
  return useQuery({
    queryKey: staffKeys.me,
    queryFn: ({ signal }) => call(staffApi.me, { body: {}, signal }),
    staleTime: 60_000,
  });
}

export async function staffLogIn(body: StaffLogin): Promise<StaffUser> {
  return (await call(staffApi.login, { body })).staff;
}

/** While a staff account's log-ins are paused: email a link that lets this device log in. */
export function requestStaffUnlock(body: { email: string }) {
  return call(staffApi.unlock, { body });
}

/** The link from that email, opened on the device that should log in. */
export function confirmStaffUnlock(body: { token: string }) {
  return call(staffApi.unlockConfirm, { body });
}

/**
 * Logs out, by choice or after 15 idle minutes. Whatever the server answers, nothing of the
 * console stays cached and the toast says why: a session that had already ended is the same
 * outcome, not a failure. `loggingOut` runs first, so the frame knows the end was its own.
 */
export function useStaffLogOut(loggingOut: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (_reason: 'chosen' | 'idle') => call(staffApi.logout, { body: {} }),
    onSettled: (_data, error, reason) => {
      if (error && !isStaffUnauthenticated(error)) reportError(error, 'warning', 'staff-logout');
      loggingOut();
      forgetStaff(queryClient);
      showToast(
        reason === 'idle'
          ? {
              kind: 'info',
              title: 'Logged out after 15 minutes without activity',
              description: 'Log in again to pick up where you left off.',
            }
          : { kind: 'success', title: 'You are logged out' },
      );
    },
  });
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
