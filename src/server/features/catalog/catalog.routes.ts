import type { FastifyPluginAsync } from 'fastify';
import { route } from '#server/lib/route.ts';
import { catalogApi } from '#shared/catalog.ts';
import { getProductLine, listCatalog } from './catalog.service.ts';

const tag = 'catalog';

export const catalogRoutes: FastifyPluginAsync = async (app) => {
  route(
    app,
    catalogApi.products,
    { tag, summary: 'The catalogue: every product line with its offers' },
    async ({ reply }) => {
      reply.header('Cache-Control', 'public, max-age=60');
      return listCatalog(app.db);
    },
  );

  route(
    app,
    catalogApi.product,
    { tag, summary: 'One product line by its slug' },
    async ({ params, reply }) => {
      reply.header('Cache-Control', 'public, max-age=60');
      return getProductLine(app.db, params.slug);
    },
  );
};
