import { useMutation, useQuery, type QueryClient } from '@tanstack/react-query';
import { accountsApi, emailVerifyText } from '#shared/accounts.ts';
import { cacheKeys } from '#shared/constants.ts';
import type { BodyOf } from '#shared/contract.ts';
import { messages } from '#shared/wording.ts';
import { showToast } from '#client/components/ui/toast.tsx';
import { call, errorText } from '#client/lib/api.ts';

/** Query-cache keys. Member data is keyed by leads id so one customer never sees another's. */
export const accountKeys = {
  basics: (leadsId: string) => ['/account/basics', leadsId] as const,
  patientData: (leadsId: string) => [cacheKeys.patientData, leadsId] as const,
  accountData: (leadsId: string) => [cacheKeys.accountData, leadsId] as const,
};

/** Sign-up: the account and its first session (spec §4 Signup). */
export const signUp = (body: BodyOf<typeof accountsApi.accountCreate>) =>
  call(accountsApi.accountCreate, { body });

/** The link sent to the old address after an email change: puts that address back. */
export async function restoreEmail(body: BodyOf<typeof accountsApi.emailRestore>) {
  await call(accountsApi.emailRestore, { body });
  return { message: accountsApi.emailRestore.message };
}

/** The link that proves an address (issue 26); for an email change it also moves the account. */
export async function verifyEmail(body: BodyOf<typeof accountsApi.emailVerify>) {
  const result = await call(accountsApi.emailVerify, { body });
  return {
    message: result.changed ? emailVerifyText.changed(result.email) : emailVerifyText.confirmed,
  };
}

/** "Send the link again" to the account's address. */
/** Emails the confirmation link again; the server limits how often, and its refusal is the toast. */
export function useSendEmailVerification() {
  return useMutation({
    mutationFn: () => call(accountsApi.emailVerifySend, { body: {} }),
    onSuccess: (result) =>
      showToast({
        kind: 'success',
        title: result.email_verified
          ? emailVerifyText.confirmed
          : emailVerifyText.sent(result.sent_to),
      }),
    onError: (error) => showToast({ kind: 'error', title: errorText(error) }),
  });
}

// --- Member data ---------------------------------------------------------------------------------

/** Spec §7 `/account/basics`: names, customer number, cart count and flags for the account frame. */
export function useBasics(leadsId: string) {
  return useQuery({
    queryKey: accountKeys.basics(leadsId),
    queryFn: ({ signal }) => call(accountsApi.basics, { body: {}, signal }),
  });
}

/** Spec §7 "Fetch patient data": the data is in `message` (cache key /leads/patientdata). */
export function usePatientData(leadsId: string) {
  return useQuery({
    queryKey: accountKeys.patientData(leadsId),
    queryFn: ({ signal }) =>
      call(accountsApi.patientData, {
        body: { leads_id: leadsId },
        signal,
        fallbackMessage: messages.patientDataMissing,
      }),
  });
}

/** Spec §7 "Fetch account data" (cache key /account/data). */
export function useAccountData(leadsId: string) {
  return useQuery({
    queryKey: accountKeys.accountData(leadsId),
    queryFn: ({ signal }) => call(accountsApi.accountData, { body: { leads_id: leadsId }, signal }),
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

export const updateAccount = (body: BodyOf<typeof accountsApi.accountUpdate>) =>
  call(accountsApi.accountUpdate, { body });

export const saveAddress = (body: BodyOf<typeof accountsApi.address>) =>
  call(accountsApi.address, { body, fallbackMessage: messages.addressFailed });

/**
 * Card data goes straight from the form to this one call: never into the query or mutation cache,
 * a log, an analytics event or an error report.
 */
/** The saved card, and what became of each failed payment charged again to it at once. */
export async function updateCard(body: BodyOf<typeof accountsApi.ccUpdate>) {
  return call(accountsApi.ccUpdate, { body });
}

/** "Confirm your payment": a renewal the bank wants the customer to confirm, asked again. */
export async function confirmPayment(orderNumber: string) {
  return call(accountsApi.paymentConfirm, { body: { order_number: orderNumber } });
}

/** Stripe mode: the card typed in Stripe's Payment Element, as the payment method it made. */
export async function updatePaymentMethod(body: BodyOf<typeof accountsApi.paymentMethodUpdate>) {
  return call(accountsApi.paymentMethodUpdate, { body });
}

// --- Phone verification --------------------------------------------------------------------------

export const sendSmsCode = () => call(accountsApi.smsAuth, { body: { action: 'send' } });

export const verifySmsCode = (code: string) =>
  call(accountsApi.smsAuth, { body: { action: 'verify', code } });
