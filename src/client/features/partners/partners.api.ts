import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { BodyOf } from '#shared/contract.ts';
import { partnersApi, sharingItemText } from '#shared/partners.ts';
import { togetherApi } from '#shared/partners-together.ts';
import { showToast } from '#client/components/ui/toast.tsx';
import { call, callWithMessage, errorText } from '#client/lib/api.ts';

/**
 * Partner data is keyed by leads id, like all member data, and never kept fresh for long: what a
 * partner shares can end at any moment, so each page visit asks again (staleTime 0, the default).
 */
export const partnerKeys = {
  all: (leadsId: string) => ['/partners', leadsId] as const,
  overview: (leadsId: string, inviteToken: string | null) =>
    ['/partners', leadsId, 'overview', inviteToken] as const,
  shared: (leadsId: string) => ['/partners', leadsId, 'shared'] as const,
};

/** The partner page and Home's card: link, invitations, what each shares, the history. */
export function usePartnerOverview(leadsId: string, inviteToken: string | null = null) {
  return useQuery({
    queryKey: partnerKeys.overview(leadsId, inviteToken),
    queryFn: ({ signal }) =>
      call(partnersApi.overview, {
        body: inviteToken ? { invite_token: inviteToken } : {},
        signal,
      }),
  });
}

/** What the linked partner shares with this customer, and nothing else. */
export function usePartnerShared(leadsId: string, enabled: boolean) {
  return useQuery({
    queryKey: partnerKeys.shared(leadsId),
    queryFn: ({ signal }) => call(partnersApi.shared, { body: {}, signal }),
    enabled,
  });
}

/** After any change: the page, Home's card and the shared items all ask again. */
export function refreshPartners(queryClient: QueryClient, leadsId: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: partnerKeys.all(leadsId) });
}

/**
 * A write to the link, its invitations, sharing or gifts. Whatever the outcome, the page, Home's
 * card and the shared items ask again: a refusal usually means the partner changed something
 * meanwhile, so the page shows it as it is now. The toast says what the server said; a refusal
 * is the error toast unless the caller places it itself (`toastErrors: false`, a form's fields).
 */
function usePartnerMutation<V, R>(
  leadsId: string,
  mutationFn: (variables: V) => Promise<R>,
  said: (result: R, variables: V) => { title: string; description?: string } | null,
  { toastErrors = true }: { toastErrors?: boolean } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async (result, variables) => {
      const toast = said(result, variables);
      if (toast) showToast({ kind: 'success', ...toast });
      await refreshPartners(queryClient, leadsId);
    },
    onError: async (error) => {
      if (toastErrors) showToast({ kind: 'error', title: errorText(error) });
      await refreshPartners(queryClient, leadsId);
    },
  });
}

/** Invites a partner by email; the form places a refusal on its field (`applyApiError`). */
export const useInvitePartner = (leadsId: string) =>
  usePartnerMutation(
    leadsId,
    (body: BodyOf<typeof partnersApi.invite>) => call(partnersApi.invite, { body }),
    ({ message }) => ({ title: message }),
    { toastErrors: false },
  );

export const useWithdrawInvitation = (leadsId: string) =>
  usePartnerMutation(
    leadsId,
    (body: BodyOf<typeof partnersApi.withdraw>) => call(partnersApi.withdraw, { body }),
    ({ message }) => ({ title: message }),
  );

/** Accepts or declines an invitation (by its id, and the emailed link's token when opened from it). */
export const useAnswerInvitation = (leadsId: string) =>
  usePartnerMutation(
    leadsId,
    ({ accept, ...body }: BodyOf<typeof partnersApi.accept> & { accept: boolean }) =>
      accept ? call(partnersApi.accept, { body }) : call(partnersApi.decline, { body }),
    ({ message }, { accept }) => ({ title: accept ? 'Linked' : 'Declined', description: message }),
  );

