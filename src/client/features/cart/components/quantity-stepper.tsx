import { MAX_QUANTITY } from '#shared/cart.ts';

interface QuantityStepperProps {
  value: number;
  onChange: (next: number) => void;
  /** Names the product on the buttons, for a screen reader moving from button to button. */
  itemName?: string;
  /** The id of a visible label for the group. */
  labelledBy?: string;
  disabled?: boolean;
  min?: number;
  max?: number;
}

const stepButton =
  'grid size-10 place-items-center rounded-full text-accent-800 transition-colors hover:bg-accent-50 disabled:cursor-not-allowed disabled:text-muted/50 disabled:hover:bg-transparent';

/** − n +: a quantity from 1 to MAX_QUANTITY, with the bounds shown by disabled buttons. */
export function QuantityStepper({
  value,
  onChange,
  itemName,
  labelledBy,
  disabled = false,
  min = 1,
  max = MAX_QUANTITY,
}: QuantityStepperProps) {
  const of = itemName ? ` of ${itemName}` : '';
  return (
    <div
      role="group"
      {...(labelledBy ? { 'aria-labelledby': labelledBy } : { 'aria-label': `Quantity${of}` })}
      className="inline-flex items-center rounded-full border border-line bg-white p-0.5"
    >
      <button
        type="button"
        className={stepButton}
        aria-label={`Decrease quantity${of}`}
        disabled={disabled || value <= min}
        onClick={() => onChange(Math.max(min, value - 1))}
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          className="size-4"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.2"
        >
          <path d="M5 10h10" strokeLinecap="round" />
        </svg>
      </button>
      <output
        aria-live="polite"
        className="min-w-8 text-center font-semibold tabular-nums text-ink"
      >
        {value}
      </output>
      <button
        type="button"
        className={stepButton}
        aria-label={`Increase quantity${of}`}
        disabled={disabled || value >= max}
        onClick={() => onChange(Math.min(max, value + 1))}
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          className="size-4"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.2"
        >
          <path d="M10 5v10M5 10h10" strokeLinecap="round" />
        </svg>
      </button>
    </div>
  );
}
