// Fails when a feature is not found under the same name in all three places (issue 12): a folder
// in src/server/features/ and in src/client/features/, and its contract in src/shared/<name>.ts.
// A folder that has no counterpart on purpose is listed below with the reason.
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

if (problems.length > 0) {
  console.error(`Feature folders do not line up:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`Feature folders line up (${server.size} server, ${client.size} client).`);
