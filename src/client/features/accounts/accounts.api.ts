import { useQuery, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiPaths, v1Success } from '#shared/api.ts';
import {
  AccountDataSchema,
  BasicsSchema,
  CardUpdateResultSchema,
  LoginResultSchema,
  PatientDataResponseSchema,
  RevokeSessionsResultSchema,
  SessionListSchema,
  SmsAuthResultSchema,
  VerifyAuthResultSchema,
  type AccountUpdate,
  type AddressPayload,
  type CardPayload,
  type Login,
  type SessionUser,
  type Signup,
} from '#shared/accounts.ts';
import { cacheKeys } from '#shared/constants.ts';
import { messages } from '#shared/messages.ts';
import { ApiError, apiPost } from '#client/lib/api.ts';
import { setLeadsId, setLoggedIn } from '#client/lib/app-state.ts';

/**
 * The v1 answer that carries only a message (`{ status: 'SUCCESS', message }`): logout, reset,
 * password update, account update, address, change password.
 */
const MessageResultSchema = z.object({ status: z.literal('SUCCESS'), message: z.string() });

type VerifyAuthResult = z.infer<typeof VerifyAuthResultSchema>;

/** Query-cache keys. Member data is keyed by leads id so one customer never sees another's. */
export const accountKeys = {
  verify: ['/account/verifyauthentication'] as const,
  basics: (leadsId: string) => ['/account/basics', leadsId] as const,
  patientData: (leadsId: string) => [cacheKeys.patientData, leadsId] as const,
  accountData: (leadsId: string) => [cacheKeys.accountData, leadsId] as const,
  sessions: ['/account/sessions'] as const,
};

// --- Session -------------------------------------------------------------------------------------

/** The server's word on whether this browser's session is logged in (the source of truth). */
export function useVerifyAuth(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: accountKeys.verify,
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
  queryClient.setQueryData<VerifyAuthResult>(accountKeys.verify, { authenticated: true, user });
}

/** The session ended on the server (expired, logged out elsewhere): back to logged out. */
export function forgetSession(queryClient: QueryClient): void {
  setLoggedIn(false);
  queryClient.setQueryData<VerifyAuthResult>(accountKeys.verify, {
    authenticated: false,
    user: null,
  });
}

export function isUnauthenticated(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401 && error.code === 'UNAUTHENTICATED';
}

export async function logIn(body: Login) {
  const response = await apiPost(apiPaths.login, v1Success(LoginResultSchema), { body });
  return response.data;
}

export async function signUp(body: Signup) {
  const response = await apiPost(apiPaths.accountCreate, v1Success(LoginResultSchema), { body });
  return response.data;
}

export function logOut() {
  return apiPost(apiPaths.logout, MessageResultSchema, { body: {} });
}

// --- Passwords -----------------------------------------------------------------------------------

export function requestPasswordReset(body: { email: string; clicks_id?: string }) {
  return apiPost(apiPaths.reset, MessageResultSchema, { body });
}

export function updatePassword(body: { token: string; password: string }) {
  return apiPost(apiPaths.passwordUpdate, MessageResultSchema, { body });
}

export function changePassword(body: { current_password: string; password: string }) {
  return apiPost(apiPaths.changePassword, MessageResultSchema, { body });
}

// --- Member data ---------------------------------------------------------------------------------

/** Spec §7 `/account/basics`: names, customer number, cart count and flags for the account frame. */
export function useBasics(leadsId: string) {
  return useQuery({
    queryKey: accountKeys.basics(leadsId),
    queryFn: ({ signal }) =>
      apiPost(apiPaths.basics, v1Success(BasicsSchema), { body: {}, signal }).then(
        (response) => response.data,
      ),
  });
}

/** Spec §7 "Fetch patient data": the data is in `message` (cache key /leads/patientdata). */
export function usePatientData(leadsId: string) {
  return useQuery({
    queryKey: accountKeys.patientData(leadsId),
    queryFn: ({ signal }) =>
      apiPost(apiPaths.patientData, PatientDataResponseSchema, {
        body: { leads_id: leadsId },
        signal,
        fallbackMessage: messages.patientDataMissing,
      }).then((response) => response.message),
  });
}

/** Spec §7 "Fetch account data" (cache key /account/data). */
export function useAccountData(leadsId: string) {
  return useQuery({
    queryKey: accountKeys.accountData(leadsId),
    queryFn: ({ signal }) =>
      apiPost(apiPaths.accountData, v1Success(AccountDataSchema), {
        body: { leads_id: leadsId },
        signal,
      }).then((response) => response.data),
  });
}

/** After a change to the account: everything that shows names, flags or the card reloads. */
export function refreshMemberData(queryClient: QueryClient, leadsId: string): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: accountKeys.accountData(leadsId) }),
    queryClient.invalidateQueries({ queryKey: accountKeys.basics(leadsId) }),
    queryClient.invalidateQueries({ queryKey: accountKeys.patientData(leadsId) }),
  ]);
}

export function updateAccount(body: AccountUpdate) {
  return apiPost(apiPaths.accountUpdate, MessageResultSchema, { body });
}

export function saveAddress(body: AddressPayload) {
  return apiPost(apiPaths.address, MessageResultSchema, {
    body,
    fallbackMessage: messages.addressFailed,
  });
}

/**
 * Card data goes straight from the form to this one call: never into the query or mutation cache,
 * a log, an analytics event or an error report.
 */
export async function updateCard(body: CardPayload) {
  const response = await apiPost(apiPaths.ccUpdate, v1Success(CardUpdateResultSchema), { body });
  return response.data.card;
}

// --- Phone verification and devices --------------------------------------------------------------

export async function sendSmsCode() {
  const response = await apiPost(apiPaths.smsAuth, v1Success(SmsAuthResultSchema), {
    body: { action: 'send' },
  });
  return response.data;
}

export async function verifySmsCode(code: string) {
  const response = await apiPost(apiPaths.smsAuth, v1Success(SmsAuthResultSchema), {
    body: { action: 'verify', code },
  });
  return response.data;
}

export function useSessions() {
  return useQuery({
    queryKey: accountKeys.sessions,
    queryFn: ({ signal }) =>
      apiPost(apiPaths.sessions, v1Success(SessionListSchema), { body: {}, signal }).then(
        (response) => response.data.sessions,
      ),
  });
}

export async function revokeOtherSessions() {
  const response = await apiPost(apiPaths.sessionsRevoke, v1Success(RevokeSessionsResultSchema), {
    body: {},
  });
  return response.data.ended;
}
