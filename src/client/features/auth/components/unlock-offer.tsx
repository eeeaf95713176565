import { useState } from 'react';
import { FormAlert } from '#client/components/forms/fields.tsx';
import { buttonClass } from '#client/components/ui/button.ts';
import { ApiError, errorText } from '#client/lib/api.ts';
import { reportError } from '#client/lib/error-reporting.ts';

interface UnlockOfferProps {
  /** The address typed in the log-in form: the link goes there if it has a paused account. */
  email: string;
  /** The server's words for a paused account (code LOGIN_LOCKED). */
  message: string;
  requestLink: (body: { email: string }) => Promise<{ message: string }>;
}

/**
 * Shown when an account's log-ins from new devices are paused after many wrong passwords
 * (decision 004): the owner asks for an emailed one-time link that lets this device log in.
 */
export function UnlockOffer({ email, message, requestLink }: UnlockOfferProps) {
  const [pending, setPending] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  async function send() {
    setPending(true);
    setProblem(null);
    try {
      setSent((await requestLink({ email })).message);
    } catch (error) {
      if (!(error instanceof ApiError)) reportError(error, 'error', 'form');
      setProblem(errorText(error));
    } finally {
      setPending(false);
    }
  }

  if (sent) return <FormAlert tone="success">{sent}</FormAlert>;
  return (
    <FormAlert>
      <p>{message}</p>
      <p className="mt-3">
        <button
          type="button"
          onClick={() => void send()}
          disabled={pending}
          aria-busy={pending || undefined}
          className={buttonClass('secondary')}
        >
          Email me a link
        </button>
      </p>
      {problem ? <p className="mt-2 font-semibold">{problem}</p> : null}
    </FormAlert>
  );
}
