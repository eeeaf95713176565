// zod/mini, as cart.ts: the storefront's first visit carries these schemas (decision 007).
import * as z from 'zod/mini';

/**
 * The largest id any table holds: ids are PostgreSQL `integer` columns (SQLite's are wider), which
 * stop at 2³¹ − 1. A larger number could never name a record, and PostgreSQL refuses to compare
 * one with an `integer` column at all, so every id a request carries is checked against this range
 * before it reaches a query: out of range is bad input (400), never a database error.
 */
export const MAX_ID = 2_147_483_647;

/**
 * An id in a request body: a whole number from 1 to `MAX_ID`. `message` says what to choose (it is
 * the field's message for a missing, mistyped or out-of-range id alike: none of them names one).
 */
export function idSchema(message = 'Choose a record') {
  return z
    .number({ error: message })
    .check(z.int(message), z.positive(message), z.maximum(MAX_ID, message));
}

/** The customer's leads id (spec §3 `leadsId`), as a member-area request names it. */
export const LeadsIdSchema = z.string().check(z.minLength(1), z.maxLength(64));
