import { Outlet } from 'react-router';
import { TagManagerPart } from '#client/components/layout/tag-manager-part.tsx';
import { ScrollRestoration } from '#client/components/layout/scroll-restoration.tsx';
import { SiteFooter } from './site-footer.tsx';
import { SiteHeader } from './site-header.tsx';
import { VersionBanner } from '#client/components/layout/version-banner.tsx';

const loadConsent = () =>
  import('#client/features/consent/tag-manager-consent.tsx').then(
    (module) => module.TagManagerConsent,
  );

/** The public frame: version banner, header, the page, footer, and the tag manager's consent. */
export function SiteLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <VersionBanner />
      <SiteHeader />
      <main id="main" className="flex-1" tabIndex={-1}>
        <Outlet />
      </main>
      <SiteFooter />
      <TagManagerPart load={loadConsent} props={{}} />
      <ScrollRestoration />
    </div>
  );
}
