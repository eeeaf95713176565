import { useQuery } from '@tanstack/react-query';
import { authApi } from '#shared/auth.ts';
import type { BodyOf } from '#shared/contract.ts';
import { call } from '#client/lib/api.ts';

/*
 * The log-in, password and device calls. Whether this browser is logged in is session.api.ts:
 * every page needs that, and these calls' schemas do not belong in a first visit's download.
 */

/** Query-cache keys. */
export const authKeys = {
  sessions: ['/account/sessions'] as const,
};

export const logIn = (body: BodyOf<typeof authApi.login>) => call(authApi.login, { body });

export const logOut = () => call(authApi.logout, { body: {} });

// --- Passwords -----------------------------------------------------------------------------------

export const requestPasswordReset = (body: BodyOf<typeof authApi.reset>) =>
  call(authApi.reset, { body });

/** Whether a reset link can still be used; asking does not spend it. */
export const checkResetLink = (token: string, signal?: AbortSignal) =>
  call(authApi.passwordResetCheck, { body: { token }, ...(signal ? { signal } : {}) });

export const updatePassword = (body: BodyOf<typeof authApi.passwordUpdate>) =>
  call(authApi.passwordUpdate, { body });

export const changePassword = (body: BodyOf<typeof authApi.changePassword>) =>
  call(authApi.changePassword, { body });

// --- Log-in protection (decision 004) ------------------------------------------------------------

/** While an account's log-ins are paused: email a link that lets this device log in. */
export const requestLoginUnlock = (body: BodyOf<typeof authApi.loginUnlock>) =>
  call(authApi.loginUnlock, { body });

/** The link from that email, opened on the device that should log in. */
export const confirmLoginUnlock = (body: BodyOf<typeof authApi.loginUnlockConfirm>) =>
  call(authApi.loginUnlockConfirm, { body });

// --- Signed-in devices ---------------------------------------------------------------------------

export function useSessions() {
  return useQuery({
    queryKey: authKeys.sessions,
    queryFn: async ({ signal }) => (await call(authApi.sessions, { body: {}, signal })).sessions,
  });
}

export async function revokeOtherSessions(): Promise<number> {
  return (await call(authApi.sessionsRevoke, { body: {} })).ended;
}

/** Logs one other device out, by the id the list gave it. */
export async function endSession(id: string): Promise<void> {
  await call(authApi.sessionEnd, { body: { id } });
}
