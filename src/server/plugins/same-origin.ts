import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '#server/lib/errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * State-changing calls must come from our own pages (DESIGN §7): a browser's cross-site request is
 * refused by its Origin (or Sec-Fetch-Site) before any route runs. Requests without either header
 * (server-to-server, tests) pass; the session cookie's SameSite=Lax covers the rest.
 */
export function registerSameOriginCheck(app: FastifyInstance): void {
  // A callback hook, not an async one: most requests pass at once, without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    done(SAFE_METHODS.has(request.method) ? undefined : refusal(request));
  });
}

/** Why a state-changing request is refused, or undefined when it may go on. */
function refusal(request: FastifyRequest): AppError | undefined {
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site') return crossSite();
  const origin = request.headers.origin;
  if (origin === undefined) return undefined;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return crossSite();
  }
  return originHost === request.host ? undefined : crossSite();
}

function crossSite() {
  return new AppError('CROSS_SITE', 'This request must come from the Pairwell site.');
}
