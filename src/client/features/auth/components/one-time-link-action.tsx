import { useState, type ReactNode } from 'react';
import { FormAlert } from '#client/components/forms/fields.tsx';
import { buttonClass } from '#client/components/ui/button.ts';
import { ApiError, errorText } from '#client/lib/api.ts';
import { reportError } from '#client/lib/error-reporting.ts';

interface OneTimeLinkActionProps {
  token: string;
  /** The button that spends the link. */
  label: string;
  spend: (body: { token: string }) => Promise<{ message: string }>;
  /** What follows once the link has done its work (a log-in form, a next step). */
  children?: ReactNode;
  /** Shown under a refusal: where to go instead (ask for a new link, write to us). */
  otherwise: ReactNode;
}

/**
 * The page an emailed one-time link opens (unlock a device, undo an email change). The link is
 * spent only when the person presses the button, never as the page loads, so a mail scanner that
 * opens links cannot use it up.
 */
export function OneTimeLinkAction({
  token,
  label,
  spend,
  children,
  otherwise,
}: OneTimeLinkActionProps) {
  const [pending, setPending] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  async function press() {
    setPending(true);
    setProblem(null);
    try {
      setDone((await spend({ token })).message);
    } catch (error) {
      if (!(error instanceof ApiError)) reportError(error, 'error', 'form');
      setProblem(errorText(error));
    } finally {
      setPending(false);
    }
  }

  if (done)
    return (
      <div className="space-y-5">
        <FormAlert tone="success">{done}</FormAlert>
        {children}
      </div>
    );
  return (
    <div className="space-y-5">
      {problem ? (
        <FormAlert>
          <p>{problem}</p>
          <p className="mt-1">{otherwise}</p>
        </FormAlert>
      ) : null}
      <button
        type="button"
        onClick={() => void press()}
        disabled={pending}
        aria-busy={pending || undefined}
        className={`${buttonClass('primary', 'lg')} w-full`}
      >
        {label}
      </button>
    </div>
  );
}
