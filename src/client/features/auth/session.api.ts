import { useQuery, type QueryClient } from '@tanstack/react-query';
import { sessionApi, type SessionUser, type VerifyAuthResult } from '#shared/session.ts';
import { call, failedWithCode, type ApiError } from '#client/lib/api.ts';
import { setLeadsId, setLoggedIn } from '#client/lib/app-state.ts';

/*
 * Whether this browser's session is logged in. Apart from auth.api.ts because the route guards
 * and the cart need it on every storefront page, and the log-in calls' schemas do not belong in a
 * first visit's download.
 */

/** The query-cache key of the server's answer. */
export const verifyKey = ['/account/verifyauthentication'] as const;

/** The server's word on whether this browser's session is logged in (the source of truth). */
export function useVerifyAuth(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: verifyKey,
    queryFn: ({ signal }) => call(sessionApi.verifyAuthentication, { body: {}, signal }),
    enabled: options.enabled ?? true,
    staleTime: 60_000,
  });
}

/** After log-in or sign-up: the browser keeps the leads id and the login state (spec §4 Login). */
export function rememberSession(queryClient: QueryClient, user: SessionUser): void {
  setLeadsId(user.leads_id);
  setLoggedIn(true);
  queryClient.setQueryData<VerifyAuthResult>(verifyKey, { authenticated: true, user });
}

/** The session ended on the server (expired, logged out elsewhere): back to logged out. */
export function forgetSession(queryClient: QueryClient): void {
  setLoggedIn(false);
  queryClient.setQueryData<VerifyAuthResult>(verifyKey, { authenticated: false, user: null });
}

/** What every call with `customer` or `patient` access answers once the session has ended. */
/**
 * Whether any customer call failed because the session ended. Not `failedWith`: this is asked of
 * every member call alike (the query cache's errors, the cart, checkout), not of one endpoint.
 */
export function isUnauthenticated(error: unknown): error is ApiError {
  return failedWithCode(error, 'UNAUTHENTICATED');
}
