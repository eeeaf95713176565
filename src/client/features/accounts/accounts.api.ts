import { useQuery, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiPaths, v1Success } from '#shared/api.ts';
import {
  AccountDataSchema,
  BasicsSchema,
  CardUpdateResultSchema,
  EmailRestoreResultSchema,
  LoginResultSchema,
  PatientDataResponseSchema,
  RevokeSessionsResultSchema,
  SessionListSchema,
  SmsAuthResultSchema,
  type AccountUpdate,
  type AddressPayload,
  type CardPayload,
  type Login,
  type Signup,
} from '#shared/accounts.ts';
import { cacheKeys } from '#shared/constants.ts';
import { messages } from '#shared/messages.ts';
import { apiPost } from '#client/lib/api.ts';

/**
 * The v1 answer that carries only a message (`{ status: 'SUCCESS', message }`): logout, reset,
 * password update, account update, address, change password.
 */
const MessageResultSchema = z.object({ status: z.literal('SUCCESS'), message: z.string() });

/** Query-cache keys. Member data is keyed by leads id so one customer never sees another's. */
export const accountKeys = {
  basics: (leadsId: string) => ['/account/basics', leadsId] as const,
  patientData: (leadsId: string) => [cacheKeys.patientData, leadsId] as const,
  accountData: (leadsId: string) => [cacheKeys.accountData, leadsId] as const,
  sessions: ['/account/sessions'] as const,
};

// --- Log-in, sign-up, log-out (whether the session is logged in: session.api.ts) -----------------

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

// --- Log-in protection and undoing an e-mail change (decision 004) ------------------------------

/** While an account's log-ins are paused: e-mail a link that lets this device log in. */
export function requestLoginUnlock(body: { email: string }) {
  return apiPost(apiPaths.loginUnlock, MessageResultSchema, { body });
}

/** The link from that e-mail, opened on the device that should log in. */
export function confirmLoginUnlock(body: { token: string }) {
  return apiPost(apiPaths.loginUnlockConfirm, MessageResultSchema, { body });
}

/** The link sent to the old address after an e-mail change: puts that address back. */
export async function restoreEmail(body: { token: string }) {
  return apiPost(apiPaths.emailRestore, v1Success(EmailRestoreResultSchema), { body });
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
