import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { site } from '#shared/site.ts';
import { buttonClass } from '#client/components/ui/button.ts';
import { paths } from '#shared/paths.ts';
import { NoIndex, PageTitle } from '#client/components/layout/document-head.tsx';

/** A missing page; `children` may suggest where to go instead (below the two ways back). */
export function NotFoundPage({ children }: { children?: ReactNode }) {
  return (
    <div className="container-page flex min-h-[60vh] flex-col items-center justify-center py-16 text-center">
      <PageTitle>{`Page not found — ${site.name}`}</PageTitle>
      <NoIndex />
      <p className="text-sm font-semibold uppercase tracking-wider text-accent-800">Error 404</p>
      <h1 className="mt-3 text-4xl text-ink">We can't find that page</h1>
      <p className="mt-4 max-w-md text-ink-soft">
        The page you were looking for has moved or no longer exists. Let's get you back on track.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to={paths.home} className={buttonClass('primary', 'lg')}>
          Go to the home page
        </Link>
        <Link to={paths.faq} className={buttonClass('secondary', 'lg')}>
          Read the FAQ
        </Link>
      </div>
      {children}
    </div>
  );
}
