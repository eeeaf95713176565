import { Suspense, useId, useRef, useState, type ReactNode } from 'react';
import { Link, Outlet, useOutletContext } from 'react-router';
import type { Basics, PatientData } from '#shared/accounts.ts';
import { limits } from '#shared/constants.ts';
import { site } from '#shared/site.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { useLeadsId } from '#client/lib/app-state.ts';
import { useViewportAtMost } from '#client/lib/use-viewport.ts';
import { useBasics, usePatientData } from '../accounts.api.ts';
import { AccountSidebar } from './account-sidebar.tsx';
import { PageTitle } from '#client/components/layout/document-head.tsx';

/** What every member page gets from the layout once it has loaded. */
export interface MemberData {
  leadsId: string;
  basics: Basics;
  patientData: PatientData;
}

export function useMemberData(): MemberData {
  return useOutletContext<MemberData>();
}

/**
 * The member area's frame (spec §2 Account layout): a sidebar with the customer's name and number
 * and the area's entries, collapsing behind a menu button at 1024px and below. Patient data and
 * the account basics load before any page renders; a spinner shows until then (spec §4).
 */
export function AccountLayout() {
  // The route guard renders this only once the leads id matches the session.
  const leadsId = useLeadsId() ?? '';
  const basics = useBasics(leadsId);
  const patientData = usePatientData(leadsId);
  const collapsed = useViewportAtMost(limits.sidebarBreakpointPx);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const sidebarId = useId();

  const closeMenu = () => setMenuOpen(false);
  const loading = 'Loading your account…';
  const content = (
    <QueryView query={basics} loading={loading}>
      {(loadedBasics) => (
        <QueryView query={patientData} loading={loading}>
          {(loadedPatientData) => (
            // The page's code may still be downloading: the sidebar stays while it does.
            <Suspense fallback={<Spinner screen label="Loading the page…" />}>
              <Outlet
                context={
                  {
                    leadsId,
                    basics: loadedBasics,
                    patientData: loadedPatientData,
                  } satisfies MemberData
                }
              />
            </Suspense>
          )}
        </QueryView>
      )}
    </QueryView>
  );

  const sidebarHidden = collapsed && !menuOpen;
  return (
    <div className="bg-surface/60 print:bg-white">
      <div className="container-page py-6 md:py-10 print:p-0">
        {collapsed ? (
          <div className="mb-4 print:hidden">
            <button
              ref={menuButton}
              type="button"
              aria-expanded={menuOpen}
              aria-controls={sidebarId}
              onClick={() => setMenuOpen((open) => !open)}
              className="inline-flex min-h-11 items-center gap-2 rounded-full border border-line bg-white px-4 text-[0.9375rem] font-semibold text-ink shadow-[0_1px_2px_rgba(15,37,51,0.04)] hover:border-accent-300"
            >
              <svg
                aria-hidden="true"
                viewBox="0 0 24 24"
                className="size-5"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
              >
                {menuOpen ? (
                  <path d="M6 6l12 12M18 6 6 18" />
                ) : (
                  <path d="M4 7h16M4 12h16M4 17h16" />
                )}
              </svg>
              Account menu
              {basics.data && basics.data.flags.length > 0 ? (
                // The collapsed sidebar hides Home's attention icon; the button carries it.
                <span className="relative flex size-2.5" title="Needs attention">
                  <span aria-hidden="true" className="size-2.5 rounded-full bg-danger" />
                  <span className="sr-only">(needs attention)</span>
                </span>
              ) : null}
            </button>
          </div>
        ) : null}
        <div className="grid gap-6 min-[1025px]:grid-cols-[16.5rem_minmax(0,1fr)] min-[1025px]:gap-10 print:block">
          <aside
            id={sidebarId}
            hidden={sidebarHidden}
            onKeyDown={(event) => {
              if (collapsed && event.key === 'Escape') {
                closeMenu();
                menuButton.current?.focus();
              }
            }}
            className="min-[1025px]:sticky min-[1025px]:top-24 min-[1025px]:self-start print:hidden"
          >
            <AccountSidebar basics={basics.data} onNavigate={collapsed ? closeMenu : undefined} />
          </aside>
          <div className="min-w-0">{content}</div>
        </div>
      </div>
    </div>
  );
}

interface AccountHeaderProps {
  title: string;
  subtitle?: ReactNode;
  link?: { to: string; label: string };
  /** The tab's title, when it should differ from the heading (Home greets by name). */
  documentTitle?: string;
}

/** A member page's header (spec §2): the page title, an optional subtitle and an optional link. */
export function AccountHeader({ title, subtitle, link, documentTitle }: AccountHeaderProps) {
  return (
    <header className="mb-6 flex flex-wrap items-end justify-between gap-x-6 gap-y-3 md:mb-8">
      <PageTitle>{`${documentTitle ?? title} — ${site.name}`}</PageTitle>
      <div>
        <h1 className="text-3xl text-ink md:text-4xl">{title}</h1>
        {subtitle ? <p className="mt-2 text-ink-soft">{subtitle}</p> : null}
      </div>
      {link ? (
        <Link
          to={link.to}
          className="inline-flex min-h-11 items-center gap-1.5 font-semibold text-accent-800 underline-offset-4 hover:underline"
        >
          {link.label}
          <svg
            aria-hidden="true"
            viewBox="0 0 20 20"
            className="size-4"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            <path d="M7.5 4.5 13 10l-5.5 5.5" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </Link>
      ) : null}
    </header>
  );
}
