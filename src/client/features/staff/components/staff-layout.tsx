import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation, useOutletContext } from 'react-router';
import type { StaffUser } from '#shared/staff.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { showToast } from '#client/components/ui/toast.tsx';
import { paths } from '#shared/paths.ts';
import {
  forgetStaff,
  isStaffUnauthenticated,
  staffKeys,
  useStaffLogOut,
  useStaffMe,
} from '../staff.api.ts';
import { STAFF_IDLE_MS, useIdleTimeout } from '../use-idle-timeout.ts';
import { StaffFrame } from './staff-frame.tsx';

/** The logged-in staff member, for the console's pages. */
export function useStaff(): StaffUser {
  return useOutletContext<StaffUser>();
}

/** While someone is working, the server's idle clock is reset this often (it counts requests). */
const KEEP_ALIVE_MS = 5 * 60_000;

/** Where the log-in page sends the staff member back to. */
export interface StaffLoginState {
  from?: string;
}

/**
 * Every console page but the log-in: only with a staff session (the server's /staff/me says so),
 * otherwise to /staff/login and back here afterwards. Logs out after 15 minutes without activity
 * in the browser, and whenever the server answers 401 (its own 15 idle minutes, or a log-out
 * elsewhere).
 */
export function StaffLayout() {
  const me = useStaffMe();
  const location = useLocation();
  const queryClient = useQueryClient();
  const staff = me.data?.authenticated ? me.data.staff : null;
  const from = `${location.pathname}${location.search}`;

  // Any console call answering 401: the session is over (the guard then goes to the log-in).
  useEffect(() => {
    const ended = (error: unknown) => {
      if (isStaffUnauthenticated(error)) forgetStaff(queryClient);
    };
    const unsubscribeQueries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') ended(event.action.error);
    });
    const unsubscribeMutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') ended(event.action.error);
    });
    return () => {
      unsubscribeQueries();
      unsubscribeMutations();
    };
  }, [queryClient]);

  // A session that ends without this page logging out (a 401, or /staff/me saying so) is told.
  const hadStaff = useRef(false);
  const loggedOutHere = useRef(false);
  useEffect(() => {
    if (staff) {
      hadStaff.current = true;
      return;
    }
    if (hadStaff.current && !loggedOutHere.current)
      showToast({
        kind: 'info',
        title: 'Your staff session ended',
        description: 'Please log in again to continue.',
      });
    hadStaff.current = false;
  }, [staff]);

  // Logged out here, when idle, or by the server: the guard below sends the page to the log-in,
  // remembering it, so logging in again comes back to it.
  const logOut = useStaffLogOut(() => {
    loggedOutHere.current = true;
  });

  const lastPing = useRef(0);
  useEffect(() => {
    if (staff) lastPing.current = Date.now();
  }, [staff]);
  useIdleTimeout(
    STAFF_IDLE_MS,
    () => {
      if (staff && !logOut.isPending) logOut.mutate('idle');
    },
    () => {
      if (!staff || Date.now() - lastPing.current < KEEP_ALIVE_MS) return;
      lastPing.current = Date.now();
      void queryClient.invalidateQueries({ queryKey: staffKeys.me });
    },
    'pairwell-staff-activity',
  );

  // Until /staff/me has answered: its spinner, or its failure with Try again (no console yet).
  if (!me.isSuccess) {
    return (
      <StaffFrame>
        <QueryView query={me} loading="Checking your staff session…">
          {() => null}
        </QueryView>
      </StaffFrame>
    );
  }
  if (!staff) {
    return <Navigate to={paths.staffLogin} replace state={{ from } satisfies StaffLoginState} />;
  }
  return (
    <StaffFrame
      staff={staff}
      onLogOut={() => logOut.mutate('chosen')}
      loggingOut={logOut.isPending}
    >
      <Outlet context={staff} />
    </StaffFrame>
  );
}
