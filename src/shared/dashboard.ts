import { z } from 'zod';
import { apiPaths } from './api.ts';
import { endpoint } from './contract.ts';

/*
 * The operator's dashboard (issue 15): the last 30 days of the business on one page of the
 * operations console. Days are calendar days in UTC, as the server counts "today" everywhere else
 * (decision 006, "Dates"). Money is integer cents.
 *
 * What each figure counts:
 * - orders, revenue_cents: store orders (not renewals, not visits) whose payment was taken, by the
 *   day they were placed: paid, partially refunded or refunded since. Revenue is their totals after
 *   discounts and before any later refund (`refunded_cents` says how much of it went back since).
 * - started, cancelled: subscriptions (supplements, refills, gifts and couples' plans alike) by
 *   the day they started and the day they were cancelled; a refill that ran out of fills is
 *   completed, not cancelled. `active`, `past_due` and `paused` are now; `churn` is the share of
 *   the supplement subscriptions open when the window began that have been cancelled since.
 * - failed: renewals whose first charge failed that day (each a subscription period gone past due);
 *   recovered: such a renewal paid later, by a retry or by a card update, on the day it was paid.
 * - visits waiting: submitted and not decided yet, now, with how long each has waited, against
 *   the review target (REVIEW_TARGET_HOURS).
 */

/** How many days the dashboard shows, today included. */
export const DASHBOARD_DAYS = 30;
/** The visits waiting that the dashboard lists one by one (oldest first); the count is of all. */
export const DASHBOARD_WAITING_LISTED = 100;

export const DashboardDaySchema = z.object({
  /** YYYY-MM-DD (UTC). */
  day: z.string(),
  orders: z.number().int(),
  revenue_cents: z.number().int(),
  started: z.number().int(),
  cancelled: z.number().int(),
  failed: z.number().int(),
  recovered: z.number().int(),
  recovered_cents: z.number().int(),
});
export type DashboardDay = z.infer<typeof DashboardDaySchema>;

export const DashboardSchema = z.object({
  /** When the figures were read (ISO), and the first and last day shown (YYYY-MM-DD). */
  generated_at: z.string(),
  from: z.string(),
  to: z.string(),
  /** Every day of the window, oldest first; a day with nothing has zeros. */
  days: z.array(DashboardDaySchema),
  totals: z.object({
    orders: z.number().int(),
    revenue_cents: z.number().int(),
    /** Of the window's revenue, what has been refunded since. */
    refunded_cents: z.number().int(),
    started: z.number().int(),
    cancelled: z.number().int(),
    failed: z.number().int(),
    recovered: z.number().int(),
    recovered_cents: z.number().int(),
  }),
  subscriptions: z.object({
    active: z.number().int(),
    past_due: z.number().int(),
    paused: z.number().int(),
    /**
     * Churn: the supplement subscriptions open on the window's first day, and how many of those
     * have been cancelled since (a refill ends by running out, so refills are left out).
     */
    churn: z.object({
      open_at_start: z.number().int(),
      cancelled_since: z.number().int(),
    }),
  }),
  payments: z.object({
    /** Renewals unpaid now (still retried, or waiting for a card update), and what they owe. */
    unpaid: z.number().int(),
    unpaid_cents: z.number().int(),
  }),
  visits: z.object({
    target_hours: z.number().int(),
    waiting: z.number().int(),
    over_target: z.number().int(),
    /** The oldest waiting visits (at most DASHBOARD_WAITING_LISTED), oldest first. */
    oldest: z.array(
      z.object({
        submitted_at: z.string(),
        /** Whole minutes waited so far. */
        waited_minutes: z.number().int(),
      }),
    ),
  }),
});
export type Dashboard = z.infer<typeof DashboardSchema>;

export const dashboardApi = {
  summary: endpoint({
    path: apiPaths.staffDashboard,
    access: 'operations',
    view: true,
    body: z.strictObject({}),
    response: DashboardSchema,
    errors: [],
  }),
};

/** "3 h 05 min", "2 d 4 h": how long a visit has waited, short enough for a chart label. */
export function waitedLabel(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${String(minutes % 60).padStart(2, '0')} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}
