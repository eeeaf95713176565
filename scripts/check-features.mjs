// Fails when a feature is not found under the same name in all three places (issue 12): a folder
// in src/server/features/ and in src/client/features/, and its contract in src/shared/<name>.ts.
// A folder that has no counterpart on purpose is listed below with the reason.
//
// And fails when the contract forks (issue 27): an endpoint declared in one feature's contract
// (`export const <x>Api = { name: endpoint({…}) }` in src/shared/<feature>.ts) is registered with
// `route()` by another feature's server code, or called with `call()` / `callWithMessage()` by
// another feature's client code, or by code outside every feature. The frames that serve another
// feature's endpoints on purpose are listed below with the reason.
import fs from 'node:fs';
import path from 'node:path';

/** The repository to check (the current directory unless named: the test checks made-up trees). */
const root = process.argv[2] ?? '.';
const at = (...parts) => path.join(root, ...parts);

const serverOnly = {
  billing: "the renewal job; its notices are emails and its screens are subscriptions'",
  payments: 'the gateway ledger and its reconciliation job; no screen of its own',
  coupons: "the coupon rules; the coupon endpoints and screens are the cart's",
  health: '/healthz for the load balancer',
  'dev-outbox': 'the development mail viewer, loopback only (decision 013)',
  member:
    "the member area's frame (basics, patient data, the lander): composed above accounts, orders and visits, whose screens show it",
};
const clientOnly = {
  'static-pages': 'the FAQ and text pages, content only',
  errors: 'the not-found and unexpected-error pages',
  consent: "the tag manager's consent banner and loader; the server's part is GTM_ID and the CSP",
};

/**
 * Contract files whose feature is not their name: `<feature>-<part>.ts` belongs to <feature>; these
 * others are named here.
 */
const contractOwners = {
  session: {
    feature: 'auth',
    reason:
      "whether this browser is logged in, kept apart from auth.ts so the storefront's first load does not bring the log-in forms' schemas",
  },
};

/** Endpoints a feature serves though another declares them, by serving feature, with the reason. */
const frames = {
  member: {
    reason:
      "the member area's frame composes accounts' basics and patient data and orders' lander, which those features declare because their screens show them",
    endpoints: ['accountsApi.basics', 'accountsApi.patientData', 'ordersApi.ordersDetails'],
  },
};

const folders = (dir) =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

const server = new Set(folders(at('src/server/features')));
const client = new Set(folders(at('src/client/features')));
const problems = [];

for (const name of server)
  if (!client.has(name) && !(name in serverOnly))
    problems.push(`src/server/features/${name}/ has no src/client/features/${name}/`);
for (const name of client)
  if (!server.has(name) && !(name in clientOnly))
    problems.push(`src/client/features/${name}/ has no src/server/features/${name}/`);
for (const name of server)
  if (client.has(name) && !fs.existsSync(at(`src/shared/${name}.ts`)))
    problems.push(`feature ${name} has no contract in src/shared/${name}.ts`);
for (const [name, list, dir] of [
  ...Object.keys(serverOnly).map((name) => [name, server, 'server']),
  ...Object.keys(clientOnly).map((name) => [name, client, 'client']),
])
  if (!list.has(name))
    problems.push(`allow-list names src/${dir}/features/${name}/, which is gone`);

// --- The contract: each endpoint served and called by the feature that declares it ---------------

const sourceFiles = (dir) =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { withFileTypes: true, recursive: true })
        .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
        .map((entry) => path.join(entry.parentPath, entry.name))
        .filter((file) => !/\.test\.tsx?$/.test(file))
    : [];
const read = (file) => fs.readFileSync(file, 'utf8');
const shown = (file) => path.relative(root, file);

/** `xxxApi` → the feature whose contract declares it. */
const ownerOf = new Map();
/** `xxxApi.name` → whether its declaration says it is API-only (`apiOnly`, contract.ts). */
const apiOnly = new Map();
for (const file of sourceFiles(at('src/shared'))) {
  const base = path.basename(file).replace(/\.tsx?$/, '');
  // A contract is its feature's when a feature has its whole name (`treatment-requests`), else the
  // feature before its first dash (`visits-…`).
  const named = ['src/server/features', 'src/client/features'].some((dir) =>
    fs.existsSync(at(dir, base)),
  );
  const feature = contractOwners[base]?.feature ?? (named ? base : base.split('-')[0]);
  for (const [, name, members] of read(file).matchAll(
    /export const (\w+Api) = \{([\s\S]*?)\n\};/g,
  )) {
    ownerOf.set(name, feature);
    const declarations = members.split(/^(?= {2}\w+: endpoint\()/m);
    for (const declaration of declarations) {
      const endpointName = /^ {2}(\w+): endpoint\(/.exec(declaration)?.[1];
      if (endpointName) apiOnly.set(`${name}.${endpointName}`, /\bapiOnly:/.test(declaration));
    }
  }
}
for (const name of Object.keys(contractOwners))
  if (!fs.existsSync(at(`src/shared/${name}.ts`)))
    problems.push(`contract owners name src/shared/${name}.ts, which is gone`);

/** The feature a file under src/<side>/features/ belongs to, or null for code outside them. */
const featureOf = (side, file) => {
  const [top, name] = path.relative(at(`src/${side}`), file).split(path.sep);
  return top === 'features' ? name : null;
};

const usedFrames = new Set();
function checkUse(side, file, verb, api, name) {
  const owner = ownerOf.get(api);
  if (!owner) return;
  const feature = featureOf(side, file);
  const endpointName = `${api}.${name}`;
  if (feature === owner) return;
  if (side === 'server' && frames[feature]?.endpoints.includes(endpointName)) {
    usedFrames.add(`${feature} ${endpointName}`);
    return;
  }
  problems.push(
    `${endpointName} is declared by ${owner} but ${verb} ${feature ? `by ${feature}` : 'outside every feature'} (${shown(file)})`,
  );
}

for (const file of sourceFiles(at('src/server')))
  for (const [, api, name] of read(file).matchAll(/\broute\(\s*\w+,\s*(\w+Api)\.(\w+)/g))
    checkUse('server', file, 'served', api, name);
for (const file of sourceFiles(at('src/client')))
  for (const [, api, name] of read(file).matchAll(
    /\b(?:call|callWithMessage)\(\s*(\w+Api)\.(\w+)/g,
  ))
    checkUse('client', file, 'called', api, name);
// An endpoint no screen calls says why it exists (`apiOnly`); one a screen calls does not claim to
// be API-only.
const clientText = sourceFiles(at('src/client')).map(read).join('\n');
for (const [endpointName, marked] of apiOnly) {
  const named = new RegExp(`\\b${endpointName.replace('.', '\\.')}\\b`).test(clientText);
  if (!named && !marked)
    problems.push(
      `${endpointName} is called by no screen: delete it, or say why it stays (apiOnly)`,
    );
  if (named && marked) problems.push(`${endpointName} is marked apiOnly, but the client names it`);
}

for (const [feature, { endpoints }] of Object.entries(frames))
  for (const endpointName of endpoints)
    if (ownerOf.has(endpointName.split('.')[0]) && !usedFrames.has(`${feature} ${endpointName}`))
      problems.push(`frames list ${endpointName} for ${feature}, which no longer serves it`);

if (problems.length > 0) {
  console.error(`Features do not line up:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `Feature folders line up (${server.size} server, ${client.size} client); each of ${ownerOf.size} contracts is served and called by its own feature; ${[...apiOnly.values()].filter(Boolean).length} of ${apiOnly.size} endpoints are API-only.`,
);
