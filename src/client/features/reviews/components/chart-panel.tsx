import type { ReactNode } from 'react';

const panelClass =
  'rounded-2xl border border-line bg-white p-5 shadow-[0_1px_2px_rgba(15,37,51,0.04)]';

/** One panel of the provider's chart: a titled region. */
export function ChartPanel({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={panelClass}>
      <h2 id={id} className="font-sans text-base font-semibold text-ink">
        {title}
      </h2>
      <div className="mt-3">{children}</div>
    </section>
  );
}
