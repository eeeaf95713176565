import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import {
  Navigate,
  Outlet,
  useLocation,
  useOutletContext,
  useParams,
  type Params,
} from 'react-router';
import { LoadError } from '#client/components/ui/load-error.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { setLeadsId, setLoggedIn, useAppState, useLeadsId } from '#client/lib/app-state.ts';
import { paths } from '#shared/paths.ts';
import { forgetSession, isUnauthenticated, useVerifyAuth } from '../session.api.ts';
import {
  forgetReturnPath,
  partnerInviteOf,
  partnerInvitePath,
  readReturnPath,
  rememberReturnPath,
} from '../return-path.ts';

/** Sends the visitor to /login, remembering where they were going (spec §2, §4 Access gating). */
function RedirectToLogin({ from }: { from: string }) {
  useEffect(() => rememberReturnPath(from), [from]);
  return <Navigate to={paths.login} replace state={{ from }} />;
}

/** Keeps the browser's login hint and leads id in step with what the server said. */
function useSyncSession(user: { leads_id: string } | null, known: boolean, leadsId: string | null) {
  useEffect(() => {
    if (user) {
      setLoggedIn(true);
      if (user.leads_id !== leadsId) setLeadsId(user.leads_id);
    } else if (known) {
      setLoggedIn(false);
    }
  }, [user, known, leadsId]);
}

interface RequireAuthProps {
  /**
   * Where a visitor goes instead of /login, from the route's parameters: an online visit's screens
   * send them to the visit's start, which asks for the account inside the visit.
   */
  visitorTo?: (params: Readonly<Params>) => string;
}

/**
 * Protected pages render only when the browser has a leads id and the server says the session is
 * authenticated; otherwise the visitor goes to /login and comes back here after logging in (or to
 * `visitorTo`). The frame around passes its outlet context through to the page.
 */
export function RequireAuth({ visitorTo }: RequireAuthProps = {}) {
  const leadsId = useLeadsId();
  const location = useLocation();
  const params = useParams();
  const context: unknown = useOutletContext();
  const queryClient = useQueryClient();
  // Without a leads id nothing is asked; a session this tab has just confirmed is still used.
  const verify = useVerifyAuth({ enabled: leadsId !== null });
  const user = verify.data?.authenticated ? verify.data.user : null;
  useSyncSession(user, verify.data !== undefined, leadsId);

  // A member call answered 401 (the session expired or ended elsewhere): log out here too.
  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        if (
          event.type === 'updated' &&
          event.action.type === 'error' &&
          isUnauthenticated(event.action.error)
        )
          forgetSession(queryClient);
      }),
    [queryClient],
  );

  const ready = user !== null && user.leads_id === leadsId;
  useEffect(() => {
    if (ready) forgetReturnPath();
  }, [ready]);

  const from = `${location.pathname}${location.search}${location.hash}`;
  if (!user && (leadsId === null || verify.data?.authenticated === false)) {
    if (visitorTo) return <Navigate to={visitorTo(params)} replace />;
    return <RedirectToLogin from={from} />;
  }
  if (verify.isError && !user) {
    return (
      <div className="container-page py-12">
        <LoadError message={verify.error.message} onRetry={() => void verify.refetch()} />
      </div>
    );
  }
  if (!ready) return <Spinner block label="Checking your session…" />;
  return <Outlet context={context} />;
}

/**
 * /login, /signup and /reset-password: a logged-in customer is sent on, to where they were going
 * or to /dashboard (spec §4). Logged-out visitors see the form at once; it does not wait for the
 * server unless this browser last knew itself as logged in.
 */
export function PublicOnlyRoute() {
  const location = useLocation();
  const leadsId = useLeadsId();
  const hintedLoggedIn = useAppState((state) => state.login.isLoggedIn);
  const verify = useVerifyAuth();
  const user = verify.data?.authenticated ? verify.data.user : null;
  useSyncSession(user, verify.data !== undefined, leadsId);

  if (user) {
    // Issue 16: someone already logged in who follows a partner's invitation to sign-up goes
    // straight to the partner page with its token, to accept it there.
    const invite =
      location.pathname === paths.signup
        ? partnerInviteOf(new URLSearchParams(location.search))
        : null;
    const to = invite ? partnerInvitePath(invite) : readReturnPath(location.state);
    return <Navigate to={to} replace />;
  }
  if (verify.isPending && hintedLoggedIn) return <Spinner block label="Checking your session…" />;
  return <Outlet />;
}
