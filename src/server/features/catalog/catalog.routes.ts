import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiPaths, v1Success } from '#shared/api.ts';
import { CatalogSchema, ProductLineSchema, ProductSlugParamsSchema } from '#shared/catalog.ts';
import { getProductLine, listCatalog } from './catalog.service.ts';

export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    apiPaths.products,
    { schema: { tags: ['catalog'], response: { 200: v1Success(CatalogSchema) } } },
    async (_request, reply) => {
      reply.header('Cache-Control', 'public, max-age=60');
      return { status: 'SUCCESS' as const, message: '', data: await listCatalog(app.db) };
    },
  );

  app.get(
    apiPaths.product,
    {
      schema: {
        tags: ['catalog'],
        params: ProductSlugParamsSchema,
        response: { 200: v1Success(ProductLineSchema) },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'public, max-age=60');
      const line = await getProductLine(app.db, request.params.slug);
      return { status: 'SUCCESS' as const, message: '', data: line };
    },
  );
};
