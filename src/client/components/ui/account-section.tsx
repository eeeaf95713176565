import type { ReactNode } from 'react';

interface AccountSectionProps {
  id: string;
  title: string;
  description?: ReactNode;
  /** Something beside the title: a status badge, a link. */
  aside?: ReactNode;
  children?: ReactNode;
}

/** One card of the Accounts page: a region named by its heading. */
export function AccountSection({ id, title, description, aside, children }: AccountSectionProps) {
  return (
    <section
      aria-labelledby={`${id}-title`}
      id={id}
      className="scroll-mt-24 rounded-3xl border border-line bg-white p-5 shadow-[0_1px_2px_rgba(15,37,51,0.04)] sm:p-7"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={`${id}-title`} className="text-xl text-ink sm:text-2xl">
            {title}
          </h2>
          {description ? (
            <p className="mt-1 text-[0.9375rem] text-ink-soft">{description}</p>
          ) : null}
        </div>
        {aside}
      </div>
      {children ? <div className="mt-5">{children}</div> : null}
    </section>
  );
}
