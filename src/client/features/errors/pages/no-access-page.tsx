import { Link } from 'react-router';
import { site } from '#shared/site.ts';
import { buttonClass } from '#client/components/ui/button.ts';
import { paths } from '#shared/paths.ts';
import { PageTitle } from '#client/components/layout/document-head.tsx';

/** Spec §2: the user has no access to the named feature; a link home to ask support for access. */
export function NoAccessPage({ feature }: { feature: string }) {
  return (
    <div className="container-page flex min-h-[60vh] flex-col items-center justify-center py-16 text-center">
      <PageTitle>{`No access — ${site.name}`}</PageTitle>
      <div
        aria-hidden="true"
        className="mb-6 grid size-14 place-items-center rounded-full bg-accent-100 text-accent-800"
      >
        <svg
          viewBox="0 0 24 24"
          className="size-7"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <rect x="5" y="11" width="14" height="9" rx="2" />
          <path d="M8 11V8a4 4 0 1 1 8 0v3" strokeLinecap="round" />
        </svg>
      </div>
      <h1 className="text-3xl text-ink">You don't have access to {feature}</h1>
      <p className="mt-4 max-w-md text-ink-soft">
        {feature} isn't available on your account right now. If you think you should have access,
        contact our support team at{' '}
        <a
          className="font-medium text-accent-800 underline underline-offset-4"
          href={`mailto:${site.supportEmail}`}
        >
          {site.supportEmail}
        </a>{' '}
        and we'll help.
      </p>
      <Link to={paths.home} className={`${buttonClass('primary', 'lg')} mt-8`}>
        Back to the home page
      </Link>
    </div>
  );
}
