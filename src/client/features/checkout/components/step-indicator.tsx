import { Link } from 'react-router';
import type { CheckoutStep } from '#client/lib/analytics.ts';
import { paths } from '#shared/paths.ts';

const stepPaths: Record<CheckoutStep, string> = {
  1: paths.checkoutShipping,
  2: paths.checkoutUpsell,
  3: paths.checkoutPayment,
};

const order: CheckoutStep[] = [1, 2, 3];

/**
 * The steps as the customer reads them. The spec's names (1 Shipping, 2 Upsell, 3 Payment) stay in
 * the analytics events; "Upsell" is our word, not the customer's.
 */
const stepLabels: Record<CheckoutStep, string> = { 1: 'Shipping', 2: 'Extras', 3: 'Payment' };

/** Where the customer is in the checkout (spec §4's three steps), and a way back. */
export function StepIndicator({ current }: { current: CheckoutStep }) {
  return (
    <nav aria-label="Checkout steps">
      <ol className="flex items-center gap-2 sm:gap-3">
        {order.map((step, index) => {
          const done = step < current;
          const here = step === current;
          const label = stepLabels[step];
          const dot = (
            <span
              aria-hidden="true"
              className={`grid size-8 shrink-0 place-items-center rounded-full text-sm font-bold ${
                here
                  ? 'bg-accent-700 text-white'
                  : done
                    ? 'bg-accent-100 text-accent-800'
                    : 'border border-line bg-white text-muted'
              }`}
            >
              {done ? (
                <svg
                  viewBox="0 0 20 20"
                  className="size-4"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2.5"
                >
                  <path d="M4 10.5l4 4 8-9" strokeLinecap="round" strokeLinejoin="round" />
                </svg>
              ) : (
                step
              )}
            </span>
          );
          const text = (
            <span
              className={`text-sm font-semibold ${here ? 'text-ink' : done ? 'text-accent-800' : 'text-muted'}`}
            >
              <span className="sr-only">Step {step}: </span>
              {label}
              {done ? <span className="sr-only"> (done)</span> : null}
            </span>
          );
          return (
            <li
              key={step}
              className="flex min-w-0 flex-1 items-center gap-2 sm:gap-3"
              aria-current={here ? 'step' : undefined}
            >
              {done ? (
                <Link
                  to={stepPaths[step]}
                  className="flex items-center gap-2 rounded-full pr-2 hover:underline hover:underline-offset-4"
                >
                  {dot}
                  {text}
                </Link>
              ) : (
                <span className="flex items-center gap-2">
                  {dot}
                  {text}
                </span>
              )}
              {index < order.length - 1 ? (
                <span
                  aria-hidden="true"
                  className={`h-px flex-1 ${done ? 'bg-accent-300' : 'bg-line'}`}
                />
              ) : null}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
