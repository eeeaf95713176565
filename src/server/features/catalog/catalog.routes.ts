import type { FastifyPluginAsync } from 'fastify';
import { createBodyCache } from '#server/lib/body-cache.ts';
import { route } from '#server/lib/route.ts';
import { catalogApi } from '#shared/catalog.ts';
import { getProductLine, listCatalog } from './catalog.service.ts';

const tag = 'catalog';

/** As long as browsers may keep the catalogue (`max-age`), the server keeps its bytes. */
const CATALOG_TTL_MS = 60_000;
const cacheControl = `public, max-age=${CATALOG_TTL_MS / 1000}`;

export const catalogRoutes: FastifyPluginAsync = async (app) => {
  // Kept under the catalogue's version: a change to the catalogue shows within a second.
  const version = () => app.ctx.catalog.current();
  route(
    app,
    catalogApi.products,
    {
      tag,
      summary: 'The catalogue: every product line with its offers',
      shared: { cache: createBodyCache({ max: 1, ttlMs: CATALOG_TTL_MS }), cacheControl, version },
    },
    async () => listCatalog(app.db),
  );

  route(
    app,
    catalogApi.product,
    {
      tag,
      summary: 'One product line by its slug',
      // One entry per product line; a slug that is not one answers 404 and is not kept.
      shared: { cache: createBodyCache({ max: 64, ttlMs: CATALOG_TTL_MS }), cacheControl, version },
    },
    async ({ params }) => getProductLine(app.db, params.slug),
  );
};
