import { mediumDate } from '#client/components/ui/order-status.tsx';
import {
  pharmacyNow,
  pharmacyStepLabels,
  pharmacySteps,
  type PharmacyStep,
  type PharmacyTimeline,
} from '#shared/orders.ts';

/**
 * Issue 29: where the medicine of an order is, step by step (sent to the pharmacy, received,
 * filled, shipped, delivered), each done step with its date and the steps still to come muted. A
 * fill the pharmacy could not make ends the list with its reason. The current step is marked for
 * screen readers (`aria-current="step"`).
 */
export function PharmacyProgress({
  timeline,
  titleId,
}: {
  timeline: PharmacyTimeline;
  titleId: string;
}) {
  const done = new Map(timeline.steps.map((s) => [s.step, s.at] as const));
  const rejected = done.has('rejected');
  const shown: PharmacyStep[] = rejected
    ? [...pharmacySteps.filter((step) => done.has(step)), 'rejected']
    : [...pharmacySteps];
  const current = pharmacyNow(timeline)?.step;
  return (
    <section aria-labelledby={titleId} className="rounded-2xl bg-surface p-4">
      <h4 id={titleId} className="text-[0.9375rem] font-semibold text-ink">
        Your medicine
      </h4>
      <ol className="mt-3 space-y-3">
        {shown.map((step, index) => {
          const at = done.get(step);
          const failed = step === 'rejected';
          return (
            <li
              key={step}
              aria-current={step === current ? 'step' : undefined}
              className="relative flex gap-3"
            >
              {index < shown.length - 1 ? (
                <span
                  aria-hidden="true"
                  className={`absolute top-6 left-[0.6875rem] h-[calc(100%-0.75rem)] w-px ${at ? 'bg-accent-600' : 'bg-line'}`}
                />
              ) : null}
              <span
                aria-hidden="true"
                className={`relative mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-bold ${
                  failed
                    ? 'bg-danger text-white'
                    : at
                      ? 'bg-accent-700 text-white'
                      : 'border-2 border-line bg-white'
                }`}
              >
                {failed ? '!' : at ? '✓' : ''}
              </span>
              <div className="min-w-0">
                <p className={at ? 'font-medium text-ink' : 'text-muted'}>
                  {pharmacyStepLabels[step]}
                  {at ? null : <span className="sr-only"> (not yet)</span>}
                </p>
                {at ? (
                  <p className="text-sm text-muted">
                    <time dateTime={at}>{mediumDate(at)}</time>
                  </p>
                ) : null}
                {failed && timeline.rejected_reason ? (
                  <p className="mt-1 text-sm text-ink-soft">
                    {timeline.rejected_reason} Your provider will write to you in Messages.
                  </p>
                ) : null}
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
