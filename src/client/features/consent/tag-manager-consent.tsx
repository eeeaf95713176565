import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { tagManagerPage } from '#shared/tag-manager.ts';
import { tagManagerId } from '#client/lib/consent.ts';
import { documentAllowsTagManager, useConsent } from './consent-store.ts';
import type { ConsentBanner } from './consent-banner.tsx';

type Banner = typeof ConsentBanner;

/**
 * The operator's tag manager on the public pages (GTM_ID, decision 020): the consent banner while
 * no choice is kept (or "Cookie settings" reopened it), and the tag manager itself once consent is
 * given. Without GTM_ID, and on member, visit and staff pages, nothing: no banner, no download.
 */
export function TagManagerConsent() {
  const id = tagManagerId();
  const location = useLocation();
  const { choice, settingsOpen } = useConsent();
  const publicPage = id !== null && tagManagerPage(location.pathname, location.search);
  const asking = publicPage && (choice === null || settingsOpen);

  // The banner's code arrives after the first render, which so matches the server's prerender
  // (it knows no visitor's choice). Should it fail to arrive, nothing is asked, and nothing loads.
  const [Banner, setBanner] = useState<{ component: Banner } | null>(null);
  useEffect(() => {
    if (!asking || Banner) return;
    let live = true;
    import('./consent-banner.tsx')
      .then((module) => {
        if (live) setBanner({ component: module.ConsentBanner });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [asking, Banner]);

  useEffect(() => {
    if (!id || !publicPage || choice !== 'granted' || !documentAllowsTagManager()) return;
    import('./tag-manager.ts').then((module) => module.loadTagManager(id)).catch(() => undefined);
  }, [id, publicPage, choice]);

  if (!asking || !Banner) return null;
  return <Banner.component reopened={settingsOpen} />;
}
