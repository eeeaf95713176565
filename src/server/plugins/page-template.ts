/**
 * index.html as `vite build` writes it, read once into the places a page's HTML fills in: the
 * title, the runtime configuration, the root element, and the app's entry with the modules it
 * preloads. A small tag scanner finds them by tag name and attributes (not by their exact text),
 * and reading a build that lacks one throws: should Vite's output change shape, the server does not
 * start, and page-template.test.ts, which reads a real build, fails first.
 */

/** One tag of the document: where it starts and ends, its name, and its attributes. */
interface Tag {
  start: number;
  end: number;
  name: string;
  attributes: Map<string, string>;
}

const TAG = /<(?:!--[\s\S]*?--|([a-zA-Z][\w-]*)((?:[^>"']|"[^"]*"|'[^']*')*))>/g;
const ATTRIBUTE = /([^\s=/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;

/** The start tags and comments of `html`, in order (end tags are not needed here). */
function scanTags(html: string): Tag[] {
  return [...html.matchAll(TAG)].map((match) => {
    const attributes = new Map<string, string>();
    for (const attribute of (match[2] ?? '').matchAll(ATTRIBUTE))
      attributes.set(
        (attribute[1] ?? '').toLowerCase(),
        attribute[2] ?? attribute[3] ?? attribute[4] ?? '',
      );
    return {
      start: match.index,
      end: match.index + match[0].length,
      name: (match[1] ?? '!--').toLowerCase(),
      attributes,
    };
  });
}

/** A piece of the document to replace: [start, end) becomes `text`. */
interface Edit {
  start: number;
  end: number;
  text: string;
}

function applyEdits(html: string, edits: readonly Edit[]): string {
  let out = '';
  let at = 0;
  for (const edit of [...edits].sort((a, b) => a.start - b.start || a.end - b.end)) {
    out += html.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + html.slice(at);
}

export const escapeText = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

export const escapeAttribute = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

/** A JSON value in a script element; `<` is escaped so no value can close the element. */
export const jsonScript = (id: string, value: unknown) =>
  `<script id="${id}" type="application/json">${JSON.stringify(value).replaceAll('<', '\\u003c')}</script>`;

/** What a page's HTML carries beyond index.html. */
export interface PageParts {
  /** The page's own title, for `<title>` and `og:title` (index.html's otherwise). */
  title?: string | undefined;
  /** HTML added to the head, before the runtime configuration (a preload hint). */
  head?: string;
  /** A prerendered page: its markup in the root element, and the data it was rendered from. */
  prerendered?: { markup: string; data: unknown } | null;
}

export interface PageTemplate {
  /** index.html with the runtime configuration and the page's parts filled in. */
  render: (parts: PageParts) => string;
  /** The entry script and the modules it preloads, as Vite built them. */
  entry: { script: string; preloads: string[] };
}

class TemplateShapeError extends Error {
  constructor(what: string) {
    super(`index.html has no ${what}: the shape of Vite's output changed (see page-template.ts)`);
  }
}

/**
 * Reads index.html. Throws a `TemplateShapeError` when it lacks the title, the runtime
 * configuration mark, an empty `#root`, or the module script of the app's entry.
 */
export function readPageTemplate(html: string, runtimeConfig: unknown): PageTemplate {
  const tags = scanTags(html);
  const find = (what: string, test: (tag: Tag) => boolean) => {
    const tag = tags.find(test);
    if (!tag) throw new TemplateShapeError(what);
    return tag;
  };
  const title = find('<title>', (tag) => tag.name === 'title');
  const titleEnd = html.indexOf('</title>', title.end);
  if (titleEnd === -1) throw new TemplateShapeError('</title>');
  const ogTitle = tags.find(
    (tag) => tag.name === 'meta' && tag.attributes.get('property') === 'og:title',
  );
  const config = find('<!--runtime-config--> mark', (tag) =>
    html.startsWith('<!--runtime-config-->', tag.start),
  );
  const root = find(
    '<div id="root">',
    (tag) => tag.name === 'div' && tag.attributes.get('id') === 'root',
  );
  if (!html.startsWith('</div>', root.end)) throw new TemplateShapeError('empty <div id="root">');
  const entryScript = find(
    '<script type="module" src> (the entry)',
    (tag) =>
      tag.name === 'script' &&
      tag.attributes.get('type') === 'module' &&
      !tag.attributes.has('async') &&
      tag.attributes.has('src'),
  );
  const scriptEnd = html.indexOf('</script>', entryScript.end);
  const preloads = tags.filter(
    (tag) => tag.name === 'link' && tag.attributes.get('rel') === 'modulepreload',
  );
  const meta = (name: string, content: string) =>
    `<meta name="${name}" content="${escapeAttribute(content)}" />`;
  // A prerendered page paints before the app's code is asked for: the entry and the modules it
  // preloads become the deferred entry, which the early-input script loads once the page has painted.
  const deferredEntry: Edit[] = [
    {
      start: entryScript.start,
      end: scriptEnd + '</script>'.length,
      text: meta('deferred-entry', entryScript.attributes.get('src') ?? ''),
    },
    ...preloads.map((tag) => ({
      start: tag.start,
      end: tag.end,
      text: meta('deferred-entry-preload', tag.attributes.get('href') ?? ''),
    })),
  ];
  const configScript = jsonScript('runtime-config', runtimeConfig);

  return {
    entry: {
      script: entryScript.attributes.get('src') ?? '',
      preloads: preloads.map((tag) => tag.attributes.get('href') ?? ''),
    },
    render({ title: pageTitle, head = '', prerendered }) {
      const edits: Edit[] = [{ start: config.start, end: config.end, text: head + configScript }];
      if (pageTitle) {
        edits.push({ start: title.end, end: titleEnd, text: escapeText(pageTitle) });
        if (ogTitle)
          edits.push({
            start: ogTitle.start,
            end: ogTitle.end,
            text: `<meta property="og:title" content="${escapeAttribute(pageTitle)}" />`,
          });
      }
      if (prerendered) {
        edits.push(...deferredEntry, {
          start: root.start,
          end: root.end,
          text: `${jsonScript('page-data', prerendered.data)}${html.slice(root.start, root.end)}${prerendered.markup}`,
        });
      }
      return applyEdits(html, edits);
    },
  };
}
