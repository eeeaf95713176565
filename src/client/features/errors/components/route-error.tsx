import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { reportError } from '#client/lib/error-reporting.ts';
import { UnexpectedError } from './unexpected-error.tsx';

/** The router's error element: a render or loader error in any route ends here. */
export function RouteError() {
  const error = useRouteError();
  useEffect(() => {
    reportError(error, 'fatal', 'route');
  }, [error]);
  return <UnexpectedError />;
}
