// `npm run dev`: the API server with reload on change (tsx watch, port 3000) and the Vite dev
// server with hot reload (port 5173, proxying /lapi to the API server).
import { spawn } from 'node:child_process';

const children = [
  // On loopback unless HOST says otherwise, like Vite: /dev/outbox (reset links) is served only
  // then (docs/decisions/013-fail-closed.md).
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'src/server/main.ts'], {
    stdio: 'inherit',
    env: { HOST: '127.0.0.1', ...process.env },
  }),
  spawn('npx', ['vite'], { stdio: 'inherit' }),
];

const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) {
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
}
