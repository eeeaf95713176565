import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { messages } from '#shared/wording.ts';
import type { ProgramCategory } from '#shared/visits.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { ApiError } from '#client/lib/api.ts';
import { getAppState, useLeadsId } from '#client/lib/app-state.ts';
import { useVisitContext } from '../components/visit-layout.tsx';
import { rememberVisit, visitDestination } from '../visit-state.ts';
import { startProgram } from '../visits.api.ts';

/** The program's visit, opened or resumed: its id and the screen it is on. */
async function openVisit(leadsId: string, category: ProgramCategory) {
  try {
    const opened = await startProgram(leadsId, category);
    const destination = visitDestination(opened.destination, category);
    if (!destination) throw new ApiError(200, 'BAD_RESPONSE', messages.consultationFailed);
    return { visitId: opened.visit_id, destination };
  } catch (error) {
    throw error instanceof ApiError ? error : new Error(messages.consultationFailed);
  }
}

/**
 * /visit/:category: starts the program's visit, or resumes the one in progress, and goes to the
 * screen the server says the visit is on. Opening resumes the visit in progress, so asking again
 * opens nothing new: it is read like any other server state, afresh each time the page opens.
 */
export function StartVisitPage() {
  const { category } = useVisitContext();
  const leadsId = useLeadsId() ?? '';
  const navigate = useNavigate();
  const opened = useQuery({
    queryKey: ['visit', 'open', leadsId, category],
    queryFn: () => openVisit(leadsId, category),
    gcTime: 0,
  });

  const visit = opened.data;
  useEffect(() => {
    if (!visit) return;
    rememberVisit(getAppState().onlineVisit.user, category, visit.visitId);
    void navigate(visit.destination, { replace: true });
  }, [visit, category, navigate]);

  return (
    <QueryView query={opened} loading="Opening your visit…">
      {() => <Spinner block label="Opening your visit…" />}
    </QueryView>
  );
}
