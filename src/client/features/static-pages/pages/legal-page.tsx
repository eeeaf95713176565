import { StaticArticle } from '../components/static-article.tsx';
import type { StaticPage } from '../static-pages.content.ts';

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Privacy policy, terms and consent to telehealth: numbered sections with a table of contents. */
export function LegalPage({ page }: { page: StaticPage }) {
  return (
    <StaticArticle title={page.title} updated={page.updated} intro={page.intro}>
      <nav
        aria-label="On this page"
        className="mb-10 rounded-2xl border border-line bg-surface p-5"
      >
        <h2 className="font-sans text-sm font-semibold uppercase tracking-wider text-ink">
          On this page
        </h2>
        <ol className="mt-3 grid gap-x-6 gap-y-1.5 text-[0.9375rem] sm:grid-cols-2">
          {page.sections.map((section, index) => (
            <li key={section.heading}>
              <a
                href={`#${slug(section.heading)}`}
                className="text-accent-800 underline-offset-4 hover:underline"
              >
                {index + 1}. {section.heading}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      {page.sections.map((section, index) => (
        <section
          key={section.heading}
          aria-labelledby={slug(section.heading)}
          className="mt-10 first-of-type:mt-0"
        >
          <h2 id={slug(section.heading)} className="text-2xl text-ink">
            {index + 1}. {section.heading}
          </h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
          {section.list ? (
            <ul>
              {section.list.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          ) : null}
        </section>
      ))}
    </StaticArticle>
  );
}
