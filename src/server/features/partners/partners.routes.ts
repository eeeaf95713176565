import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '#server/context.ts';
import { route } from '#server/lib/route.ts';
import { partnersApi } from '#shared/partners.ts';
import {
  acceptInvitation,
  changeSharing,
  declineInvitation,
  invitePartner,
  partnerOverview,
  sharedWithMe,
  unlinkPartner,
  withdrawInvitation,
} from './partners.service.ts';

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
  };
