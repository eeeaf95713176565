import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '#server/context.ts';
import { audit } from '#server/features/staff/staff.service.ts';
import { notFound } from '#server/plugins/errors.ts';
import { apiPaths } from '#shared/api.ts';
import { readUpload } from './uploads.service.ts';

/**
 * An uploaded photo ID, served only to its owner, or to staff (each view written to the audit
 * log). Never cached, never shown by the browser as anything but the image it is.
 */
export const uploadsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      apiPaths.visitUpload,
      {
        schema: { tags: ['uploads'], params: z.object({ id: z.coerce.number().int().positive() }) },
      },
      async (request, reply) => {
        const file = await readUpload(ctx, request.params.id);
        const owner = request.session?.customerId === file.customerId;
        const staff = request.staffSession;
        if (!owner && !staff) throw notFound('We could not find that file.');
        if (!owner && staff) {
          await audit(ctx, staff, {
            action: 'view',
            subjectType: 'upload',
            subjectId: request.params.id,
            customerId: file.customerId,
            ip: request.ip,
          });
        }
        return reply
          .header('Cache-Control', 'private, no-store')
          .header('Content-Disposition', 'inline; filename="photo-id"')
          .type(file.mimeType)
          .send(file.bytes);
      },
    );
  };
