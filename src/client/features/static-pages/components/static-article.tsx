import type { ReactNode } from 'react';
import { format, parseISO } from 'date-fns';
import { dateFormats } from '#shared/constants.ts';
import { site } from '#shared/site.ts';
import { PageTitle } from '#client/components/layout/document-head.tsx';

interface StaticArticleProps {
  title: string;
  updated: string;
  intro: string;
  children: ReactNode;
}

/** The frame every static page shares: title band, last-updated date, readable measure. */
export function StaticArticle({ title, updated, intro, children }: StaticArticleProps) {
  return (
    <article>
      <PageTitle>{`${title} — ${site.name}`}</PageTitle>
      <header className="border-b border-line bg-gradient-to-b from-accent-50 to-white">
        <div className="container-page py-12 md:py-16">
          <h1 className="text-4xl text-ink md:text-5xl">{title}</h1>
          <p className="mt-3 text-sm text-muted">
            Last updated{' '}
            <time dateTime={updated}>{format(parseISO(updated), dateFormats.medium)}</time>
          </p>
          <p className="mt-6 max-w-3xl text-lg leading-relaxed text-ink-soft">{intro}</p>
        </div>
      </header>
      <div className="container-page py-10 md:py-14">
        <div className="prose-page max-w-3xl">{children}</div>
      </div>
    </article>
  );
}
