// The browser entry (see README.md). First, before any module builds a zod schema (see the file).
import '../lib/zod-config.ts';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from '../app.tsx';
import { preloadRoute } from '../router.tsx';
import { adoptLeadsIdCookie, rehydrateAppState } from '../lib/app-state.ts';
import { registerClick } from '../features/clicks/clicks.ts';
import { rewriteLegacyUrl } from '../lib/legacy-url.ts';
import { createQueryClient } from '../lib/query-client.ts';
import { reportError } from '../lib/error-reporting.ts';
import { initConsent } from '../lib/consent.ts';
import { readPageData } from './page-data.ts';
import { replayEarlyInput } from './replay-early-input.ts';
import '../styles.css';

// Before the router reads the address: `/#/faq` becomes `/faq` (spec §2).
rewriteLegacyUrl(window.location, window.history);

// Consent Mode v2's defaults (all denied) lead the data layer, before any event (decision 020).
initConsent();

// Errors nothing else caught, from the first moment (Sentry itself loads only with the first report).
window.addEventListener('error', (event) =>
  reportError(event.error ?? event.message, 'error', 'uncaught'),
);
window.addEventListener('unhandledrejection', (event) =>
  reportError(event.reason, 'error', 'unhandled'),
);

/** Resolves once the effects of the last render have run (Preact runs them after a frame). */
const afterEffects = () =>
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
  const app = <App queryClient={queryClient} />;
  if (readPageData(queryClient)) {
    // A prerendered page. Its lazy page's code first, so hydration renders the page rather than a
    // spinner (should that download fail, the page asks again as it renders, and says so if it
    // cannot). Hydration renders what the server rendered — a visitor's view — and keeps its
    // elements; what this browser's storage says (a member's header, a filled cart) follows.
    await preloadRoute(window.location.pathname).catch(() => undefined);
    hydrateRoot(root, app);
  } else {
    createRoot(root).render(app);
  }
  // From now on clicks reach the app; those the early-input script held are replayed, once the
  // first render's effects have run. (Every page loads that script, so every page ends its hold.)
  await afterEffects();
  replayEarlyInput();
});
