import { useQuery } from '@tanstack/react-query';
import { trackVisitStarted } from '#client/lib/analytics.ts';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '#shared/paths.ts';
import { messages } from '#shared/wording.ts';
import { visitsApi, type ProgramCategory } from '#shared/visits.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { LoadError } from '#client/components/ui/load-error.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { useVerifyAuth } from '#client/features/auth/session.api.ts';
import { ApiError, failedWith } from '#client/lib/api.ts';
import { getAppState, useLeadsId } from '#client/lib/app-state.ts';
import { useVisitContext } from '../components/visit-layout.tsx';
import { VisitorEligibility } from '../components/visitor-eligibility.tsx';
import { rememberVisit, visitDestination } from '../visit-state.ts';
import { forgetEligibility, keptEligibility } from '../visitor-eligibility.ts';
import { checkEligibility, startProgram } from '../visits.api.ts';

interface OpenedVisit {
  visitId: number;
  destination: string;
  /** For the ineligible screen: why, and the supplement that may help instead. */
  closed: { reason: string | null; supplementSlug: string | null } | null;
}

/**
 * The program's visit, opened or resumed: its id and the screen it is on. A visit still on its
 * eligibility step takes the answers the patient gave on the first screen before their account
 * existed, so the date of birth is asked once; they are forgotten once the visit has them.
 */
async function openVisit(leadsId: string, category: ProgramCategory): Promise<OpenedVisit> {
  try {
    const opened = await startProgram(leadsId, category);
    // "Started", nothing more: no program, no answer, no address (decision 020).
    trackVisitStarted();
    const destination = visitDestination(opened.destination, category);
    if (!destination) throw new ApiError(200, 'BAD_RESPONSE', messages.consultationFailed);
    const kept = keptEligibility(category);
    if (!kept || destination !== paths.visitScreen(category, 'eligibility')) {
      forgetEligibility();
      return { visitId: opened.visit_id, destination, closed: null };
    }
    try {
      const outcome = await checkEligibility({
        visit_id: opened.visit_id,
        state: kept.state,
        dob: kept.dob,
      });
      forgetEligibility();
      return {
        visitId: opened.visit_id,
        destination: visitDestination(outcome.destination, category) ?? destination,
        closed: outcome.eligible
          ? null
          : { reason: outcome.reason, supplementSlug: outcome.supplement_slug },
      };
    } catch (error) {
      // Answers the visit refuses (a date that no longer passes, a visit closed meanwhile): the
      // eligibility screen asks again, with the server's word on it.
      if (!failedWith(error, visitsApi.eligibility, 'VALIDATION', 'VISIT_CLOSED')) throw error;
      forgetEligibility();
      return { visitId: opened.visit_id, destination, closed: null };
    }
  } catch (error) {
    throw error instanceof ApiError ? error : new Error(messages.consultationFailed);
  }
}

/** A patient's visit: opened or resumed, then the screen the server says it is on. */
function OpenVisit({ leadsId }: { leadsId: string }) {
  const { category } = useVisitContext();
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
    void navigate(visit.destination, { replace: true, state: visit.closed });
  }, [visit, category, navigate]);

  return (
    <QueryView query={opened} loading="Opening your visit…">
      {() => <Spinner block label="Opening your visit…" />}
    </QueryView>
  );
}

/**
 * /visit/:category, where "Start your visit" leads. A visitor starts with the program's
 * eligibility, answered here, and creates their account as the next step of the visit. A patient's
 * visit opens, or the one in progress resumes: opening resumes, so asking again opens nothing new,
 * and it is read like any other server state, afresh each time the page opens.
 */
export function StartVisitPage() {
  const leadsId = useLeadsId();
  // Without a leads id this browser has no session to ask about.
  const verify = useVerifyAuth({ enabled: leadsId !== null });
  const user = verify.data?.authenticated ? verify.data.user : null;

  if (leadsId === null || verify.data?.authenticated === false) return <VisitorEligibility />;
  if (verify.isError && !user)
    return <LoadError message={verify.error.message} onRetry={() => void verify.refetch()} />;
  if (!user) return <Spinner block label="Checking your session…" />;
  return <OpenVisit leadsId={user.leads_id} />;
}
