// The prerender entry (see README.md): the same components the browser runs, rendered to HTML by
// Preact with the catalogue the server already has, so a page a visitor lands on paints as soon as
// its HTML and stylesheet arrive; the browser then hydrates it (main.tsx). Built by
// `vite build --ssr` into dist/ssr/, loaded by the server (src/server/plugins/prerender.ts); never
// sent to a browser.
import '../lib/zod-config.ts';
import { renderToString } from 'preact-render-to-string';
import type { VNode } from 'preact';
import { StaticRouter } from 'react-router';
import type { RuntimeConfig } from '#shared/api.ts';
import type { Catalog } from '#shared/catalog.ts';
import { cacheKeys } from '#shared/constants.ts';
import { paths } from '#shared/paths.ts';
import { App } from '../app.tsx';
import { takePrerenderedTitle } from '../components/layout/document-head.tsx';
import { preloadRoute } from '../router.tsx';
import { createQueryClient } from '../lib/query-client.ts';
import { setRuntimeConfig } from '../lib/runtime-config.ts';

/**
 * The routes that are prerendered: the pages a first visit lands on that show the same to
 * everyone — the storefront (which needs only the catalogue), the log-in and sign-up forms, and the
 * text pages. A member's pages, the cart and the checkout depend on who asks, and are rendered in
 * the browser alone. The server registers a GET route for each (Fastify's route syntax).
 */
export const prerenderedRoutes: readonly string[] = [
  paths.home,
  paths.shop,
  `${paths.shop}/:slug`,
  paths.login,
  paths.signup,
  paths.faq,
  paths.privacy,
  paths.terms,
  paths.consentToTelehealth,
];

const PRODUCT_PAGE = /^\/shop\/([a-z0-9-]{1,80})$/;

/** Whether the page at `pathname` is prerendered: a product page only for a product that exists. */
export function prerenderable(pathname: string, catalog: Catalog): boolean {
  const slug = PRODUCT_PAGE.exec(pathname)?.[1];
  if (slug !== undefined) return catalog.lines.some((line) => line.slug === slug);
  return prerenderedRoutes.includes(pathname);
}

/**
 * The markup of the page at `pathname` as a visitor without a session first sees it, and the
 * title it names. The configuration is what index.html carries to the browser (feature flags
 * change what shows).
 */
export async function renderPage(
  pathname: string,
  catalog: Catalog,
  config: RuntimeConfig,
): Promise<{ markup: string; title: string | undefined }> {
  setRuntimeConfig(config);
  // A lazy page's code first, so it renders at once instead of suspending (see router.tsx).
  await preloadRoute(pathname);
  const queryClient = createQueryClient();
  queryClient.setQueryData([cacheKeys.catalog], catalog);
  const app = (
    <App
      queryClient={queryClient}
      router={(routes) => <StaticRouter location={pathname}>{routes}</StaticRouter>}
    />
  );
  takePrerenderedTitle();
  // The React types describe what Preact renders here (decision 009).
  const markup = renderToString(app as unknown as VNode);
  queryClient.clear();
  return { markup, title: takePrerenderedTitle() };
}
