import { Outlet } from 'react-router';
import { ScrollRestoration } from './scroll-restoration.tsx';
import { SiteFooter } from './site-footer.tsx';
import { SiteHeader } from './site-header.tsx';
import { VersionBanner } from './version-banner.tsx';

/** The public frame: version banner, header, the page, footer. */
export function SiteLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <VersionBanner />
      <SiteHeader />
      <main id="main" className="flex-1" tabIndex={-1}>
        <Outlet />
      </main>
      <SiteFooter />
      <ScrollRestoration />
    </div>
  );
}
