import type { FastifyPluginAsync } from 'fastify';
import Stripe from 'stripe';
import type { AppContext } from '#server/context.ts';
import { keepRawJsonBody } from '#server/plugins/json-body.ts';
import { API_PREFIX } from '#shared/api.ts';
import { receiveStripeEvent, type StripeWebhookWiring } from './payments.webhooks.ts';

/** Stripe's events are a few kilobytes; this leaves ample room and refuses anything far larger. */
const BODY_LIMIT = 512 * 1024;
/** Stripe retries on its own schedule; this only says the event may be sent again soon. */
const RETRY_AFTER_SECONDS = 60;

/**
 * `POST /lapi/webhooks/stripe` (issue 28): Stripe's signed events. A machine endpoint like
 * `/metrics` and `/dev/outbox.json`: its caller is Stripe, not our web app,
 * and its body is Stripe's event, whose shape Stripe's SDK defines; so it is declared here with
 * `hide` rather than in a shared contract, and has no place in the API reference. The signature
 * covers the exact bytes Stripe sent, so in this plugin alone JSON is not parsed by the app's
 * parser but kept raw for `constructEvent`, which parses it after verifying.
 */
export const stripeWebhookRoutes =
  (ctx: AppContext, wiring: StripeWebhookWiring): FastifyPluginAsync =>
  async (app) => {
    keepRawJsonBody(app, BODY_LIMIT);
    app.post(
      `${API_PREFIX}/webhooks/stripe`,
      { schema: { hide: true }, logLevel: 'warn' },
      async (request, reply) => {
        const signature = request.headers['stripe-signature'];
        try {
          await receiveStripeEvent(ctx, wiring, {
            body: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
            signature: typeof signature === 'string' ? signature : undefined,
            ip: request.ip,
          });
        } catch (error) {
          // Stripe could not be asked what the event is about (down, slow, a dropped answer): the
          // event stays unhandled and Stripe delivers it again, as it does after any answer but a
          // 2xx. Not a fault of ours to report, and nothing of the event is logged but its kind.
          if (!(error instanceof Stripe.errors.StripeError)) throw error;
          request.log.warn({ stripeError: error.type }, 'a Stripe event waits for Stripe');
          return reply
            .code(503)
            .header('Retry-After', String(RETRY_AFTER_SECONDS))
            .send({ received: false });
        }
        return reply.code(200).send({ received: true });
      },
    );
  };
