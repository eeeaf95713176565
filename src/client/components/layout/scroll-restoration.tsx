import { useEffect, useLayoutEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router';

/** Where each entry of this tab's history was scrolled to, by the router's location key. */
const positions = new Map<string, number>();

/**
 * A new page starts at the top (or at the element its #hash names); Back and Forward return to where
 * the page was left.
 */
export function ScrollRestoration() {
  const { key, hash } = useLocation();
  const navigationType = useNavigationType();

  useEffect(() => {
    window.history.scrollRestoration = 'manual';
  }, []);

  useLayoutEffect(() => {
    const saved = positions.get(key);
    if (navigationType === 'POP' && saved !== undefined) window.scrollTo(0, saved);
    else if (hash) {
      const target = document.getElementById(decodeURIComponent(hash.slice(1)));
      if (target) target.scrollIntoView();
      else window.scrollTo(0, 0);
    } else window.scrollTo(0, 0);
    const remember = () => positions.set(key, window.scrollY);
    window.addEventListener('scroll', remember, { passive: true });
    return () => window.removeEventListener('scroll', remember);
  }, [key, hash, navigationType]);

  return null;
}
