import type { FastifyPluginAsync } from 'fastify';
import { verifyPharmacySignature } from '#server/adapters/pharmacy.ts';
import type { AppContext } from '#server/context.ts';
import { keepRawJsonBody } from '#server/plugins/json-body.ts';
import { AppError } from '#server/lib/errors.ts';
import { route } from '#server/lib/route.ts';
import { API_PREFIX } from '#shared/api.ts';
import {
  PHARMACY_SIGNATURE_HEADER,
  PHARMACY_SIGNATURE_TOLERANCE_SECONDS,
  PharmacyEventSchema,
  pharmacyApi,
} from '#shared/pharmacy.ts';
import { pharmacyQueue, receivePharmacyEvent } from './pharmacy.service.ts';

const tag = 'operations';

/** Operations staff: the orders at the pharmacy that are not delivered yet. */
export const pharmacyRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    route(
      app,
      pharmacyApi.queue,
      {
        tag,
        summary: 'Orders at the pharmacy, stuck ones first',
        audit: () => ({ subjectType: 'pharmacy' }),
      },
      async () => ({ orders: await pharmacyQueue(ctx) }),
    );
  };

/** A callback is a few hundred bytes; this refuses anything far larger. */
const BODY_LIMIT = 16 * 1024;

/**
 * `POST /lapi/webhooks/pharmacy` (issue 29, decision 022): the partner pharmacy's signed callbacks.
 * A machine endpoint like Stripe's: its caller is the pharmacy, so it is declared here with `hide`
 * rather than in the web app's contract. The signature covers the exact bytes sent, so the body is
 * kept raw and parsed only after it is verified. 401: not signed by the pharmacy (nothing changes);
 * 400: not a callback; 404: about no message we sent; 200: applied, or applied before.
 */
export const pharmacyWebhookRoutes =
  (ctx: AppContext, secret: string): FastifyPluginAsync =>
  async (app) => {
    keepRawJsonBody(app, BODY_LIMIT);
    app.post(
      `${API_PREFIX}/webhooks/pharmacy`,
      { schema: { hide: true }, logLevel: 'warn' },
      async (request, reply) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = request.headers[PHARMACY_SIGNATURE_HEADER];
        const signed = verifyPharmacySignature(
          secret,
          typeof signature === 'string' ? signature : undefined,
          body,
          ctx.clock.now(),
          PHARMACY_SIGNATURE_TOLERANCE_SECONDS,
        );
        if (!signed)
          return reply
            .code(401)
            .send({ received: false, error: 'The signature does not match this callback.' });
        let json: unknown;
        try {
          json = JSON.parse(body.toString('utf8'));
        } catch {
          return reply.code(400).send({ received: false, error: 'The callback is not JSON.' });
        }
        const event = PharmacyEventSchema.safeParse(json);
        if (!event.success)
          return reply.code(400).send({
            received: false,
            error: `The callback is not one we know: ${event.error.issues
              .map((issue) => issue.path.join('.') || 'body')
              .join(', ')}.`,
          });
        try {
          await receivePharmacyEvent(ctx, event.data);
        } catch (error) {
          if (!(error instanceof AppError && error.code === 'NOT_FOUND')) throw error;
          return reply.code(404).send({ received: false, error: error.message });
        }
        return reply.code(200).send({ received: true });
      },
    );
  };
