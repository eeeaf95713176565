import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPageTemplate } from './page-template.ts';

/**
 * The page template read from what `vite build` really writes (the project's own configuration,
 * into a temporary folder): should Vite's output change shape, the edit of a prerendered page
 * fails here rather than quietly sending a page whose app never loads.
 */
let outDir: string;
let html: string;
const config = { features: { login: true } };

beforeAll(async () => {
  outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pairwell-vite-build-'));
  await build({
    configFile: path.resolve('vite.config.ts'),
    logLevel: 'silent',
    build: { outDir, sourcemap: false },
  });
  html = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
}, 120_000);

afterAll(() => {
  fs.rmSync(outDir, { recursive: true, force: true });
});

const builtFile = (href: string) => path.join(outDir, href.replace(/^\//, ''));

describe('the page template, on the real build output', () => {
  it("finds the app's entry and the modules it preloads, and they were built", () => {
    const { entry } = readPageTemplate(html, config);
    expect(entry.script).toMatch(/^\/assets\/index-[\w-]+\.js$/);
    expect(fs.existsSync(builtFile(entry.script))).toBe(true);
    expect(entry.preloads.length).toBeGreaterThan(0);
    for (const module of entry.preloads)
      expect(fs.existsSync(builtFile(module)), module).toBe(true);
  });

  it('sends the app shell as built, with the runtime configuration', () => {
    const { entry, render } = readPageTemplate(html, config);
    const page = render({});
    expect(page).toContain(`src="${entry.script}"></script>`);
    expect(page).toContain('rel="modulepreload"');
    expect(page).toContain(
      '<script id="runtime-config" type="application/json">{"features":{"login":true}}</script>',
    );
    expect(page).toContain('<div id="root"></div>');
    expect(page).not.toContain('deferred-entry');
  });

  it('turns the entry of a prerendered page into the deferred entry, and fills its root', () => {
    const { entry, render } = readPageTemplate(html, config);
    const page = render({
      title: 'Sleep Gummies — Pairwell',
      prerendered: { markup: '<main><h1>Sleep Gummies</h1></main>', data: { catalog: 1 } },
    });
    expect(page).not.toContain(`src="${entry.script}"`);
    expect(page).not.toContain('rel="modulepreload"');
    expect(page).toContain(`<meta name="deferred-entry" content="${entry.script}" />`);
    for (const module of entry.preloads)
      expect(page).toContain(`<meta name="deferred-entry-preload" content="${module}" />`);
    expect(page).toContain(
      '<script id="page-data" type="application/json">{"catalog":1}</script><div id="root"><main><h1>Sleep Gummies</h1></main></div>',
    );
    expect(page).toContain('<title>Sleep Gummies — Pairwell</title>');
    expect(page).toContain('<meta property="og:title" content="Sleep Gummies — Pairwell" />');
    // The stylesheet, the fonts and the early-input script still load with the HTML.
    expect(page).toMatch(/<link rel="stylesheet"[^>]* href="\/assets\/index-[\w-]+\.css">/);
    expect(page).toMatch(/<script type="module" async src="\/assets\/early-input-[\w-]+\.js">/);
  });

  it('builds the early-input script as one small file that imports nothing', () => {
    const src = /<script type="module" async src="([^"]+)">/.exec(html)?.[1] ?? '';
    const script = fs.readFileSync(builtFile(src), 'utf8');
    expect(script).not.toMatch(/\bimport\b/);
    expect(gzipSync(script, { level: 9 }).length).toBeLessThan(1024);
  });

  it('refuses an index.html without what it edits, naming what is missing', () => {
    const entryScript = /<script type="module" crossorigin src="[^"]+"><\/script>/;
    expect(entryScript.test(html)).toBe(true);
    for (const [broken, missing] of [
      [html.replace(entryScript, ''), 'the entry'],
      [html.replace('<div id="root"></div>', '<main></main>'), '<div id="root">'],
      [html.replace('<!--runtime-config-->', ''), 'runtime-config'],
      [html.replace(/<title>[^<]*<\/title>/, ''), '<title>'],
    ] as const)
      expect(() => readPageTemplate(broken, config)).toThrow(missing);
  });
});
