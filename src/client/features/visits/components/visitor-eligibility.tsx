import { Link, useLocation, useNavigate } from 'react-router';
import { paths } from '#shared/paths.ts';
import { textLinkClass } from '#client/components/ui/button.ts';
import { keepEligibility, keptEligibility, type VisitorVerdict } from '../visitor-eligibility.ts';
import { checkVisitorEligibility } from '../visits.api.ts';
import { EligibilityFormView } from './eligibility-form.tsx';
import { useVisitContext, visitCardClass } from './visit-layout.tsx';

/**
 * A visitor's first screen of a visit: the program's eligibility (state and date of birth), before
 * any account. Eligible, the next step creates the account; not eligible, the visitor learns why
 * and what may help instead, with no account made.
 */
export function VisitorEligibility() {
  const { category, program } = useVisitContext();
  const navigate = useNavigate();
  const kept = keptEligibility(category);
  // Back from "Change the state you live in": the date of birth they gave, the state to choose.
  const back = (useLocation().state ?? {}) as { dob?: unknown };
  const defaults = kept
    ? { state: kept.state, dob: kept.dob }
    : typeof back.dob === 'string'
      ? { state: '', dob: back.dob }
      : null;
  return (
    <section aria-labelledby="eligibility-title" className={visitCardClass}>
      <h2 id="eligibility-title" className="text-2xl text-ink">
        First, a few details
      </h2>
      <p className="mt-2 text-ink-soft">
        Our providers are licensed in certain states, and {program.name} treatment is for adults
        aged 19 to 99. This takes a few seconds, and no account is needed yet.
      </p>
      <div className="mt-6">
        <EligibilityFormView
          {...(defaults ? { defaultValues: defaults } : {})}
          onSubmit={async (values) => {
            const verdict = await checkVisitorEligibility({ category, ...values });
            if (verdict.eligible) {
              keepEligibility({ category, state: values.state, dob: values.dob });
              await navigate(paths.visitScreen(category, 'account'));
            } else {
              await navigate(paths.visitScreen(category, 'ineligible'), {
                state: {
                  reason: verdict.reason,
                  supplementSlug: verdict.supplement_slug,
                  closedState: verdict.state_closed ? values.state : null,
                  dob: values.dob,
                } satisfies VisitorVerdict,
              });
            }
          }}
        />
      </div>
      <p className="mt-6 border-t border-line pt-5 text-[0.9375rem] text-ink-soft">
        Already have an account?{' '}
        <Link to={`${paths.visitScreen(category, 'account')}?mode=login`} className={textLinkClass}>
          Log in to continue your visit
        </Link>
      </p>
    </section>
  );
}
