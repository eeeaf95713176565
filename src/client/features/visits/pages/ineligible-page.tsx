import { ClosedVisitScreen } from '../components/closed-visit.tsx';
import { WithVisit } from '../components/with-visit.tsx';

/**
 * /visit/:category/ineligible: the visit cannot go on (state or age), said plainly and kindly, as
 * the server stored it — with the supplement, and "tell me when my state opens" where that fits.
 * Opening the program again comes back here rather than asking for another state or age.
 */
export function IneligiblePage() {
  return <WithVisit>{(visitId) => <ClosedVisitScreen visitId={visitId} />}</WithVisit>;
}
