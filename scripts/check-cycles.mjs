// Fails when the source has an import cycle (STYLE.md: no import cycles), at two levels:
//
// - between files: a file that, through its imports, imports itself;
// - between features (issue 27): every file under src/server/features/<name>/ (or
//   src/client/features/<name>/) is folded into its feature, and the features must depend one way.
//   A cycle through several files of two features is invisible file by file, yet it means a change
//   in either can break the other.
//
// It also fails when server plumbing imports a feature: plumbing is every server file outside
// src/server/features/ (lib/, plugins/, context.ts, db/, adapters/, env.ts) except the composition
// roots below, which build the app from its features. What plumbing needs of a feature is handed in
// at start (an interface passed to it, or a field of the context).
//
// Type-only imports vanish at run time and are not counted. Resolves relative imports and the
// package's "#…" aliases. Checks the repository in the current directory, or the one named as the
// first argument (the test checks made-up trees in scripts/fixtures/cycles/).
import fs from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const root = path.resolve(args.find((arg) => !arg.startsWith('--')) ?? '.');
/** `--graph` prints the feature graph as docs/architecture.md shows it; `--write-graph` writes it there. */
const graphMode = args.includes('--write-graph')
  ? 'write'
  : args.includes('--graph')
    ? 'print'
    : null;
const src = path.join(root, 'src');
const aliases = { '#shared/': 'src/shared/', '#server/': 'src/server/', '#client/': 'src/client/' };

/** Server files outside the features that may import them: they put the app together. */
const compositionRoots = [
  // buildApp: registers every feature's routes and jobs, and hands each feature what it asks of
  // features above it (the payment finishers, the card hook, the partner's shipping address).
  /^src\/server\/app\.ts$/,
  // Starts the built app.
  /^src\/server\/main\.ts$/,
  // The catalogue and demo seeds write through the features' own services (staff, coupons, log-in).
  /^src\/server\/db\/seed[^/]*\.ts$/,
];

/**
 * Client feature imports that close a cycle today and are known: the client's features are being
 * fenced (issue 27, mutation hooks and zones), which removes them. Each edge is checked to still
 * exist, so the list only shrinks; a new cycle through any other import fails.
 */
const knownClientEdges = {
  'auth -> cart': "logging in merges the visitor's cart (login form)",
  'cart -> accounts': 'the cart page is drawn in the account layout',
  'catalog -> cart': "the product page's purchase options add to the cart and open its drawer",
  'staff -> operations': "the console's home shows the operations orders board",
  'staff -> reviews': "the console's home shows the provider's review queue",
  'orders -> visits': 'the orders page starts a program again',
  'accounts -> visits': "the account dashboard shows a closed visit's notice",
  'accounts -> partners': "the account dashboard shows the partner's together card",
};

function files(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return files(full);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

const importPattern = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
/** `import('…')`: a chunk loaded later is still a dependency of the feature that loads it. */
const dynamicImportPattern = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

function resolve(from, specifier) {
  let target;
  for (const [alias, dir] of Object.entries(aliases)) {
    if (specifier.startsWith(alias))
      target = path.resolve(root, dir, specifier.slice(alias.length));
  }
  if (!target && specifier.startsWith('.')) target = path.resolve(path.dirname(from), specifier);
  return target && fs.existsSync(target) ? target : null;
}

const relative = (file) => path.relative(root, file).split(path.sep).join('/');

/** The feature a file belongs to, as `server:<name>` or `client:<name>`; null outside features. */
function featureOf(file) {
  const match = relative(file).match(/^src\/(server|client)\/features\/([^/]+)\//);
  return match ? `${match[1]}:${match[2]}` : null;
}

function isServerPlumbing(file) {
  const rel = relative(file);
  return (
    rel.startsWith('src/server/') &&
    featureOf(file) === null &&
    !compositionRoots.some((pattern) => pattern.test(rel))
  );
}

// --- The file graph --------------------------------------------------------------------------

const graph = new Map();
const lazy = new Map();
for (const file of files(src)) {
  const source = fs.readFileSync(file, 'utf8');
  const targets = (pattern) =>
    [...source.matchAll(pattern)].map((match) => resolve(file, match[1])).filter(Boolean);
  graph.set(file, targets(importPattern));
  lazy.set(file, targets(dynamicImportPattern));
}

const state = new Map();
const stack = [];
const fileCycles = [];
function visit(node) {
  state.set(node, 'open');
  stack.push(node);
  for (const next of graph.get(node) ?? []) {
    if (state.get(next) === 'open') {
      fileCycles.push([...stack.slice(stack.indexOf(next)), next].map(relative));
    } else if (!state.has(next)) visit(next);
  }
  stack.pop();
  state.set(node, 'done');
}
for (const node of graph.keys()) if (!state.has(node)) visit(node);

// --- The feature graph -----------------------------------------------------------------------

/** `from` feature → `to` feature → one import that makes the edge (for the message). */
const featureEdges = new Map();
const plumbingImports = [];
for (const [file, deps] of graph) {
  for (const target of [...deps, ...(lazy.get(file) ?? [])]) {
    const from = featureOf(file);
    const to = featureOf(target);
    if (to && to.startsWith('server:') && isServerPlumbing(file))
      plumbingImports.push(`${relative(file)} imports ${relative(target)}`);
    if (!from || !to || from === to) continue;
    if (!featureEdges.has(from)) featureEdges.set(from, new Map());
    const edges = featureEdges.get(from);
    if (!edges.has(to)) edges.set(to, `${relative(file)} → ${relative(target)}`);
  }
}

const features = new Set([
  ...featureEdges.keys(),
  ...[...featureEdges.values()].flatMap((edges) => [...edges.keys()]),
]);
const problems = [];

// Known client edges are set aside, and must still exist while both features do.
const setAside = new Set();
for (const [edge, reason] of Object.entries(knownClientEdges)) {
  const [from, to] = edge.split(' -> ').map((name) => `client:${name}`);
  if (!features.has(from) || !features.has(to)) continue;
  if (featureEdges.get(from)?.has(to)) setAside.add(`${from} -> ${to}`);
  else problems.push(`known client import "${edge}" (${reason}) is gone: take it off the list`);
}
const follows = (from) =>
  [...(featureEdges.get(from)?.keys() ?? [])].filter((to) => !setAside.has(`${from} -> ${to}`));

// Tarjan's strongly connected components: each with more than one feature holds a cycle.
const index = new Map();
const low = new Map();
const onStack = new Set();
const sccStack = [];
const components = [];
let counter = 0;
function connect(node) {
  index.set(node, counter);
  low.set(node, counter);
  counter++;
  sccStack.push(node);
  onStack.add(node);
  for (const next of follows(node)) {
    if (!index.has(next)) {
      connect(next);
      low.set(node, Math.min(low.get(node), low.get(next)));
    } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), index.get(next)));
  }
  if (low.get(node) === index.get(node)) {
    const component = [];
    let member;
    do {
      member = sccStack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) components.push(component.sort());
  }
}
for (const node of [...features].sort()) if (!index.has(node)) connect(node);

