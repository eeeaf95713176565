// The server's first draw of a page a visitor lands on (decision 011): the same components the browser
// runs, rendered to HTML by Preact with the catalogue the server already has, so the page paints
// as soon as its HTML and stylesheet arrive. The browser's first render then takes the markup
// over (see main.tsx). Built by `vite build --ssr` into dist/ssr/, loaded by the server's web-app
// plugin; never sent to a browser.
import './lib/zod-config.ts';
import { renderToString } from 'preact-render-to-string';
import type { VNode } from 'preact';
import { StaticRouter } from 'react-router';
import type { RuntimeConfig } from '#shared/api.ts';
import type { Catalog } from '#shared/catalog.ts';
import { cacheKeys } from '#shared/constants.ts';
import { App } from './app.tsx';
import { takeServerTitle } from './components/layout/document-head.tsx';
import { paths } from '#shared/paths.ts';
import { preloadRoute } from './router.tsx';
import { createQueryClient } from './lib/query-client.ts';
import { setRuntimeConfig } from './lib/runtime-config.ts';

/**
 * The pages drawn on the server: those a first visit lands on that show the same to everyone —
 * the storefront (which needs only the catalogue), the log-in and sign-up forms, and the text pages.
 * A member's pages, the cart and the checkout depend on who asks, and the browser draws them.
 */
const drawnPaths = new Set<string>([
  paths.home,
  paths.shop,
  paths.login,
  paths.signup,
  paths.faq,
  paths.privacy,
  paths.terms,
  paths.consentToTelehealth,
]);

export function prerenderable(pathname: string, catalog: Catalog): boolean {
  if (drawnPaths.has(pathname)) return true;
  const slug = /^\/shop\/([a-z0-9-]{1,80})$/.exec(pathname)?.[1];
  return slug !== undefined && catalog.lines.some((line) => line.slug === slug);
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
  // The React types describe what Preact renders here (decision 009).
  takeServerTitle();
  const markup = renderToString(app as unknown as VNode);
  queryClient.clear();
  return { markup, title: takeServerTitle() };
}
