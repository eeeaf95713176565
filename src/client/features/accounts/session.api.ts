import { useQuery, type QueryClient } from '@tanstack/react-query';
import { apiPaths, v1Success } from '#shared/api.ts';
import {
  VerifyAuthResultSchema,
  type SessionUser,
  type VerifyAuthResult,
} from '#shared/session.ts';
import { ApiError, apiPost } from '#client/lib/api.ts';
import { setLeadsId, setLoggedIn } from '#client/lib/app-state.ts';

/*
 * Whether this browser's session is logged in. Apart from accounts.api.ts because the route
 * guards and the cart need it on every storefront page, and the account calls' schemas do not
 * belong in a first visit's download.
 */

/** The query-cache key of the server's answer. */
export const verifyKey = ['/account/verifyauthentication'] as const;

/** The server's word on whether this browser's session is logged in (the source of truth). */
export function useVerifyAuth(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: verifyKey,
    queryFn: ({ signal }) =>
      apiPost(apiPaths.verifyAuthentication, v1Success(VerifyAuthResultSchema), {
        body: {},
        signal,
      }).then((response) => response.data),
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

export function isUnauthenticated(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401 && error.code === 'UNAUTHENTICATED';
}
