import { buttonClass } from './button.ts';

interface LoadErrorProps {
  message: string;
  onRetry?: () => void;
}

/** A load that failed: its message as text (spec §8), and a way to try again. */
export function LoadError({ message, onRetry }: LoadErrorProps) {
  return (
    <div
      role="alert"
      className="rounded-2xl border border-danger/20 bg-danger-soft p-5 text-[0.9375rem] text-danger"
    >
      <p className="font-medium">{message}</p>
      {onRetry ? (
        <button type="button" onClick={onRetry} className={`${buttonClass('secondary')} mt-4`}>
          Try again
        </button>
      ) : null}
    </div>
  );
}
