import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { longDateTime } from '#client/components/ui/staff-order-status.tsx';

const cardClass =
  'block rounded-2xl border border-line bg-white p-4 shadow-[0_1px_2px_rgba(15,37,51,0.04)] hover:border-accent-400 sm:p-5';

interface ConversationCardProps {
  to: string;
  subject: string | null;
  unread: number;
  lastSender: 'patient' | 'care_team' | null;
  /** Whether it waits for an answer, when that is not simply who wrote last (a provider's list). */
  waiting?: boolean;
  updatedAt: string;
  /** Who the patient is, and whose the conversation is, in a line. */
  details: ReactNode;
}

/**
 * One patient conversation in a console list (operations' Inbox, a provider's Patient messages):
 * its subject, new messages or whether it waits for an answer, who, and when last written.
 */
export function ConversationCard({
  to,
  subject,
  unread,
  lastSender,
  waiting = lastSender === 'patient',
  updatedAt,
  details,
}: ConversationCardProps) {
  return (
    <Link to={to} className={cardClass}>
      <span className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
        <span className={`min-w-0 text-accent-800 ${unread > 0 ? 'font-semibold' : 'font-medium'}`}>
          {subject}
        </span>
        {unread > 0 ? (
          <span className="shrink-0 rounded-full bg-accent-700 px-2 py-0.5 text-sm font-semibold text-white">
            {unread} new
          </span>
        ) : waiting ? (
          <span className="shrink-0 rounded-full bg-warning-soft px-2.5 py-0.5 text-sm font-medium text-warning">
            Waiting for an answer
          </span>
        ) : (
          <span className="shrink-0 text-sm text-muted">Answered</span>
        )}
      </span>
      <span className="mt-1 block text-sm text-ink-soft">{details}</span>
      <span className="mt-0.5 block text-sm text-muted">
        Last message <time dateTime={updatedAt}>{longDateTime(updatedAt)}</time>
      </span>
    </Link>
  );
}
