import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '#server/context.ts';
import { answer, route } from '#server/lib/route.ts';
import { partnersApi } from '#shared/partners.ts';
import { togetherApi } from '#shared/partners-together.ts';
import {
  acceptInvitation,
  declineInvitation,
  invitePartner,
  withdrawInvitation,
} from './partners.invitations.ts';
import { partnerOverview, unlinkPartner } from './partners.service.ts';
import { changeSharing, sharedWithMe } from './partners.sharing.ts';
import { cancelTogether, changeTogether, changeShipTo } from './partners.together-changes.ts';
import { togetherOverview } from './partners.together-items.ts';
import { acceptTogether, declineTogether, giveGift, startPlan } from './partners.together.ts';
import { dismissVisitInvitation, sendVisitInvitation } from './partners.visit-invitations.ts';

const tag = 'partners';

export const partnersRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    route(
      app,
      partnersApi.overview,
      { tag, summary: 'The partner page: link, invitations, sharing and history' },
      async ({ body, session }) => partnerOverview(ctx, session, body.invite_token),
    );

    route(
      app,
      partnersApi.invite,
      { tag, summary: 'Invite a partner by email' },
      async ({ body, session }) => {
        await invitePartner(ctx, session, body.email);
      },
    );

    route(
      app,
      partnersApi.withdraw,
      { tag, summary: 'Withdraw a pending invitation' },
      async ({ body, session }) => {
        await withdrawInvitation(ctx, session, body.invitation_id);
      },
    );

    route(
      app,
      partnersApi.accept,
      { tag, summary: 'Accept an invitation: link the two accounts, sharing nothing yet' },
      async ({ body, session }) => {
        await acceptInvitation(ctx, session, body.invitation_id, body.invite_token);
      },
    );

    route(
      app,
      partnersApi.decline,
      { tag, summary: 'Decline an invitation' },
      async ({ body, session }) => {
        await declineInvitation(ctx, session, body.invitation_id, body.invite_token);
      },
    );

    route(
      app,
      partnersApi.unlink,
      { tag, summary: 'Unlink from the partner, with or without telling them' },
      async ({ body, session }) => {
        await unlinkPartner(ctx, session, body.notify);
      },
    );

    route(
      app,
      partnersApi.sharing,
      { tag, summary: 'Share one item with the partner, or stop sharing it' },
      async ({ body, session }) => changeSharing(ctx, session, body.item, body.shared),
    );

    route(
      app,
      partnersApi.shared,
      { tag, summary: 'What the linked partner shares with the caller, and nothing else' },
      async ({ session }) => sharedWithMe(ctx, session),
    );

    route(
      app,
      partnersApi.visitInvite,
      {
        tag,
        summary: 'Invite the partner to start their own visit of a program the caller finished',
      },
      async ({ body, session }) => {
        await sendVisitInvitation(ctx, session, body.program, body.reveal_started);
      },
    );

    route(
      app,
      partnersApi.visitInviteDismiss,
      { tag, summary: 'Dismiss a visit invitation from the partner' },
      async ({ body, session }) => {
        await dismissVisitInvitation(ctx, session, body.invitation_id);
      },
    );

    // Gifts and couples' plans (decision 018).
    route(
      app,
      togetherApi.overview,
      { tag, summary: "Gifts and the couples' plan with the partner, the card and the addresses" },
      async ({ session }) => togetherOverview(ctx, session),
    );

    route(
      app,
      togetherApi.give,
      { tag, summary: 'Give the partner a gift subscription, billed to the caller once accepted' },
      async ({ body, session }) => giveGift(ctx, session, body),
    );

    route(
      app,
      togetherApi.startPlan,
      { tag, summary: "Propose a couples' plan: two subscriptions, one date, one charge" },
      async ({ body, session }) => startPlan(ctx, session, body),
    );

    route(
      app,
      togetherApi.accept,
      { tag, summary: 'Accept a gift or plan: it starts and its first delivery is charged once' },
      async ({ body, session }) => {
        const { item, message } = await acceptTogether(
          ctx,
          session,
          body.together_id,
          body.ship_to,
        );
        return answer(message, { item });
      },
    );

    route(
      app,
      togetherApi.decline,
      { tag, summary: 'Decline a gift or plan: nothing is charged' },
      async ({ body, session }) => {
        await declineTogether(ctx, session, body.together_id);
      },
    );

    route(
      app,
      togetherApi.cancel,
      { tag, summary: 'Withdraw a waiting gift or plan, or end a running one' },
      async ({ body, session }) => answer(await cancelTogether(ctx, session, body.together_id)),
    );

    route(
      app,
      togetherApi.change,
      { tag, summary: "Skip, move, pause or resume a gift's or plan's deliveries" },
      async ({ body, session }) => {
        const { item, message } = await changeTogether(ctx, session, body.together_id, body.change);
        return answer(message, { item });
      },
    );

    route(
      app,
      togetherApi.address,
      { tag, summary: "A gift's recipient chooses which of their addresses it ships to" },
      async ({ body, session }) => changeShipTo(ctx, session, body.together_id, body.ship_to),
    );
  };
