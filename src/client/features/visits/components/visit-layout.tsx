import { Suspense } from 'react';
import { Link, Outlet, useLocation, useOutletContext, useParams } from 'react-router';
import { paths } from '#shared/paths.ts';
import { site } from '#shared/site.ts';
import { programCategories, programs, type Program, type ProgramCategory } from '#shared/visits.ts';
import { NotFoundPage } from '#client/features/errors/pages/not-found-page.tsx';
import { useIsRenewal } from '../visit-state.ts';
import { renewalStepLabels, visitStepLabels, type StepLabels } from '../visit-steps.ts';
import { PageTitle } from '#client/components/layout/document-head.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';

export interface VisitContext {
  category: ProgramCategory;
  program: Program;
}

export function useVisitContext(): VisitContext {
  return useOutletContext<VisitContext>();
}

function isCategory(value: string | undefined): value is ProgramCategory {
  return programCategories.some((category) => category === value);
}

/**
 * Where the patient is among the visit's steps; the closing screens count as the step that closed
 * the visit, the review of the answers as the questions, and the start (a visitor's eligibility,
 * a renewal's opening) as the first.
 */
function stepIndex(pathname: string, labels: StepLabels): number {
  const indexOf = (screen: string) => labels.findIndex(([step]) => step === screen);
  const screen = pathname.split('/')[3] ?? '';
  if (screen === 'submitted') return labels.length;
  if (screen === '' || screen === 'ineligible') return indexOf('eligibility');
  if (screen === 'not-a-fit' || screen === 'answers' || screen === 'renew')
    return indexOf('questions');
  return indexOf(screen);
}

function StepIndicator({ current, labels }: { current: number; labels: StepLabels }) {
  const label = labels[current]?.[1];
  const count = labels.length;
  // After the last step (the visit is submitted) the line says so: seven names side by side do
  // not fit a phone's width.
  const line = label
    ? `Step ${current + 1} of ${count}: ${label}`
    : current >= count
      ? `All ${count} steps done`
      : null;
  return (
    <nav aria-label="Visit steps">
      {/* Telehealth's mobile breakpoint (spec §9): one line instead of the full list. */}
      {line ? (
        <p className="text-sm font-semibold text-accent-800 min-[768px]:hidden">{line}</p>
      ) : null}
      {/* One row at every width from 768px: each step a column, its name under its number. */}
      <ol
        className={`${line ? 'max-[767px]:sr-only' : ''} grid gap-2`}
        style={{ gridTemplateColumns: `repeat(${labels.length}, minmax(0, 1fr))` }}
      >
        {labels.map(([step, text], index) => {
          const done = index < current;
          const here = index === current;
          return (
            <li
              key={step}
              aria-current={here ? 'step' : undefined}
              className={`flex flex-col items-center gap-1.5 text-center text-xs font-semibold leading-tight sm:text-sm ${
                here ? 'text-ink' : done ? 'text-accent-800' : 'text-muted'
              }`}
            >
              <span
                aria-hidden="true"
                className={`grid size-6 shrink-0 place-items-center rounded-full text-xs ${
                  here
                    ? 'bg-accent-700 text-white'
                    : done
                      ? 'bg-accent-100 text-accent-800'
                      : 'border border-line bg-white text-muted'
                }`}
              >
                {done ? '✓' : index + 1}
              </span>
              {text}
              {done ? <span className="sr-only"> (done)</span> : null}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/** A visit address that names no program or no screen: the page is missing; the programs are here. */
export function VisitNotFound() {
  return (
    <NotFoundPage>
      <nav aria-labelledby="visit-programs" className="mt-10 w-full max-w-md">
        <h2 id="visit-programs" className="font-sans text-lg font-semibold text-ink">
          Start an online visit
        </h2>
        <ul className="mt-3 space-y-2">
          {programCategories.map((category) => (
            <li key={category}>
              <Link
                to={paths.visit(category)}
                className="flex min-h-11 items-center justify-between rounded-2xl border border-line bg-white px-4 py-2 text-left font-semibold text-ink hover:border-accent-300"
              >
                {programs[category].headline}
                <span aria-hidden="true">→</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </NotFoundPage>
  );
}

/**
 * The online visit's frame: the program's name and illustration, where the patient is, and the
 * step. An unknown program is a missing page.
 */
export function VisitLayout() {
  const { category } = useParams();
  const { pathname } = useLocation();
  if (!isCategory(category)) return <VisitNotFound />;
  return <ProgramVisit category={category} pathname={pathname} />;
}

function ProgramVisit({ category, pathname }: { category: ProgramCategory; pathname: string }) {
  const program = programs[category];
  // A renewal (issue 29) has its own two steps; its opening screen is one too.
  const renewal = useIsRenewal(category) || pathname.split('/')[3] === 'renew';
  const labels: StepLabels = renewal ? renewalStepLabels : visitStepLabels;
  const current = stepIndex(pathname, labels);
  return (
    <div className="bg-gradient-to-b from-accent-50 via-accent-50/40 to-white">
      <PageTitle>{`${program.name} ${renewal ? 'renewal' : 'online visit'} — ${site.name}`}</PageTitle>
      <div className="container-page max-w-3xl py-6 md:py-10">
        <div className="flex items-center gap-4">
          <img
            src={program.illustration}
            alt=""
            width={64}
            height={48}
            className="h-12 w-16 shrink-0 rounded-xl bg-white object-contain ring-1 ring-accent-100"
          />
          <div className="min-w-0">
            <p className="text-sm font-semibold uppercase tracking-wider text-accent-800">
              {renewal ? 'Prescription renewal' : 'Online visit'}
            </p>
            <h1 className="text-2xl text-ink md:text-3xl">{program.headline}</h1>
          </div>
        </div>
        {current >= 0 ? (
          <div className="mt-5">
            <StepIndicator current={current} labels={labels} />
          </div>
        ) : null}
        <div className="mt-6">
          <Suspense fallback={<Spinner screen label="Loading the page…" />}>
            <Outlet context={{ category, program } satisfies VisitContext} />
          </Suspense>
        </div>
      </div>
    </div>
  );
}

export const visitCardClass =
  'rounded-3xl border border-line bg-white p-5 shadow-[0_1px_2px_rgba(15,37,51,0.04)] sm:p-7';
