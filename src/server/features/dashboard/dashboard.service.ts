import type { AppContext } from '#server/context.ts';
import { REVIEW_TARGET_HOURS } from '#shared/constants.ts';
import {
  DASHBOARD_DAYS,
  DASHBOARD_WAITING_LISTED,
  type Dashboard,
  type DashboardDay,
} from '#shared/dashboard.ts';
import * as q from './dashboard.queries.ts';

const DAY_MS = 24 * 60 * 60_000;
const HOUR_MS = 60 * 60_000;

/** The UTC days of the window ending today, oldest first (YYYY-MM-DD). */
export function windowDays(now: Date, count = DASHBOARD_DAYS): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: count }, (_, i) =>
    new Date(today - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
}

/**
 * The operator's dashboard (shared/dashboard.ts says what each figure counts): the last 30 UTC
 * days, today included, every day present (zeros on a day with nothing), and the figures of now.
 */
export async function dashboard(ctx: AppContext): Promise<Dashboard> {
  const now = ctx.clock.now();
  const days = windowDays(now);
  const first = days[0] ?? '';
  const last = days[days.length - 1] ?? '';
  const window: q.Window = {
    from: `${first}T00:00:00.000Z`,
    until: new Date(Date.parse(`${last}T00:00:00.000Z`) + DAY_MS).toISOString(),
  };
  const lateBefore = new Date(now.getTime() - REVIEW_TARGET_HOURS * HOUR_MS).toISOString();

  // One statement after another: a dashboard is not worth more than one of the pool's connections.
  const orders = await q.storeOrdersByDay(ctx.db, window);
  const started = await q.subscriptionsByDay(ctx.db, 'created_at', window);
  const cancelled = await q.subscriptionsByDay(ctx.db, 'cancelled_at', window);
  const failed = await q.failedRenewalsByDay(ctx.db, window);
  const recovered = await q.recoveredRenewalsByDay(ctx.db, window);
  const statuses = await q.subscriptionsByStatus(ctx.db);
  const churn = await q.supplementChurn(ctx.db, window);
  const unpaid = await q.unpaidRenewals(ctx.db);
  const waiting = await q.waitingVisitCounts(ctx.db, lateBefore);
  const oldest = await q.oldestWaitingVisits(ctx.db, DASHBOARD_WAITING_LISTED);

  const count = (rows: { day: string; count: number }[], day: string) =>
    rows.find((r) => r.day === day)?.count ?? 0;
  const perDay: DashboardDay[] = days.map((day) => {
    const sold = orders.find((r) => r.day === day);
    const paidLate = recovered.find((r) => r.day === day);
    return {
      day,
      orders: sold?.orders ?? 0,
      revenue_cents: sold?.revenueCents ?? 0,
      started: count(started, day),
      cancelled: count(cancelled, day),
      failed: count(failed, day),
      recovered: paidLate?.count ?? 0,
      recovered_cents: paidLate?.cents ?? 0,
    };
  });
  const sum = (pick: (d: DashboardDay) => number) => perDay.reduce((n, d) => n + pick(d), 0);

  return {
    generated_at: now.toISOString(),
    from: first,
    to: last,
    days: perDay,
    totals: {
      orders: sum((d) => d.orders),
      revenue_cents: sum((d) => d.revenue_cents),
      refunded_cents: orders.reduce((n, r) => n + r.refundedCents, 0),
      started: sum((d) => d.started),
      cancelled: sum((d) => d.cancelled),
      failed: sum((d) => d.failed),
      recovered: sum((d) => d.recovered),
      recovered_cents: sum((d) => d.recovered_cents),
    },
    subscriptions: {
      active: statuses.get('ACTIVE') ?? 0,
      past_due: statuses.get('PAST_DUE') ?? 0,
      paused: statuses.get('PAUSED') ?? 0,
      churn: { open_at_start: churn.open, cancelled_since: churn.cancelled },
    },
    payments: { unpaid: unpaid.count, unpaid_cents: unpaid.cents },
    visits: {
      target_hours: REVIEW_TARGET_HOURS,
      waiting: waiting.waiting,
      over_target: waiting.late,
      oldest: oldest.map((submittedAt) => ({
        submitted_at: submittedAt,
        waited_minutes: Math.max(0, Math.floor((now.getTime() - Date.parse(submittedAt)) / 60_000)),
      })),
    },
  };
}
