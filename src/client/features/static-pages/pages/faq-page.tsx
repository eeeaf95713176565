import { StaticArticle } from '../components/static-article.tsx';
import { faq } from '../static-pages.content.ts';

export function FaqPage() {
  return (
    <StaticArticle title={faq.title} updated={faq.updated} intro={faq.intro}>
      {faq.groups.map((group) => (
        <section key={group.heading} className="mt-12 first:mt-0">
          <h2 className="text-2xl text-ink">{group.heading}</h2>
          <div className="mt-4 divide-y divide-line rounded-2xl border border-line bg-white">
            {group.entries.map((entry) => (
              <details key={entry.question} className="group px-5 py-1 [&_p]:text-ink-soft">
                <summary className="flex cursor-pointer list-none items-center justify-between gap-4 py-4 text-left font-semibold text-ink [&::-webkit-details-marker]:hidden">
                  <span>{entry.question}</span>
                  <svg
                    aria-hidden="true"
                    viewBox="0 0 20 20"
                    className="size-5 shrink-0 text-accent-700 transition-transform group-open:rotate-45"
                    fill="none"
                    stroke="currentColor"
                    strokeWidth="2"
                  >
                    <path d="M10 4v12M4 10h12" strokeLinecap="round" />
                  </svg>
                </summary>
                <div className="pb-4">
                  {entry.answer.map((paragraph) => (
                    <p key={paragraph} className="mt-0! mb-3 last:mb-0">
                      {paragraph}
                    </p>
                  ))}
                </div>
              </details>
            ))}
          </div>
        </section>
      ))}
    </StaticArticle>
  );
}
