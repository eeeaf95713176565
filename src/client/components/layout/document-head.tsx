import { useLayoutEffect } from 'react';

let prerenderedTitle: string | undefined;

function notePrerenderedTitle(title: string) {
  prerenderedTitle = title;
}

/** The title the page being prerendered named, once (boot/prerender.tsx). */
export function takePrerenderedTitle(): string | undefined {
  const title = prerenderedTitle;
  prerenderedTitle = undefined;
  return title;
}

/**
 * The page's title in the document head while the page is shown, and the one before it again when it
 * goes. (React 19 moves a `<title>` rendered anywhere into the head; Preact, which renders the app
 * (decision 009), leaves it where it is, so pages name their title through this.)
 */
export function PageTitle({ children }: { children: string }) {
  // Prerendered (decision 011), where effects do not run: the title goes into the page's HTML
  // instead (see `takePrerenderedTitle`).
  if (typeof document === 'undefined') notePrerenderedTitle(children);
  useLayoutEffect(() => {
    const before = document.title;
    document.title = children;
    return () => {
      document.title = before;
    };
  }, [children]);
  return null;
}

/** Asks search engines not to index the page while it is shown (the 404 page). */
export function NoIndex() {
  useLayoutEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex';
    document.head.append(meta);
    return () => meta.remove();
  }, []);
  return null;
}
