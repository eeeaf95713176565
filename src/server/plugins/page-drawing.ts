import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RuntimeConfig } from '#shared/api.ts';
import type { Catalog } from '#shared/catalog.ts';
import type { DrawPage } from './web-app.ts';

/** What `vite build --ssr` makes of src/client/server-render.tsx (decision 011). */
interface ServerRender {
  prerenderable: (pathname: string, catalog: Catalog) => boolean;
  renderPage: (
    pathname: string,
    catalog: Catalog,
    config: RuntimeConfig,
  ) => Promise<{ markup: string; title: string | undefined }>;
}

/**
 * The server's draw of the pages a visitor lands on, from the build beside the web app's (`dist/ssr/`, next to
 * `dist/client/`). Without that build (most tests, API-only) every page is drawn by the browser.
 */
export async function loadPageDrawing(
  clientDir: string,
  config: RuntimeConfig,
  catalog: () => Promise<Catalog>,
): Promise<DrawPage | undefined> {
  const file = path.resolve(clientDir, '../ssr/server-render.js');
  if (!fs.existsSync(file)) return undefined;
  const render = (await import(pathToFileURL(file).href)) as ServerRender;
  return async (pathname) => {
    const lines = await catalog();
    if (!render.prerenderable(pathname, lines)) return null;
    const { markup, title } = await render.renderPage(pathname, lines, config);
    return { markup, title, data: { catalog: lines } };
  };
}
