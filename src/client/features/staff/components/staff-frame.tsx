import { Suspense, type ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { ScrollRestoration } from '#client/components/layout/scroll-restoration.tsx';
import { site } from '#shared/site.ts';
import type { StaffRole, StaffUser } from '#shared/staff.ts';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { paths } from '#shared/paths.ts';
import { BackChevron } from '#client/components/ui/back-chevron.tsx';
import { PageTitle } from '#client/components/layout/document-head.tsx';

export const staffRoleLabels: Record<StaffRole, string> = {
  provider: 'Provider',
  operations: 'Operations',
};

interface StaffFrameProps {
  staff?: StaffUser | null;
  onLogOut?: () => void;
  loggingOut?: boolean;
  children: ReactNode;
}

function ConsoleLink({ to, end, children }: { to: string; end?: boolean; children: string }) {
  return (
    <NavLink
      to={to}
      end={end ?? false}
      className={({ isActive }) =>
        `inline-flex min-h-10 items-center rounded-full px-3 font-semibold focus-visible:outline-white ${
          isActive ? 'bg-white/15 text-white' : 'text-accent-100 hover:bg-white/10 hover:text-white'
        }`
      }
    >
      {children}
    </NavLink>
  );
}

/**
 * The console's own frame, unlike the customer site on purpose so nobody mistakes one for the
 * other: a compact dark header naming the console and who is logged in, and a wide work area.
 */
export function StaffFrame({ staff, onLogOut, loggingOut = false, children }: StaffFrameProps) {
  return (
    <div className="flex min-h-dvh flex-col bg-surface">
      <header className="sticky top-0 z-40 bg-ink text-white">
        <a
          href="#staff-main"
          className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-4 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:text-ink focus:shadow"
        >
          Skip to content
        </a>
        <div className="mx-auto flex min-h-14 w-full max-w-7xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-2 md:px-6">
          <Link
            to={paths.staff}
            className="inline-flex items-center gap-2 rounded-md focus-visible:outline-white"
          >
            <img
              src={site.logo}
              alt=""
              width={28}
              height={28}
              className="size-7 rounded-md bg-white p-0.5"
            />
            <span className="font-display text-lg font-semibold tracking-tight">
              {site.name} Staff
            </span>
          </Link>
          {staff?.role === 'operations' ? (
            <nav aria-label="Console" className="flex flex-wrap items-center gap-1 text-sm">
              <ConsoleLink to={paths.staff} end>
                Orders
              </ConsoleLink>
              <ConsoleLink to={paths.staffInbox}>Inbox</ConsoleLink>
              <ConsoleLink to={paths.staffOutbox}>Outbox</ConsoleLink>
              <ConsoleLink to={paths.staffPharmacy}>Pharmacy</ConsoleLink>
              <ConsoleLink to={paths.staffDashboard}>Dashboard</ConsoleLink>
            </nav>
          ) : staff?.role === 'provider' ? (
            <nav aria-label="Console" className="flex flex-wrap items-center gap-1 text-sm">
              <ConsoleLink to={paths.staff} end>
                Review queue
              </ConsoleLink>
              <ConsoleLink to={paths.staffPatientMessages}>Patient messages</ConsoleLink>
            </nav>
          ) : null}
          {staff ? (
            <div className="ml-auto flex items-center gap-3 text-sm">
              <p className="min-w-0 text-right leading-tight">
                <span className="block truncate font-semibold">{staff.name}</span>
                <span className="block text-accent-200">{staffRoleLabels[staff.role]}</span>
              </p>
              <button
                type="button"
                onClick={onLogOut}
                disabled={loggingOut}
                aria-busy={loggingOut || undefined}
                className="inline-flex min-h-10 items-center rounded-full border border-white/30 px-4 font-semibold text-white transition-colors hover:bg-white/10 focus-visible:outline-white disabled:opacity-60"
              >
                Log out
              </button>
            </div>
          ) : null}
        </div>
      </header>
      <main id="staff-main" tabIndex={-1} className="flex-1 outline-none">
        <div className="mx-auto w-full max-w-7xl px-4 py-6 md:px-6 md:py-8">
          <Suspense fallback={<Spinner block />}>{children}</Suspense>
        </div>
      </main>
      <ScrollRestoration />
    </div>
  );
}

/** A console page's heading row: the title, a line under it, and something on the right. */
export function StaffHeader({
  title,
  subtitle,
  aside,
}: {
  title: string;
  subtitle?: ReactNode;
  aside?: ReactNode;
}) {
  return (
    <header className="mb-6 flex flex-wrap items-end justify-between gap-x-6 gap-y-3">
      <PageTitle>{`${title} — ${site.name} Staff`}</PageTitle>
      <div className="min-w-0">
        {/* Focusable from script: where focus lands when what had it is gone (a decided visit). */}
        <h1 tabIndex={-1} className="text-2xl text-ink outline-none md:text-3xl">
          {title}
        </h1>
        {subtitle ? <div className="mt-1.5 text-ink-soft">{subtitle}</div> : null}
      </div>
      {aside}
    </header>
  );
}

/** The way back from a detail page to the list it was opened from. */
export function BackLink({ to, children }: { to: string; children: string }) {
  return (
    <Link
      to={to}
      className="-mt-2 mb-2 inline-flex min-h-11 items-center gap-1.5 font-semibold text-accent-800 underline-offset-4 hover:underline"
    >
      <BackChevron />
      {children}
    </Link>
  );
}
