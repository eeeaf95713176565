import { emergencyNotice, replyExpectation, type MessageTopic } from '#shared/messages.ts';

/**
 * Beside every place a patient writes: when to expect an answer (a provider for a question about
 * their treatment, the care team otherwise), and where to turn in an emergency, since Messages is
 * not watched around the clock. Said in words and marked by icons, never by color alone.
 */
export function ReplyNotice({
  topic,
  live = false,
}: {
  /** The conversation's topic; none yet while the patient has not chosen one. */
  topic: MessageTopic | undefined;
  /** Announce a change of the expectation (while the patient picks a topic). */
  live?: boolean;
}) {
  return (
    <div className="space-y-2 text-[0.9375rem]">
      <p className="flex items-start gap-2 text-ink-soft" aria-live={live ? 'polite' : undefined}>
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          className="mt-0.5 size-4 shrink-0 text-accent-700"
        >
          <circle cx="10" cy="10" r="7.25" />
          <path d="M10 6v4.25l2.75 1.75" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <span>{replyExpectation(topic ?? 'other')}</span>
      </p>
      <div
        role="note"
        aria-label="Emergencies"
        className="flex items-start gap-2 rounded-xl border border-danger/25 bg-danger-soft px-3.5 py-2.5 text-ink"
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          fill="currentColor"
          className="mt-0.5 size-4 shrink-0 text-danger"
        >
          <path d="M8.56 2.9a1.66 1.66 0 0 1 2.88 0l6.62 11.5A1.66 1.66 0 0 1 16.62 17H3.38a1.66 1.66 0 0 1-1.44-2.5Zm1.44 3.85a.9.9 0 0 0-.9.9v3.6a.9.9 0 1 0 1.8 0v-3.6a.9.9 0 0 0-.9-.9Zm0 8.1a1.05 1.05 0 1 0 0-2.1 1.05 1.05 0 0 0 0 2.1Z" />
        </svg>
        <p>{emergencyNotice}</p>
      </div>
    </div>
  );
}
