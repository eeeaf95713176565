import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { BodyOf } from '#shared/contract.ts';
import { partnersApi } from '#shared/partners.ts';
import { togetherApi } from '#shared/partners-together.ts';
import { call } from '#client/lib/api.ts';

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

export const invitePartner = (body: BodyOf<typeof partnersApi.invite>) =>
  call(partnersApi.invite, { body });
export const withdrawInvitation = (body: BodyOf<typeof partnersApi.withdraw>) =>
  call(partnersApi.withdraw, { body });
export const acceptInvitation = (body: BodyOf<typeof partnersApi.accept>) =>
  call(partnersApi.accept, { body });
export const declineInvitation = (body: BodyOf<typeof partnersApi.decline>) =>
  call(partnersApi.decline, { body });
export const unlinkPartner = (body: BodyOf<typeof partnersApi.unlink>) =>
  call(partnersApi.unlink, { body });
export const changeSharing = (body: BodyOf<typeof partnersApi.sharing>) =>
  call(partnersApi.sharing, { body });
export const sendVisitInvitation = (body: BodyOf<typeof partnersApi.visitInvite>) =>
  call(partnersApi.visitInvite, { body });
export const dismissVisitInvitation = (body: BodyOf<typeof partnersApi.visitInviteDismiss>) =>
  call(partnersApi.visitInviteDismiss, { body });

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

export const giveGift = (body: BodyOf<typeof togetherApi.give>) => call(togetherApi.give, { body });
export const startPlan = (body: BodyOf<typeof togetherApi.startPlan>) =>
  call(togetherApi.startPlan, { body });
export const acceptOffer = (body: BodyOf<typeof togetherApi.accept>) =>
  call(togetherApi.accept, { body });
export const declineOffer = (body: BodyOf<typeof togetherApi.decline>) =>
  call(togetherApi.decline, { body });
export const cancelOffer = (body: BodyOf<typeof togetherApi.cancel>) =>
  call(togetherApi.cancel, { body });
export const changeOffer = (body: BodyOf<typeof togetherApi.change>) =>
  call(togetherApi.change, { body });
export const changeShipTo = (body: BodyOf<typeof togetherApi.address>) =>
  call(togetherApi.address, { body });
