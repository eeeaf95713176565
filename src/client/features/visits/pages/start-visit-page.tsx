import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { messages } from '#shared/messages.ts';
import { LoadError } from '#client/components/ui/load-error.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { ApiError } from '#client/lib/api.ts';
import { getAppState, useLeadsId } from '#client/lib/app-state.ts';
import { useVisitContext } from '../components/visit-layout.tsx';
import { rememberVisit, visitDestination } from '../visit-state.ts';
import { startProgram } from '../visits.api.ts';

/**
 * /visit/:category: starts the program's visit, or resumes the one in progress, and goes to the
 * screen the server says the visit is on.
 */
export function StartVisitPage() {
  const { category } = useVisitContext();
  const leadsId = useLeadsId();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);

  const start = useCallback(async () => {
    setError(null);
    try {
      const result = await startProgram(leadsId ?? '', category);
      rememberVisit(getAppState().onlineVisit.user, category, result.visit_id);
      const to = visitDestination(result.destination, category);
      if (!to) throw new ApiError(200, 'BAD_RESPONSE', messages.consultationFailed);
      await navigate(to, { replace: true });
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : messages.consultationFailed);
    }
  }, [leadsId, category, navigate]);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void start();
  }, [start]);

  if (error) return <LoadError message={error} onRetry={() => void start()} />;
  return <Spinner block label="Opening your visit…" />;
}
