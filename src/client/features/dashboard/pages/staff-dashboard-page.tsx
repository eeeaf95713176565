import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import type { Dashboard } from '#shared/dashboard.ts';
import { formatCents } from '#shared/money.ts';
import { paths } from '#shared/paths.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { StaffHeader } from '#client/features/staff/components/staff-frame.tsx';
import { useStaff } from '#client/features/staff/components/staff-layout.tsx';
import { useDashboard } from '../dashboard.api.ts';
import { DailyBars, dayLabel } from '../components/daily-bars.tsx';
import { WaitingVisits } from '../components/waiting-visits.tsx';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * /staff/dashboard: the operator's view of the last 30 days (issue 15) — store orders and revenue,
 * subscriptions started and cancelled, failed renewals and recoveries, and the visits waiting for
 * a provider against the review target. Operations staff only; its code loads only here.
 */
export function StaffDashboardPage() {
  const staff = useStaff();
  const dashboard = useDashboard({ enabled: staff.role === 'operations' });
  if (staff.role !== 'operations') return <Navigate to={paths.staff} replace />;
  const data = dashboard.data;
  return (
    <>
      <StaffHeader
        title="Dashboard"
        subtitle={
          <p>
            {data
              ? `The last 30 days, ${dayLabel(data.from)} to ${dayLabel(data.to)}, ${data.to.slice(0, 4)} (days in UTC).`
              : 'The last 30 days.'}
          </p>
        }
      />
      <QueryView query={dashboard} loading="Loading the dashboard…">
        {(figures) => <Figures data={figures} />}
      </QueryView>
    </>
  );
}

function Figures({ data }: { data: Dashboard }) {
  const days = data.days.map((d) => d.day);
  const { totals, subscriptions, payments, visits } = data;
  return (
    <>
      <section aria-label="The 30 days in figures">
        <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          <Figure term="Store orders" value={String(totals.orders)} />
          <Figure
            term="Revenue"
            value={formatCents(totals.revenue_cents)}
            note={
              totals.refunded_cents > 0
                ? `${formatCents(totals.refunded_cents)} refunded since`
                : 'Nothing refunded'
            }
          />
          <Figure
            term="Active subscriptions"
            value={String(subscriptions.active)}
            note={`${subscriptions.past_due} past due, ${subscriptions.paused} paused`}
          />
          <Figure
            term="Cancellations"
            value={String(totals.cancelled)}
            note={`${plural(totals.started, 'subscription', 'subscriptions')} started; ${churnText(subscriptions.churn)}`}
          />
          <Figure
            term="Visits waiting"
            value={String(visits.waiting)}
            note={`${visits.over_target} past the ${visits.target_hours}-hour target`}
            alert={visits.over_target > 0}
          />
          <Figure term="Failed renewals" value={String(totals.failed)} />
          <Figure
            term="Recovered renewals"
            value={String(totals.recovered)}
            note={formatCents(totals.recovered_cents)}
          />
          <Figure
            term="Renewals unpaid now"
            value={String(payments.unpaid)}
            note={`${formatCents(payments.unpaid_cents)} owed`}
            alert={payments.unpaid > 0}
          />
        </dl>
      </section>
      <div className="mt-6 grid gap-4 lg:grid-cols-2">
        <DailyBars
          title="Store orders per day"
          summary={
            <p>
              {plural(totals.orders, 'paid store order', 'paid store orders')} in 30 days (renewals
              and visits not included).
            </p>
          }
          days={days}
          up={{
            name: 'Orders',
            fill: 'fill-accent-600',
            swatch: 'bg-accent-600',
            values: data.days.map((d) => d.orders),
          }}
        />
        <DailyBars
          title="Revenue per day"
          summary={
            <p>
              {formatCents(totals.revenue_cents)} from those orders, after discounts and before
              refunds.
            </p>
          }
          days={days}
          format={formatCents}
          axis={(value) => `$${(value / 100).toLocaleString('en-US')}`}
          up={{
            name: 'Revenue',
            fill: 'fill-accent-800',
            swatch: 'bg-accent-800',
            values: data.days.map((d) => d.revenue_cents),
          }}
        />
        <DailyBars
          title="Subscriptions started and cancelled"
          summary={
            <p>
              {totals.started} started and {totals.cancelled} cancelled in 30 days;{' '}
              {subscriptions.active} active now. Of the {subscriptions.churn.open_at_start}{' '}
              supplement subscriptions open on {dayLabel(data.from)},{' '}
              {subscriptions.churn.cancelled_since} cancelled since.
            </p>
          }
          days={days}
          up={{
            name: 'Started',
            fill: 'fill-accent-600',
            swatch: 'bg-accent-600',
            values: data.days.map((d) => d.started),
          }}
          down={{
            name: 'Cancelled',
            fill: 'fill-danger',
            swatch: 'bg-danger',
            values: data.days.map((d) => d.cancelled),
          }}
        />
        <DailyBars
          title="Failed renewals and recoveries"
          summary={
            <p>
              {plural(totals.failed, 'renewal', 'renewals')} failed at first charge and{' '}
              {totals.recovered} recovered by a retry or a new card (
              {formatCents(totals.recovered_cents)}) in 30 days.
            </p>
          }
          days={days}
          up={{
            name: 'Recovered',
            fill: 'fill-success',
            swatch: 'bg-success',
            values: data.days.map((d) => d.recovered),
          }}
          down={{
            name: 'Failed',
            fill: 'fill-danger',
            swatch: 'bg-danger',
            values: data.days.map((d) => d.failed),
          }}
        />
        <WaitingVisits visits={visits} />
      </div>
    </>
  );
}

function Figure({
  term,
  value,
  note,
  alert = false,
}: {
  term: string;
  value: string;
  note?: ReactNode;
  alert?: boolean;
}) {
  return (
    <div
      className={`min-w-0 rounded-2xl border bg-white p-3 shadow-[0_1px_2px_rgba(15,37,51,0.04)] sm:p-4 ${
        alert ? 'border-danger/40' : 'border-line'
      }`}
    >
      <dt className="text-sm text-ink-soft">{term}</dt>
      <dd className="mt-1 font-display text-2xl font-semibold text-ink tabular-nums">{value}</dd>
      {note ? <dd className="mt-0.5 text-sm text-ink-soft">{note}</dd> : null}
    </div>
  );
}

/** "8.3% churn": the share of the window's opening supplement subscriptions cancelled since. */
function churnText(churn: Dashboard['subscriptions']['churn']): string {
  if (churn.open_at_start === 0) return 'no churn to measure';
  const percent = (churn.cancelled_since / churn.open_at_start) * 100;
  return `${percent.toFixed(1)}% churn`;
}
