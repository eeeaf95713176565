import { Link } from 'react-router';
import { site } from '#shared/site.ts';
import { paths } from '#shared/paths.ts';

/** The brand mark and name, linking home (spec §2: the logo links to /). */
export function Logo({ className = '' }: { className?: string }) {
  return (
    <Link
      to={paths.home}
      className={`inline-flex items-center gap-2.5 rounded-md ${className}`}
      aria-label={`${site.name} home`}
    >
      <img src={site.logo} alt="" width={32} height={32} className="size-8" />
      <span className="font-display text-[1.375rem] font-semibold tracking-tight text-ink">
        {site.name}
      </span>
    </Link>
  );
}
