// First, before any module builds a zod schema (see the file).
import './lib/zod-config.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
import { adoptLeadsIdCookie, rehydrateAppState } from './lib/app-state.ts';
import { registerClick } from './lib/clicks.ts';
import { rewriteLegacyUrl } from './lib/legacy-url.ts';
import { createQueryClient } from './lib/query-client.ts';
import { reportError } from './lib/error-reporting.ts';
import './styles.css';

// Before the router reads the address: `/#/faq` becomes `/faq` (spec §2).
rewriteLegacyUrl(window.location, window.history);

window.addEventListener('unhandledrejection', (event) =>
  reportError(event.reason, 'error', 'unhandled'),
);

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

// Spec §4: an inbound leads-id cookie moves to local storage; the persisted login and online-visit
// state is read back (giving up after 5000 ms) before the first render.
adoptLeadsIdCookie();
// Spec §4: this visit's click, once per browser session (it never holds up the first render).
void registerClick();
void rehydrateAppState().then(() => {
  createRoot(root).render(
    <StrictMode>
      <App queryClient={createQueryClient()} />
    </StrictMode>,
  );
});
