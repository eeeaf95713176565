// Fails when the source has an import cycle (STYLE.md: no import cycles). Type-only imports vanish at
// run time and are not counted. Resolves relative imports and the package's "#…" aliases.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve('src');
const aliases = { '#shared/': 'src/shared/', '#server/': 'src/server/', '#client/': 'src/client/' };

function files(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return files(full);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

const importPattern = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

function resolve(from, specifier) {
  let target;
  for (const [alias, dir] of Object.entries(aliases)) {
    if (specifier.startsWith(alias)) target = path.resolve(dir, specifier.slice(alias.length));
  }
  if (!target && specifier.startsWith('.')) target = path.resolve(path.dirname(from), specifier);
  return target && fs.existsSync(target) ? target : null;
}

const graph = new Map();
for (const file of files(root)) {
  const source = fs.readFileSync(file, 'utf8');
  const deps = [];
  for (const match of source.matchAll(importPattern)) {
    const target = resolve(file, match[1]);
    if (target) deps.push(target);
  }
  graph.set(file, deps);
}

const state = new Map();
const stack = [];
const cycles = [];
function visit(node) {
  state.set(node, 'open');
  stack.push(node);
  for (const next of graph.get(node) ?? []) {
    if (state.get(next) === 'open') {
      cycles.push([...stack.slice(stack.indexOf(next)), next].map((f) => path.relative('.', f)));
    } else if (!state.has(next)) visit(next);
  }
  stack.pop();
  state.set(node, 'done');
}
for (const node of graph.keys()) if (!state.has(node)) visit(node);

if (cycles.length > 0) {
  for (const cycle of cycles) console.error(`import cycle: ${cycle.join(' → ')}`);
  process.exit(1);
}
console.log(`no import cycles in ${graph.size} files`);
