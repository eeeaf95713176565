import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { ErrorBoundary } from './error-boundary.tsx';

/**
 * The pages below a frame: a spinner while a page's code downloads; one that fails to render (or to
 * download) shows 'Unexpected error' inside the frame, and going to another page tries again.
 */
export function RouteErrors() {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary resetKey={pathname}>
      <Suspense fallback={<Spinner screen label="Loading the page…" />}>
        <Outlet />
      </Suspense>
    </ErrorBoundary>
  );
}
