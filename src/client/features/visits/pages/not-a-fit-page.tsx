import { ClosedVisitScreen } from '../components/closed-visit.tsx';
import { WithVisit } from '../components/with-visit.tsx';

/**
 * /visit/:category/not-a-fit: a confirmed answer means online treatment is not safe. The patient
 * reads the questionnaire's reason (988 / 911 up front when it names them) and may ask a provider
 * to review their answers as given; once asked, this says what happens next.
 */
export function NotAFitPage() {
  return <WithVisit>{(visitId) => <ClosedVisitScreen visitId={visitId} />}</WithVisit>;
}
