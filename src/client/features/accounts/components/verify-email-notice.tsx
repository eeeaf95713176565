import { buttonClass } from '#client/components/ui/button.ts';
import { emailVerifyText } from '#shared/accounts.ts';
import { useSendEmailVerification } from '../accounts.api.ts';

/**
 * Says plainly what waits for a confirmed address (issue 26), and sends the link again. The
 * server limits how often; its refusal is shown as it says it.
 */
export function VerifyEmailNotice({ waiting }: { waiting: string }) {
  const send = useSendEmailVerification();
  return (
    <div className="rounded-2xl border border-accent-200 bg-accent-50/60 p-4">
      <p className="font-semibold text-ink">{waiting}</p>
      <p className="mt-1 text-[0.9375rem] text-ink">
        Open the link we email to your address to confirm that it is yours. No link, or it expired?
        Send it again.
      </p>
      <button
        type="button"
        className={`${buttonClass('secondary', 'md')} mt-3`}
        onClick={() => send.mutate()}
        disabled={send.isPending}
        aria-busy={send.isPending || undefined}
      >
        {emailVerifyText.sendAgain}
      </button>
    </div>
  );
}
