import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RuntimeConfig } from '#shared/api.ts';
import type { Catalog } from '#shared/catalog.ts';

/** What `vite build --ssr` makes of src/client/boot/prerender.tsx (decision 011). */
interface PrerenderBuild {
  prerenderedRoutes: readonly string[];
  prerenderable: (pathname: string, catalog: Catalog) => boolean;
  renderPage: (
    pathname: string,
    catalog: Catalog,
    config: RuntimeConfig,
  ) => Promise<{ markup: string; title: string | undefined }>;
}

/** A prerendered page: its markup, its title, and the data the browser hydrates it with. */
export interface PrerenderedPage {
  markup: string;
  title: string | undefined;
  data: { catalog: Catalog };
}

export interface Prerender {
  /** The routes (Fastify syntax) whose pages may be prerendered. */
  routes: readonly string[];
  /** The page at `pathname` prerendered; null for one the browser renders alone. */
  render: (pathname: string) => Promise<PrerenderedPage | null>;
}

/**
 * The prerender of the pages a visitor lands on, from the build beside the web app's
 * (`dist/ssr/`, next to `dist/client/`). Without that build (most tests, API-only) every page is
 * rendered by the browser alone.
 */
export async function loadPrerender(
  clientDir: string,
  config: RuntimeConfig,
  catalog: () => Promise<Catalog>,
): Promise<Prerender | undefined> {
  const file = path.resolve(clientDir, '../ssr/prerender.js');
  if (!fs.existsSync(file)) return undefined;
  const build = (await import(pathToFileURL(file).href)) as PrerenderBuild;
  return {
    routes: build.prerenderedRoutes,
    async render(pathname) {
      const lines = await catalog();
      if (!build.prerenderable(pathname, lines)) return null;
      const { markup, title } = await build.renderPage(pathname, lines, config);
      return { markup, title, data: { catalog: lines } };
    },
  };
}
