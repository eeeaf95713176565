import type { ReactNode } from 'react';
import { site } from '#shared/site.ts';
import { PageTitle } from '#client/components/layout/document-head.tsx';

interface AuthCardProps {
  title: string;
  intro?: ReactNode;
  wide?: boolean;
  children: ReactNode;
  footer?: ReactNode;
}

/** The frame of the log-in, sign-up and password screens: one centred card on the brand wash. */
export function AuthCard({ title, intro, wide = false, children, footer }: AuthCardProps) {
  return (
    <div className="bg-gradient-to-b from-accent-50 via-accent-50/40 to-white">
      <PageTitle>{`${title} — ${site.name}`}</PageTitle>
      <div className="container-page flex justify-center py-10 md:py-16">
        <div className={`w-full ${wide ? 'max-w-xl' : 'max-w-md'}`}>
          <div className="rounded-3xl border border-line bg-white p-6 shadow-[0_8px_30px_rgba(15,37,51,0.06)] sm:p-8">
            <h1 className="text-3xl text-ink">{title}</h1>
            {intro ? <p className="mt-2 text-ink-soft">{intro}</p> : null}
            <div className="mt-6">{children}</div>
          </div>
          {footer ? (
            <div className="mt-6 text-center text-[0.9375rem] text-ink-soft">{footer}</div>
          ) : null}
        </div>
      </div>
    </div>
  );
}
