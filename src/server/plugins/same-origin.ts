import type { FastifyInstance } from 'fastify';
import { AppError } from '#server/lib/errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * State-changing calls must come from our own pages (DESIGN §7): a browser's cross-site request is
 * refused by its Origin (or Sec-Fetch-Site) before any route runs. Requests without either header
 * (server-to-server, tests) pass; the session cookie's SameSite=Lax covers the rest.
 */
export function registerSameOriginCheck(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    const site = request.headers['sec-fetch-site'];
    if (site === 'cross-site') throw crossSite();
    const origin = request.headers.origin;
    if (origin === undefined) return;
    const host = request.host;
    let originHost: string;
    try {
      originHost = new URL(origin).host;
    } catch {
      throw crossSite();
    }
    if (originHost !== host) throw crossSite();
  });
}

function crossSite() {
  return new AppError('CROSS_SITE', 'This request must come from the Pairwell site.');
}
