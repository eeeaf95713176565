import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { site } from '#shared/site.ts';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { showToast } from '#client/components/ui/toast.tsx';
import { clearBrowserState } from '#client/lib/app-state.ts';
import { paths } from '#shared/paths.ts';
import { PageTitle } from '#client/components/layout/document-head.tsx';
import { logOut } from '../auth.api.ts';
import { isUnauthenticated } from '../session.api.ts';

/**
 * /logout (spec §4 Logout): ends the session on the server, then forgets everything this browser
 * kept: all local storage, the click id, the query cache. If the server could not end the session
 * the customer is told and stays logged in, rather than being shown a log-in page while the
 * session lives on.
 */
export function LogoutPage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void (async () => {
      try {
        await logOut();
      } catch (error) {
        if (!isUnauthenticated(error)) {
          showToast({
            kind: 'error',
            title: "We couldn't log you out",
            description: error instanceof Error ? error.message : undefined,
          });
          await navigate(paths.dashboard, { replace: true });
          return;
        }
      }
      queryClient.clear();
      clearBrowserState();
      showToast({ kind: 'success', title: "You're logged out", description: 'See you soon.' });
      await navigate(paths.login, { replace: true });
    })();
  }, [navigate, queryClient]);

  return (
    <>
      <PageTitle>{`Log out — ${site.name}`}</PageTitle>
      <Spinner block label="Logging you out…" />
    </>
  );
}
