import { useNavigate } from 'react-router';
import { useVisitContext, visitCardClass } from '../components/visit-layout.tsx';
import { EligibilityFormView } from '../components/eligibility-form.tsx';
import { WithVisit } from '../components/with-visit.tsx';
import { visitDestination } from '../visit-state.ts';
import { paths } from '#shared/paths.ts';

/** /visit/:category/eligibility: where the patient lives and their age, before any health question. */
export function EligibilityPage() {
  const { category, program } = useVisitContext();
  const navigate = useNavigate();
  return (
    <section aria-labelledby="eligibility-title" className={visitCardClass}>
      <h2 id="eligibility-title" className="text-2xl text-ink">
        First, a few details
      </h2>
      <p className="mt-2 text-ink-soft">
        Our providers are licensed in certain states, and {program.name} treatment is for adults
        aged 19 to 99. This takes a few seconds.
      </p>
      <div className="mt-6">
        <WithVisit>
          {(visitId) => (
            <EligibilityFormView
              visitId={visitId}
              onResult={async (outcome) => {
                const to = visitDestination(outcome.destination, category) ?? paths.visit(category);
                await navigate(to, {
                  replace: !outcome.eligible,
                  state: outcome.eligible
                    ? null
                    : { reason: outcome.reason, supplementSlug: outcome.supplement_slug },
                });
              }}
            />
          )}
        </WithVisit>
      </div>
    </section>
  );
}
