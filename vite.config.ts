import fs from 'node:fs';
import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Alias, type Plugin, type UserConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { reactOnPreact } from './react-on-preact.config.ts';

const pkg = JSON.parse(fs.readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};
const buildId = `${pkg.version}+${Date.now().toString(36)}`;

/** Writes /version.json, which the new-version banner compares with the running build. */
function versionFile(): Plugin {
  return {
    name: 'pairwell-version-file',
    apply: 'build',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'version.json',
        source: JSON.stringify({ version: buildId }),
      });
    },
  };
}

/**
 * Preloads the font files the first paint uses (DM Sans and Fraunces, Latin). Found by the stylesheet
 * only after it downloads, they used to arrive after the page had drawn in the fallback fonts, and
 * the swap moved the page (Lighthouse measured a layout shift of 0.108 on the home page).
 */
function preloadFonts(): Plugin {
  return {
    name: 'pairwell-preload-fonts',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        return Object.keys(context.bundle ?? {})
          .filter((file) => /\/(dm-sans|fraunces)-latin-wght-normal-[^/]+\.woff2$/.test(file))
          .map((file) => ({
            tag: 'link',
            attrs: {
              rel: 'preload',
              as: 'font',
              type: 'font/woff2',
              href: `/${file}`,
              crossorigin: '',
            },
            injectTo: 'head' as const,
          }));
      },
    },
  };
}

/**
 * The early-input script (src/client/boot/early-input.ts): its own entry, loaded by every page with
 * `async`, ahead of the app's code, so that what a visitor does on a prerendered page before it is
 * hydrated is kept, and the page's deferred entry is fetched once it has painted (boot/README.md).
 */
const EARLY_INPUT = 'early-input';

function earlyInputScript(): Plugin {
  return {
    name: 'pairwell-early-input',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const chunk = Object.values(context.bundle ?? {}).find(
          (output) => output.type === 'chunk' && output.isEntry && output.name === EARLY_INPUT,
        );
        if (!chunk) throw new Error('The build has no early-input entry.');
        if (chunk.type === 'chunk' && chunk.imports.length > 0)
          throw new Error(
            `early-input must import nothing; it imports ${chunk.imports.join(', ')}`,
          );
        return [
          {
            tag: 'script',
            attrs: { type: 'module', async: true, src: `/${chunk.fileName}` },
            injectTo: 'head' as const,
          },
        ];
      },
    },
  };
}

/**
 * zod/mini and the core it runs on, with the English messages. Core's JSON Schema, memo and compile
 * modules serve only classic zod (its `.toJSONSchema()`): they go with classic zod, out of the
 * first visit.
 */
const zodMiniModule =
  /node_modules[\\/]zod[\\/]((v4[\\/])?mini[\\/]|v4[\\/]core[\\/](?!to-json-schema|json-schema-|memoizer|compile)|v4[\\/]locales[\\/]en\.js$)/;

/**
 * React Router 7 maps every export condition to its development build (remix-run/react-router#12532,
 * "intended to be temporary"): its checks and console warnings would ship (0.6 KiB gzipped). A
 * build takes the production files of the same version, which sit beside them.
 */
const reactRouterProduction: Alias = {
  find: /^react-router$/,
  replacement: path.resolve('node_modules/react-router/dist/production/index.mjs'),
};

/**
 * `vite build --ssr`: the prerender of the pages a visitor lands on (src/client/boot/prerender.tsx,
 * decision 011), into dist/ssr/ — outside dist/client, so it is never served. Every package is
 * bundled, so React's imports inside them resolve to Preact as in the browser.
 */
const serverRenderBuild = defineConfig({
  root: 'src/client',
  publicDir: false,
  plugins: [react({ refreshExclude: /./ })],
  resolve: { alias: [reactRouterProduction, ...reactOnPreact] },
  define: { __APP_BUILD__: JSON.stringify(buildId) },
  ssr: { noExternal: true, target: 'node' },
  build: {
    ssr: 'boot/prerender.tsx',
    outDir: path.resolve('dist/ssr'),
    emptyOutDir: true,
    target: 'node20',
    sourcemap: true,
  },
});

const browserConfig = (command: 'build' | 'serve'): UserConfig => ({
  root: 'src/client',
  publicDir: path.resolve('public'),
  // Fast refresh works through React DOM's internals, which Preact does not have (decision 009): an
  // edit reloads the page in development instead.
  plugins: [
    react({ refreshExclude: /./ }),
    tailwindcss(),
    versionFile(),
    preloadFonts(),
    earlyInputScript(),
    // Every script, stylesheet and image in text, brotli- and gzip-compressed at build time at
    // the highest levels, next to itself: the server sends these files as they are (web-app.ts,
    // `preCompressed`) instead of compressing each on the fly, which cost CPU and, with a page's
    // 25 scripts at once, 14 MiB of memory (decision 017). index.html is a template the server
    // fills in, so it is compressed when served, as a page.
    compression({
      algorithms: ['brotliCompress', 'gzip'],
      threshold: 1024,
      exclude: /(^|\/)index\.html$/,
      logLevel: 'silent',
    }),
  ],
  resolve: {
    alias: command === 'build' ? [reactRouterProduction, ...reactOnPreact] : reactOnPreact,
  },
  define: {
    __APP_BUILD__: JSON.stringify(buildId),
  },
  build: {
    outDir: path.resolve('dist/client'),
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: true,
    target: 'es2022',
    // Every browser the es2022 target reaches preloads modules itself: no polyfill in the entry.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      input: {
        index: path.resolve('src/client/index.html'),
        [EARLY_INPUT]: path.resolve('src/client/boot/early-input.ts'),
      },
      output: {
        codeSplitting: {
          groups: [
            {
              // zod's core, zod/mini (the storefront's schemas) and the module that configures
              // them share one chunk, so the configuration runs before any other chunk builds a
              // schema (see src/client/lib/zod-config.ts); every chunk that builds one imports it.
              name: 'zod-mini',
              test: (id) =>
                zodMiniModule.test(id) || /src[\\/]client[\\/]lib[\\/]zod-config\.ts$/.test(id),
            },
            {
              // Classic zod in a chunk of its own, for the pages loaded later (forms, member and
              // staff pages): in the chunk above, every first visit would download it.
              name: 'zod-classic',
              test: /node_modules[\\/]zod[\\/]/,
            },
            {
              // Every other module the entry imports statically, in the entry's chunk: a first
              // visit needs them all, and as a dozen small shared chunks they cost 6.7 KiB more
              // gzipped (each compressed alone, with its imports and exports between them). The
              // early-input script stays an entry of its own, importing nothing.
              name: 'app',
              tags: ['$initial'],
              test: (id) => !/boot[\\/](main|early-input)\.tsx?$/.test(id),
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/lapi': 'http://localhost:3000',
      '/healthz': 'http://localhost:3000',
      '/dev': 'http://localhost:3000',
    },
  },
});

export default defineConfig(({ command, isSsrBuild }) =>
  isSsrBuild ? serverRenderBuild : browserConfig(command),
);
