// First, before any module builds a zod schema (see the file).
import './lib/zod-config.ts';
import { StrictMode } from 'react';
import { render as renderOver, type VNode } from 'preact';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
import { preloadRoute } from './router.tsx';
import { adoptLeadsIdCookie, rehydrateAppState } from './lib/app-state.ts';
import { registerClick } from './lib/clicks.ts';
import { rewriteLegacyUrl } from './lib/legacy-url.ts';
import { replayEarlyInput } from './lib/early-input.ts';
import { adoptPageData } from './lib/page-data.ts';
import { createQueryClient } from './lib/query-client.ts';
import { reportError } from './lib/error-reporting.ts';
import './styles.css';

// Before the router reads the address: `/#/faq` becomes `/faq` (spec §2).
rewriteLegacyUrl(window.location, window.history);

// Errors nothing else caught, from the first moment (Sentry itself loads only with the first report).
window.addEventListener('error', (event) =>
  reportError(event.error ?? event.message, 'error', 'uncaught'),
);
window.addEventListener('unhandledrejection', (event) =>
  reportError(event.reason, 'error', 'unhandled'),
);

/** Resolves once the browser has drawn a frame (a timer after the next animation frame). */
const afterNextPaint = () =>
  new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

// Spec §4: an inbound leads-id cookie moves to local storage; the persisted login and online-visit
// state is read back (giving up after 5000 ms) before the first render.
adoptLeadsIdCookie();
// Spec §4: this visit's click, once per browser session (it never holds up the first render).
void registerClick();
void rehydrateAppState().then(async () => {
  const queryClient = createQueryClient();
  const app = (
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>
  );
  // A page drawn by the server (decision 011): with the data it was drawn from, the first render
  // draws the same and takes the server's markup over instead of replacing it.
  if (adoptPageData(queryClient)) {
    // The drawn page shows first: nothing below holds up its first paint.
    await afterNextPaint();
    // The page's own code too, so the first render draws the page rather than a spinner. (Should
    // that download fail, the page asks again as it renders, and says so if it cannot.)
    await preloadRoute(window.location.pathname).catch(() => undefined);
    // Preact's own render keeps the elements already in the root and corrects any attribute or text
    // that differs (a member's header, a filled cart); React DOM's `createRoot` (Preact's too)
    // empties the root first, and `hydrateRoot` would leave such differences uncorrected.
    renderOver(app as unknown as VNode, root);
  } else {
    createRoot(root).render(app);
  }
  // What was clicked on the drawn page before now, once the page's effects have run.
  await afterNextPaint();
  replayEarlyInput();
});
