import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '#server/context.ts';
import { apiPaths } from '#shared/api.ts';
import { viewPhotoId } from './uploads.service.ts';

/**
 * A photo ID by its opaque id: to the patient who uploaded it, or to a provider reviewing that
 * patient's visit (each staff request audited, refusals too). Never cached, never shown by the
 * browser as anything but the image it is.
 */
export const uploadsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      apiPaths.visitUpload,
      // Any text: an id of the wrong shape is answered like one that names nothing (404).
      { schema: { tags: ['uploads'], params: z.object({ id: z.string().max(100) }) } },
      async (request, reply) => {
        const file = await viewPhotoId(
          ctx,
          { customerId: request.session?.customerId, staff: request.staffSession ?? undefined },
          request.params.id,
          request.ip,
        );
        return reply
          .header('Cache-Control', 'private, no-store')
          .header('Content-Disposition', 'inline; filename="photo-id"')
          .type(file.mimeType)
          .send(file.bytes);
      },
    );
  };
