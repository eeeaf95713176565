import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RuntimeConfig } from '#shared/api.ts';

const RUNTIME_CONFIG_MARK = '<!--runtime-config-->';

export interface WebApp {
  /** Answers a page request with index.html (the client router decides what it shows). */
  sendPage: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;
}

/** The image a page leads with (its largest paint), for a preload hint in its HTML; null for none. */
export type LeadImage = (pathname: string) => Promise<string | null>;

/**
 * The server's first draw of a page (decision 011): its markup, and the data it was drawn from,
 * which the browser's first render reads back so it draws the same. Null for a page the browser
 * draws alone.
 */
export type DrawPage = (pathname: string) => Promise<{
  markup: string;
  /** The page's own title, for the head (the one in index.html otherwise). */
  title?: string | undefined;
  data: Record<string, unknown>;
} | null>;

const ROOT_ELEMENT = '<div id="root"></div>';

/** A JSON value in a script element; `<` is escaped so no value can close the element. */
const jsonScript = (id: string, value: unknown) =>
  `<script id="${id}" type="application/json">${JSON.stringify(value).replaceAll('<', '\\u003c')}</script>`;

const escapeText = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** The head with the page's own title in its title element and its og:title. */
const withTitle = (head: string, title: string) =>
  head
    // Replaced by functions: a `$` in a title is text, not a replacement pattern.
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeText(title)}</title>`)
    .replace(
      /<meta property="og:title" content="[^"]*"/,
      () => `<meta property="og:title" content="${escapeAttribute(title)}"`,
    );

const escapeAttribute = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

/**
 * Serves the built web app from `clientDir`: hashed files under /assets/ cached for a year as
 * immutable; everything else revalidated; index.html carries the runtime configuration.
 * Returns null when there is no build (API-only, as in most tests).
 */
export async function registerWebApp(
  app: FastifyInstance,
  clientDir: string,
  runtimeConfig: RuntimeConfig,
  leadImage: LeadImage = async () => null,
  drawPage: DrawPage = async () => null,
): Promise<WebApp | null> {
  const indexFile = path.join(clientDir, 'index.html');
  if (!fs.existsSync(indexFile)) {
    app.log.warn({ clientDir }, 'no web app build found; serving the API only (run npm run build)');
    return null;
  }
  const [beforeConfig = '', afterConfig = ''] = fs
    .readFileSync(indexFile, 'utf8')
    .replace(
      RUNTIME_CONFIG_MARK,
      `${RUNTIME_CONFIG_MARK}${jsonScript('runtime-config', runtimeConfig)}`,
    )
    .split(RUNTIME_CONFIG_MARK);
  const [beforeRoot = '', afterRoot = ''] = afterConfig.split(ROOT_ELEMENT);
  // A drawn page paints before the app's code is even asked for (decision 011): the entry script
  // and its module preloads become notes that public/early-input.js acts on once it has painted.
  const beforeRootDrawn = beforeRoot
    .replace(
      /<script type="module" crossorigin src="([^"]+)"><\/script>/,
      '<meta name="pairwell-app" content="$1" />',
    )
    .replaceAll(
      /<link rel="modulepreload" crossorigin href="([^"]+)">/g,
      '<meta name="pairwell-app-preload" content="$1" />',
    );
  /**
   * index.html, with a preload of the page's lead image when it has one, and the server's draw of
   * the page in its root element when there is one.
   */
  const pageHtml = (image: string | null, drawn: Awaited<ReturnType<DrawPage>>) =>
    `${drawn?.title ? withTitle(beforeConfig, drawn.title) : beforeConfig}${image ? `<link rel="preload" as="image" href="${escapeAttribute(image)}" fetchpriority="high" />` : ''}${drawn ? beforeRootDrawn : beforeRoot}${
      drawn
        ? `${jsonScript('page-data', drawn.data)}<div id="root">${drawn.markup}</div>`
        : ROOT_ELEMENT
    }${afterRoot}`;

  await app.register(fastifyStatic, {
    root: clientDir,
    prefix: '/',
    index: false,
    wildcard: true,
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

  // A hint, not the page: when the look-up fails the page goes out without it (and it is logged).
  const hintedImage = async (request: FastifyRequest, pathname: string) => {
    try {
      return await leadImage(pathname);
    } catch (error) {
      request.log.warn({ err: error }, 'could not find the page lead image');
      return null;
    }
  };

  // Without its draw the page still works: the browser draws it, as it does every other page.
  const drawnPage = async (request: FastifyRequest, pathname: string) => {
    try {
      return await drawPage(pathname);
    } catch (error) {
      request.log.warn({ err: error }, 'could not draw the page on the server');
      return null;
    }
  };

  const sendPage = async (request: FastifyRequest, reply: FastifyReply) => {
    // A missing file (an old hashed asset, a mistyped image) is a real 404, not the web app.
    const pathname = (request.raw.url ?? '/').split('?')[0] ?? '/';
    if (pathname.startsWith('/assets/') || /\.[a-z0-9]{1,8}$/i.test(pathname)) {
      return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
    }
    return reply
      .status(200)
      .header('Cache-Control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(pageHtml(await hintedImage(request, pathname), await drawnPage(request, pathname)));
  };

  // `/index.html` itself must also carry the runtime configuration.
  app.get('/', sendPage);
  app.get('/index.html', sendPage);
  return { sendPage };
}
