import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '#server/context.ts';
import { requireOwnLeadsId } from '#server/plugins/session.ts';
import { LeadsRequestSchema } from '#shared/accounts.ts';
import { apiPaths, v1Success } from '#shared/api.ts';
import {
  ShipFrequencySchema,
  SubscriptionListSchema,
  SubscriptionUpdateResultSchema,
  SubscriptionUpdateSchema,
} from '#shared/subscriptions.ts';
import { changeSubscription, listSubscriptions } from './subscriptions.service.ts';

const tags = ['subscriptions'];

export const subscriptionsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      apiPaths.subscriptions,
      {
        schema: {
          tags,
          body: LeadsRequestSchema,
          response: { 200: v1Success(SubscriptionListSchema) },
        },
      },
      async (request) => {
        const session = requireOwnLeadsId(request, request.body.leads_id);
        return {
          status: 'SUCCESS' as const,
          message: '',
          data: { subscriptions: await listSubscriptions(ctx, session.customerId) },
        };
      },
    );

    app.post(
      apiPaths.subscriptionUpdate,
      {
        schema: {
          tags,
          body: SubscriptionUpdateSchema,
          response: { 200: SubscriptionUpdateResultSchema },
        },
      },
      async (request) => {
        const session = requireOwnLeadsId(request, request.body.leads_id);
        const { subscription, message } = await changeSubscription(
          ctx,
          session,
          request.body.subscription_id,
          request.body.change,
          request.body.preview,
        );
        return {
          status: 'SUCCESS' as const,
          message,
          data: { subscription, preview: request.body.preview },
        };
      },
    );

    app.post(
      apiPaths.shipFrequency,
      {
        schema: {
          tags,
          body: ShipFrequencySchema,
          response: { 200: SubscriptionUpdateResultSchema },
        },
      },
      async (request) => {
        const session = requireOwnLeadsId(request, request.body.leads_id);
        const { subscription, message } = await changeSubscription(
          ctx,
          session,
          request.body.subscription_id,
          { action: 'change_frequency', frequency: request.body.frequency },
          false,
        );
        return { status: 'SUCCESS' as const, message, data: { subscription, preview: false } };
      },
    );
  };