/** The shortest cycle through `start` inside its component (breadth first), start to start. */
function cycleThrough(start, component) {
  const inside = new Set(component);
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const next of follows(node)) {
      if (!inside.has(next)) continue;
      if (next === start) {
        const path = [node];
        for (let at = previous.get(node); at !== null; at = previous.get(at)) path.unshift(at);
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

for (const component of components) {
  const cycle = cycleThrough(component[0], component);
  const steps = cycle.slice(1).map((to, i) => `    ${featureEdges.get(cycle[i]).get(to)}`);
  problems.push(
    `feature cycle: ${cycle.join(' → ')} (features in this knot: ${component.join(', ')})\n${steps.join('\n')}`,
  );
}
for (const line of plumbingImports) problems.push(`plumbing imports a feature: ${line}`);

// --- The graph as docs/architecture.md shows it ------------------------------------------------

/**
 * Each side's features from the top down, one a line with the features it imports: a feature's
 * level is one above the highest it imports, so every line imports only lines below it (but for
 * the known client imports, marked ↺). Generated
 * (`node scripts/check-cycles.mjs --write-graph`) and checked by scripts/check-cycles.test.ts, so
 * the document cannot drift from the code.
 */
function graphText() {
  const sections = [];
  for (const side of ['server', 'client']) {
    const folder = path.join(src, side, 'features');
    const folders = fs.existsSync(folder)
      ? fs
          .readdirSync(folder, { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => `${side}:${entry.name}`)
      : [];
    const names = [...new Set([...features, ...folders])]
      .filter((name) => name.startsWith(`${side}:`))
      .sort();
    const level = new Map();
    const levelOf = (name, seen = new Set()) => {
      if (level.has(name)) return level.get(name);
      if (seen.has(name)) return 0;
      seen.add(name);
      const below = follows(name).map((to) => levelOf(to, seen));
      const value = below.length === 0 ? 0 : 1 + Math.max(...below);
      level.set(name, value);
      return value;
    };
    const short = (name) => name.slice(side.length + 1);
    const rows = names
      .map((name) => ({ name, level: levelOf(name) }))
      .sort((a, b) => b.level - a.level || a.name.localeCompare(b.name))
      .map(({ name, level: at }) => {
        const imports = [...(featureEdges.get(name)?.keys() ?? [])]
          .map((to) => `${short(to)}${setAside.has(`${name} -> ${to}`) ? ' ↺' : ''}`)
          .sort();
        return `${String(at).padStart(2)}  ${short(name).padEnd(14)}${imports.length > 0 ? `→ ${imports.join(', ')}` : ''}`.trimEnd();
      });
    sections.push(`${side} (level, feature → the features it imports)\n${rows.join('\n')}`);
  }
  if (setAside.size > 0)
    sections.push('↺ a known client import that still closes a cycle (listed in check-cycles.mjs)');
  return `\`\`\`\n${sections.join('\n\n')}\n\`\`\``;
}

const graphStart =
  '<!-- feature-graph: generated by node scripts/check-cycles.mjs --write-graph -->';
const graphEnd = '<!-- /feature-graph -->';
if (graphMode === 'print') console.log(graphText());
if (graphMode === 'write') {
  const doc = path.join(root, 'docs/architecture.md');
  const text = fs.readFileSync(doc, 'utf8');
  const start = text.indexOf(graphStart);
  const end = text.indexOf(graphEnd);
  if (start < 0 || end < start) throw new Error(`${doc} has no ${graphStart} … ${graphEnd}`);
  fs.writeFileSync(
    doc,
    `${text.slice(0, start + graphStart.length)}\n\n${graphText()}\n\n${text.slice(end)}`,
  );
}

if (fileCycles.length > 0 || problems.length > 0) {
  for (const cycle of fileCycles) console.error(`import cycle: ${cycle.join(' → ')}`);
  for (const problem of problems) console.error(problem);
  process.exit(1);
}
console.log(
  `no import cycles in ${graph.size} files; ${features.size} features depend one way; plumbing imports no feature`,
);
