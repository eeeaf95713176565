import { useQueryClient } from '@tanstack/react-query';
import { format, isValid, parseISO } from 'date-fns';
import { useState } from 'react';
import { dateFormats } from '#shared/constants.ts';
import { buttonClass } from '#client/components/ui/button.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { showToast } from '#client/components/ui/toast.tsx';
import { AccountSection } from '#client/components/ui/account-section.tsx';
import { authApi, type SessionInfo } from '#shared/auth.ts';
import { errorText, failedWith } from '#client/lib/api.ts';
import { authKeys, endSession, revokeOtherSessions, useSessions } from '../auth.api.ts';

function lastActive(value: string): string {
  const date = parseISO(value);
  return isValid(date) ? format(date, dateFormats.long) : value;
}

/** What tells one device from another: the browser and system, where from, and since when. */
function deviceDetails(session: SessionInfo): string {
  const parts = [`Logged in ${lastActive(session.created_at)}`];
  if (session.network) parts.push(`from network ${session.network}`);
  return parts.join(' ');
}

/** Accounts (f): the sessions of this account; log out any one of the others, or all of them. */
export function SignedInDevices() {
  const queryClient = useQueryClient();
  const sessions = useSessions();
  const [ending, setEnding] = useState(false);
  const others = sessions.data?.filter((session) => !session.current).length ?? 0;

  const [endingOne, setEndingOne] = useState<string | null>(null);

  const endOne = async (session: SessionInfo) => {
    setEndingOne(session.id);
    try {
      await endSession(session.id);
      showToast({ kind: 'success', title: `${session.device} was logged out` });
    } catch (error) {
      // Already gone (it logged out, or another tab ended it): the list catches up.
      if (!failedWith(error, authApi.sessionEnd, 'NOT_FOUND'))
        showToast({
          kind: 'error',
          title: errorText(error),
        });
    } finally {
      setEndingOne(null);
      await queryClient.invalidateQueries({ queryKey: authKeys.sessions });
    }
  };

  const endOthers = async () => {
    setEnding(true);
    try {
      const ended = await revokeOtherSessions();
      showToast({
        kind: 'success',
        title: 'Logged out everywhere else',
        description:
          ended === 1
            ? 'One other device was logged out.'
            : `${ended} other devices were logged out.`,
      });
      await queryClient.invalidateQueries({ queryKey: authKeys.sessions });
    } catch (error) {
      showToast({
        kind: 'error',
        title: errorText(error),
      });
    } finally {
      setEnding(false);
    }
  };

  return (
    <AccountSection
      id="devices"
      title="Signed-in devices"
      description="Where your account is logged in right now. Don't recognise one? Log it out and change your password."
    >
      <QueryView query={sessions} loading="Loading your devices…" size="inline">
        {(list) => (
          <>
            <ul className="divide-y divide-line rounded-2xl border border-line">
              {list.map((session) => (
                <li key={session.id} className="flex items-start gap-3 px-4 py-3.5">
                  <svg
                    aria-hidden="true"
                    viewBox="0 0 24 24"
                    className="mt-0.5 size-5 shrink-0 text-muted"
                    fill="none"
                    stroke="currentColor"
                    strokeWidth="1.8"
                  >
                    <rect x="3" y="4.5" width="18" height="12" rx="1.5" />
                    <path d="M8 20h8M12 16.5V20" strokeLinecap="round" />
                  </svg>
                  <div className="min-w-0 flex-1">
                    <p className="flex flex-wrap items-center gap-2 font-medium text-ink">
                      <span className="break-words">{session.device}</span>
                      {session.current ? (
                        <span className="rounded-full bg-accent-50 px-2 py-0.5 text-xs font-semibold text-accent-900 ring-1 ring-accent-200">
                          This device
                        </span>
                      ) : null}
                    </p>
                    <p className="text-sm text-muted">
                      Last active{' '}
                      <time dateTime={session.last_seen_at}>
                        {lastActive(session.last_seen_at)}
                      </time>
                    </p>
                    <p className="text-sm text-muted">{deviceDetails(session)}</p>
                  </div>
                  {session.current ? null : (
                    <button
                      type="button"
                      onClick={() => void endOne(session)}
                      disabled={endingOne !== null}
                      aria-busy={endingOne === session.id || undefined}
                      aria-label={`Log out ${session.device}, last active ${lastActive(session.last_seen_at)}`}
                      className="min-h-10 shrink-0 rounded-full px-3 text-sm font-semibold text-accent-800 hover:bg-accent-50 disabled:opacity-60"
                    >
                      Log out
                    </button>
                  )}
                </li>
              ))}
            </ul>
            <button
              type="button"
              onClick={() => void endOthers()}
              disabled={ending || others === 0}
              className={`${buttonClass('secondary')} mt-5`}
            >
              Log out everywhere else
            </button>
            {others === 0 ? (
              <p className="mt-2 text-sm text-muted">This is the only device logged in.</p>
            ) : null}
          </>
        )}
      </QueryView>
    </AccountSection>
  );
}
