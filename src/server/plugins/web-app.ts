import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createBodyCache, sendCachedBody } from '#server/lib/body-cache.ts';
import { API_PREFIX, type RuntimeConfig } from '#shared/api.ts';
import { escapeAttribute, readPageTemplate } from './page-template.ts';
import type { Prerender, PrerenderedPage } from './prerender.ts';

/** The image a page leads with (its largest paint), for a preload hint in its HTML; null for none. */
export type LeadImage = (pathname: string) => Promise<string | null>;

const isApiPath = (pathname: string) =>
  pathname === API_PREFIX || pathname.startsWith(`${API_PREFIX}/`);

/** A path that names a file (an old hashed asset, a mistyped image), never a page of the app. */
const isFilePath = (pathname: string) =>
  pathname.startsWith('/assets/') || /\.[a-z0-9]{1,8}$/i.test(pathname);

/**
 * A page is the same for every visitor (the browser fills in who they are), so each path's HTML is
 * kept, compressed, under the version of the catalogue it shows (catalog.version.ts, body-cache.ts).
 * Bounded, so made-up paths cannot grow it.
 */
const PAGE_CACHE_ENTRIES = 200;
const PAGE_TTL_MS = 60_000;

/**
 * Serves the built web app from `clientDir` (boot/README.md): a route for each built file (hashed
 * files under /assets/ cached for a year as immutable; everything else revalidated), a route for
 * each prerendered page, and the app shell — index.html with the runtime configuration — for every
 * other path, where the browser's router decides what shows. Does nothing when there is no build
 * (API-only, as in most tests): then every unknown path is the JSON 404.
 */
export async function registerWebApp(
  app: FastifyInstance,
  clientDir: string,
  runtimeConfig: RuntimeConfig,
  pages: {
    leadImage: LeadImage;
    prerender?: Prerender | undefined;
    /** The catalogue's version: a page is kept under the one it was drawn at. */
    catalogVersion: () => number | Promise<number>;
  },
): Promise<boolean> {
  const { leadImage, prerender, catalogVersion } = pages;
  const indexFile = path.join(clientDir, 'index.html');
  if (!fs.existsSync(indexFile)) {
    app.log.warn({ clientDir }, 'no web app build found; serving the API only (run npm run build)');
    return false;
  }
  const template = readPageTemplate(fs.readFileSync(indexFile, 'utf8'), runtimeConfig);
  const kept = createBodyCache({ max: PAGE_CACHE_ENTRIES, ttlMs: PAGE_TTL_MS });

  await app.register(fastifyStatic, {
    root: clientDir,
    prefix: '/',
    index: false,
    // One route per built file, read at start; index.html goes out only as a page (below).
    wildcard: false,
    globIgnore: ['index.html', '**/*.br', '**/*.gz'],
    // The build writes each text file brotli- and gzip-compressed beside itself (vite.config.ts):
    // those go out as they are, where the browser accepts them, and nothing is compressed per
    // request (@fastify/compress leaves an answer that already has its encoding alone).
    preCompressed: true,
    cacheControl: false,
    setHeaders(res, filePath) {
      const relative = path.relative(clientDir, filePath).split(path.sep).join('/');
      if (relative.startsWith('assets/')) {
        res.header('Cache-Control', 'public, max-age=31536000, immutable');
      } else if (relative === 'version.json') {
        res.header('Cache-Control', 'no-store');
      } else {
        res.header('Cache-Control', 'public, max-age=3600, must-revalidate');
      }
    },
  });

  /** The page's parts; `complete` is false when one could not be made and the page went without. */
  interface Parts {
    image: string | null;
    page: PrerenderedPage | null;
    complete: boolean;
  }

  // A hint, not the page: when the look-up fails the page goes out without it (and it is logged).
  // Without its prerender the page still works: the browser renders it, as it does every other.
  // Either way the page is not kept, so the next visitor gets the whole of it.
  const partsOf = async (
    request: FastifyRequest,
    pathname: string,
    page: (pathname: string) => Promise<PrerenderedPage | null>,
  ): Promise<Parts> => {
    let complete = true;
    const [image, prerenderedPage] = await Promise.all([
      leadImage(pathname).catch((error: unknown) => {
        request.log.warn({ err: error }, 'could not find the page lead image');
        complete = false;
        return null;
      }),
      page(pathname).catch((error: unknown) => {
        request.log.warn({ err: error }, 'could not prerender the page');
        complete = false;
        return null;
      }),
    ]);
    return { image, page: prerenderedPage, complete };
  };

  const sendPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    page: (pathname: string) => Promise<PrerenderedPage | null>,
  ) => {
    const pathname = (request.raw.url ?? '/').split('?')[0] ?? '/';
    reply.status(200).header('Cache-Control', 'no-cache');
    const key = `${await catalogVersion()} ${pathname}`;
    const keptPage = kept.get(key);
    if (keptPage) return sendCachedBody(request, reply, keptPage);
    const parts = await partsOf(request, pathname, page);
    const html = template.render({
      title: parts.page?.title,
      head: parts.image
        ? `<link rel="preload" as="image" href="${escapeAttribute(parts.image)}" fetchpriority="high" />`
        : '',
      prerendered: parts.page,
    });
    const type = 'text/html; charset=utf-8';
    if (!parts.complete) return reply.type(type).send(html);
    return sendCachedBody(request, reply, kept.set(key, html, type));
  };
  const sendPrerenderedPage = (request: FastifyRequest, reply: FastifyReply) =>
    sendPage(request, reply, async (pathname) => (prerender ? prerender.render(pathname) : null));
  const sendAppShell = (request: FastifyRequest, reply: FastifyReply) =>
    sendPage(request, reply, async () => null);

  // The prerendered pages (decision 011), and `/` always.
  for (const route of new Set(['/', ...(prerender?.routes ?? [])]))
    app.get(route, sendPrerenderedPage);
  // `/index.html` itself must also carry the runtime configuration.
  app.get('/index.html', sendAppShell);
  // Every other path is the app's to show, except the API's and files that are not there.
  app.get('/*', async (request, reply) => {
    const pathname = (request.raw.url ?? '/').split('?')[0] ?? '/';
    if (isApiPath(pathname)) return reply.callNotFound();
    if (isFilePath(pathname))
      return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
    return sendAppShell(request, reply);
  });
  return true;
}
