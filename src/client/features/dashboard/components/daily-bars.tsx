import { useId, type ReactNode } from 'react';

/*
 * Bar charts of one value a day, drawn as plain SVG. No chart library: these are bars of 30 values,
 * and the libraries that would draw them either paint a canvas (Chart.js, uPlot, ECharts), which a
 * screen reader cannot read, or bring a React-specific dependency tree (Recharts, Victory, visx)
 * many times the size of this page; none would spare us the text alternative, which we write
 * anyway. The bars are a picture for sighted readers (`aria-hidden`); what they show is said in
 * words by the figure's caption, and day by day in the table under each chart ("Figures by day").
 * Labels are HTML around the SVG, so they keep their size while the bars stretch to the width
 * (stacked on a phone, two a row on a wide screen).
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** 'Nov 19' from '2026-11-19' (a UTC day, as the server counts them). */
export function dayLabel(day: string): string {
  const [, month, date] = day.split('-').map(Number);
  return `${MONTHS[(month ?? 1) - 1] ?? ''} ${date ?? ''}`;
}

/** The smallest 1, 2 or 5 × 10ⁿ at or above `value` (an axis that ends on a round figure). */
export function niceCeiling(value: number): number {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 5, 10].find((m) => m * power >= value) ?? 10;
  return step * power;
}

/** A series of the chart: its name (legend and table header), colour and value for each day. */
export interface Series {
  name: string;
  /** A fill class (Tailwind `fill-…`) and the matching swatch class (`bg-…`). */
  fill: string;
  swatch: string;
  values: number[];
}

interface DailyBarsProps {
  title: string;
  /** The sentence a reader needs first: the totals, said in words. */
  summary: ReactNode;
  days: string[];
  /** One series draws up from the axis; a second (churn, failures) draws down from it. */
  up: Series;
  down?: Series;
  /** How a value reads in the table ('$49.98', '2'). */
  format?: (value: number) => string;
  /** How the axis's top reads, shorter ('$100'); the table's format unless given. */
  axis?: (value: number) => string;
}

const HEIGHT = 120;
const identity = (value: number) => String(value);

export function DailyBars({
  title,
  summary,
  days,
  up,
  down,
  format = identity,
  axis = format,
}: DailyBarsProps) {
  const titleId = useId();
  const max = niceCeiling(Math.max(...up.values, ...(down?.values ?? [0]), 0));
  const half = down ? HEIGHT / 2 : HEIGHT;
  const slot = 10;
  const bar = 7;
  const scale = (value: number) => (value / max) * half;
  return (
    <figure
      aria-labelledby={titleId}
      className="min-w-0 rounded-2xl border border-line bg-white p-4 shadow-[0_1px_2px_rgba(15,37,51,0.04)] sm:p-5"
    >
      <figcaption>
        <h2 id={titleId} className="font-sans text-base font-semibold text-ink">
          {title}
        </h2>
        <div className="mt-1 text-[0.9375rem] text-ink-soft">{summary}</div>
      </figcaption>
      <Legend series={down ? [up, down] : [up]} />
      <div className="mt-3 flex gap-2" aria-hidden="true">
        <div className="flex h-32 w-14 shrink-0 flex-col justify-between text-right text-xs leading-none text-muted tabular-nums">
          <span>{axis(max)}</span>
          {down ? <span>0</span> : null}
          <span>{down ? axis(max) : '0'}</span>
        </div>
        <div className="min-w-0 flex-1">
          <svg
            viewBox={`0 0 ${days.length * slot} ${HEIGHT}`}
            preserveAspectRatio="none"
            className="block h-32 w-full overflow-visible"
            focusable="false"
          >
            <line
              x1={0}
              x2={days.length * slot}
              y1={half}
              y2={half}
              className="stroke-line"
              strokeWidth={1}
              vectorEffect="non-scaling-stroke"
            />
            {down ? (
              <line
                x1={0}
                x2={days.length * slot}
                y1={0}
                y2={0}
                className="stroke-line"
                strokeWidth={1}
                vectorEffect="non-scaling-stroke"
                strokeDasharray="3 3"
              />
            ) : null}
            {days.map((day, i) => {
              const upValue = up.values[i] ?? 0;
              const downValue = down?.values[i] ?? 0;
              const x = i * slot + (slot - bar) / 2;
              return (
                <g key={day}>
                  {upValue > 0 ? (
                    <rect
                      x={x}
                      width={bar}
                      y={half - scale(upValue)}
                      height={scale(upValue)}
                      className={up.fill}
                    />
                  ) : null}
                  {down && downValue > 0 ? (
                    <rect
                      x={x}
                      width={bar}
                      y={half}
                      height={scale(downValue)}
                      className={down.fill}
                    />
                  ) : null}
                </g>
              );
            })}
          </svg>
          <div className="mt-1 flex justify-between text-xs text-muted">
            <span>{dayLabel(days[0] ?? '')}</span>
            <span>{dayLabel(days[Math.floor(days.length / 2)] ?? '')}</span>
            <span>{dayLabel(days[days.length - 1] ?? '')}</span>
          </div>
        </div>
      </div>
      <details className="group mt-3 text-sm">
        <summary className="inline-flex min-h-10 cursor-pointer list-none items-center gap-1.5 rounded-md [&::-webkit-details-marker]:hidden font-semibold text-accent-800 underline-offset-4 hover:underline">
          <span
            aria-hidden="true"
            className="inline-block transition-transform group-open:rotate-90"
          >
            ›
          </span>
          Figures by day
        </summary>
        <div className="mt-2 overflow-hidden rounded-xl border border-line">
          <table className="w-full text-left tabular-nums">
            <caption className="sr-only">{`${title}, by day`}</caption>
            <thead className="bg-surface text-ink-soft">
              <tr>
                <th scope="col" className="px-3 py-2 font-semibold">
                  Day
                </th>
                <th scope="col" className="px-3 py-2 text-right font-semibold">
                  {up.name}
                </th>
                {down ? (
                  <th scope="col" className="px-3 py-2 text-right font-semibold">
                    {down.name}
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {days.map((day, i) => (
                <tr key={day} className="border-t border-line">
                  <th scope="row" className="px-3 py-1.5 font-normal text-ink">
                    {dayLabel(day)}
                  </th>
                  <td className="px-3 py-1.5 text-right text-ink">{format(up.values[i] ?? 0)}</td>
                  {down ? (
                    <td className="px-3 py-1.5 text-right text-ink">
                      {format(down.values[i] ?? 0)}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

function Legend({ series }: { series: Series[] }) {
  if (series.length < 2) return null;
  return (
    <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-ink-soft" aria-hidden="true">
      {series.map((s, i) => (
        <li key={s.name} className="inline-flex items-center gap-1.5">
          <span className={`inline-block size-3 rounded-sm ${s.swatch}`} />
          {s.name} {i === 0 ? '(up)' : '(down)'}
        </li>
      ))}
    </ul>
  );
}