/** Unlinks; the dialog shows a refusal itself, beside the choice the customer made. */
export const useUnlinkPartner = (leadsId: string) =>
  usePartnerMutation(
    leadsId,
    (body: BodyOf<typeof partnersApi.unlink>) => call(partnersApi.unlink, { body }),
    ({ message }) => ({ title: 'Unlinked', description: message }),
    { toastErrors: false },
  );

/** Turns one item of what is shared with the partner on or off. */
export const useChangeSharing = (leadsId: string, partnerName: string) =>
  usePartnerMutation(
    leadsId,
    (body: BodyOf<typeof partnersApi.sharing>) => call(partnersApi.sharing, { body }),
    (_, { item, shared }) => ({
      title: shared ? `Now sharing with ${partnerName}` : `No longer shared with ${partnerName}`,
      description: sharingItemText[item].label,
    }),
  );

export const useSendVisitInvitation = (leadsId: string) =>
  usePartnerMutation(
    leadsId,
    (body: BodyOf<typeof partnersApi.visitInvite>) => call(partnersApi.visitInvite, { body }),
    ({ message }) => ({ title: message }),
  );

/** Puts a visit invitation away: the invitation leaving the list says it. */
export const useDismissVisitInvitation = (leadsId: string) =>
  usePartnerMutation(
    leadsId,
    (body: BodyOf<typeof partnersApi.visitInviteDismiss>) =>
      call(partnersApi.visitInviteDismiss, { body }),
    () => null,
  );

// --- Gifts and couples' plans (decision 018) ----------------------------------------------------

export const togetherKey = (leadsId: string) => ['/partners', leadsId, 'together'] as const;

/** Gifts and the couples' plan with the partner, the caller's card and addresses. */
export function useTogether(leadsId: string, enabled = true) {
  return useQuery({
    queryKey: togetherKey(leadsId),
    queryFn: ({ signal }) => call(togetherApi.overview, { body: {}, signal }),
    enabled,
  });
}

/*
 * Each toast is the server's message: the declared one for a call that always says the same
 * (`togetherApi.give.message`), the answer's own for a call that words it at run time (accepting
 * says whether the first payment went through; a change says the new date).
 */

export const useGiveGift = (leadsId: string) =>
  usePartnerMutation(
    leadsId,
    (body: BodyOf<typeof togetherApi.give>) => call(togetherApi.give, { body }),
    () => ({ title: togetherApi.give.message }),
  );

export const useStartPlan = (leadsId: string) =>
  usePartnerMutation(
    leadsId,
    (body: BodyOf<typeof togetherApi.startPlan>) => call(togetherApi.startPlan, { body }),
    () => ({ title: togetherApi.startPlan.message }),
  );

export const useAcceptTogether = (leadsId: string) =>
  usePartnerMutation(
    leadsId,
    (body: BodyOf<typeof togetherApi.accept>) => callWithMessage(togetherApi.accept, { body }),
    ({ message }) => ({ title: message }),
  );

export const useDeclineTogether = (leadsId: string) =>
  usePartnerMutation(
    leadsId,
    (body: BodyOf<typeof togetherApi.decline>) => call(togetherApi.decline, { body }),
    ({ message }) => ({ title: message }),
  );

/** Withdraws a waiting gift or plan, or ends a running one. */
export const useCancelTogether = (leadsId: string) =>
  usePartnerMutation(
    leadsId,
    (body: BodyOf<typeof togetherApi.cancel>) => call(togetherApi.cancel, { body }),
    ({ message }) => ({ title: message }),
  );

/** Skips, moves, pauses or resumes a gift's or plan's deliveries. */
export const useChangeTogether = (leadsId: string) =>
  usePartnerMutation(
    leadsId,
    (body: BodyOf<typeof togetherApi.change>) => callWithMessage(togetherApi.change, { body }),
    ({ message }) => ({ title: message }),
  );

/** A gift's recipient chooses which of their addresses it ships to. */
export const useChangeShipTo = (leadsId: string) =>
  usePartnerMutation(
    leadsId,
    (body: BodyOf<typeof togetherApi.address>) => call(togetherApi.address, { body }),
    () => ({ title: togetherApi.address.message }),
  );
