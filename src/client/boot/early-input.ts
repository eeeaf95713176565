// Early input: the tiny script a page loads (`async`, before the app's code) so that what a visitor
// does on a prerendered page before it is hydrated is kept, and so that the app's code — the
// deferred entry — is asked for only once the prerendered page has painted. Its own Vite entry:
// it imports nothing, so it stays a single small file (see README.md).

/** What is kept until hydration: a control clicked and, for a box or an answer, its new state. */
export interface EarlyInput {
  /** True once the app has hydrated the page: from then on clicks reach it directly. */
  hydrated: boolean;
  clicks: { control: Element; checked?: boolean; open?: boolean }[];
}

declare global {
  interface Window {
    earlyInput?: EarlyInput;
  }
}

/** The controls whose clicks the app alone acts on (a link and typing need no help). */
const CONTROLS = 'button, input[type="radio"], input[type="checkbox"], summary';

function keepClicks(early: EarlyInput): void {
  document.addEventListener(
    'click',
    (event) => {
      if (early.hydrated || !(event.target instanceof Element)) return;
      const control = event.target.closest(CONTROLS);
      if (!control) return;
      if (control.localName === 'summary') {
        // The answer opens or closes as usual; hydration would set it back as the markup says.
        const details = control.parentElement;
        if (details instanceof HTMLDetailsElement)
          early.clicks.push({ control: details, open: !details.open });
      } else if (control.localName === 'button') {
        // For the app alone: the browser does nothing with it now.
        event.preventDefault();
        event.stopPropagation();
        // A double click on "Log in" is one log-in.
        if (early.clicks.at(-1)?.control !== control) early.clicks.push({ control });
      } else if (control instanceof HTMLInputElement) {
        // The box ticks as usual (it already has, as the click is dispatched); the app is told
        // once it has hydrated the page.
        early.clicks.push({ control, checked: control.checked });
      }
    },
    true,
  );
  // A form is never sent by the browser itself, so what was typed stays out of the address.
  document.addEventListener(
    'submit',
    (event) => {
      if (!early.hydrated) event.preventDefault();
    },
    true,
  );
}

/**
 * A prerendered page names the app's entry and the modules it imports in `<meta>` elements
 * instead of loading them (the deferred entry): the page paints first, then they are fetched, all
 * at once.
 */
function loadDeferredEntry(): void {
  const entry = document.querySelector<HTMLMetaElement>('meta[name="deferred-entry"]');
  if (!entry) return;
  for (const module of document.querySelectorAll<HTMLMetaElement>(
    'meta[name="deferred-entry-preload"]',
  )) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = module.content;
    document.head.append(link);
  }
  const script = document.createElement('script');
  script.type = 'module';
  script.crossOrigin = '';
  script.src = entry.content;
  document.head.append(script);
}

/**
 * After the next frame has painted; or, in a tab opened in the background (which paints no
 * frames), within a second all the same.
 */
function afterFirstPaint(load: () => void): void {
  let asked = false;
  const once = () => {
    if (asked) return;
    asked = true;
    load();
  };
  const schedule = () => {
    requestAnimationFrame(() => setTimeout(once, 0));
    setTimeout(once, 1000);
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', schedule);
  else schedule();
}

// Loaded `async`, this script may run after the app has already rendered (an app shell whose code
// was cached): the app then left its mark, and there is nothing to hold.
if (!window.earlyInput?.hydrated) {
  const early: EarlyInput = { hydrated: false, clicks: [] };
  window.earlyInput = early;
  keepClicks(early);
  afterFirstPaint(loadDeferredEntry);
}
