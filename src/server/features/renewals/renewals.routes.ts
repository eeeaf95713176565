import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AppContext } from '#server/context.ts';
import { sendRenewal } from '#server/features/visits/visits.renewal.ts';
import {
  addScalpPhoto,
  requireScalpPhotos,
  scalpPhotosOf,
} from '#server/features/visits/visits.scalp-photos.ts';
import { AppError } from '#server/lib/errors.ts';
import { readImageForm } from '#server/lib/image-form.ts';
import { route } from '#server/lib/route.ts';
import { renewalsApi, ScalpViewSchema, type ScalpView } from '#shared/renewals.ts';
import { VisitIdSchema } from '#shared/visits.ts';
import { startRenewal } from './renewals.service.ts';

const tag = 'visits';

/** A prescription's renewal (issue 29): opened from Home or its e-mail, sent to a provider. */
export const renewalsRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    route(
      app,
      renewalsApi.startRenewal,
      { tag, summary: "Open the renewal of the program's prescription that is due" },
      async ({ session, body }) => startRenewal(ctx, session, body.category),
    );
    route(
      app,
      renewalsApi.sendRenewal,
      { tag, summary: "Send a renewal's answers to a provider; nothing is charged" },
      async ({ session, body }) => {
        // A Hair renewal goes with its three scalp photos (decision 023).
        await requireScalpPhotos(ctx, session, body.visit_id);
        return sendRenewal(ctx, session, body.visit_id);
      },
    );
    route(
      app,
      renewalsApi.uploadScalpPhoto,
      { tag, summary: 'Add a scalp photo to a Hair renewal; it replaces the last one of its view' },
      async ({ session, request }) => {
        const { visitId, view, bytes } = await readScalpPhotoForm(request);
        return addScalpPhoto(ctx, session, visitId, view, bytes);
      },
    );
    route(
      app,
      renewalsApi.scalpPhotos,
      { tag, summary: "A Hair renewal's current scalp photos, one of each view" },
      async ({ session, body }) => scalpPhotosOf(ctx, session, body.visit_id),
    );
  };

/** The scalp photo's form: the renewal in `visit_id`, the view, the photo in `fileToUpload`. */
async function readScalpPhotoForm(
  request: FastifyRequest,
): Promise<{ visitId: number; view: ScalpView; bytes: Buffer }> {
  const form = await readImageForm(request, {
    fields: ['visit_id', 'view'],
    missingFile: 'Choose a photo of your scalp.',
  });
  const visitId = VisitIdSchema.safeParse(Number(form.fields.visit_id));
  if (!visitId.success)
    throw new AppError('VALIDATION', 'Choose a visit', { visit_id: 'Choose a visit' });
  const view = ScalpViewSchema.safeParse(form.fields.view);
  if (!view.success)
    throw new AppError('VALIDATION', 'Choose which photo this is', {
      view: 'Choose which photo this is',
    });
  return { visitId: visitId.data, view: view.data, bytes: form.bytes };
}
