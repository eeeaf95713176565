// A customer as other features may know them: first name, email and whether it is proved. The
// partners feature links two customers and names each to the other; it asks here instead of
// reading the accounts' table, so what a customer is stays this feature's to say.
import type { Transaction } from 'kysely';
import type { AppContext } from '#server/context.ts';
import type { Database } from '#server/db/schema.ts';
import * as q from './accounts.queries.ts';

export type { CustomerBrief } from './accounts.queries.ts';

/** The customer's first name, email and whether it is proved; undefined when the account is gone. */
export function customerBrief(
  ctx: AppContext,
  customerId: number,
): Promise<q.CustomerBrief | undefined> {
  return q.selectCustomerBrief(ctx.db, customerId);
}

/**
 * The patient's legal name and date of birth, as a prescription sent to the pharmacy names them
 * (issue 29); undefined when the account is gone.
 */
export function patientIdentity(ctx: AppContext, customerId: number) {
  return q.selectPatientIdentity(ctx.db, customerId);
}

/** Whether an account already uses this email address, as it is stored. */
export async function hasAccountWithEmail(ctx: AppContext, email: string): Promise<boolean> {
  return (await q.selectCustomerIdByEmail(ctx.db, email)) !== undefined;
}

/**
 * The first names of many customers in one statement, by customer id: a list that names the people
 * on its rows asks once, not once a row. An id whose account is gone has no entry.
 */
export function firstNamesOf(ctx: AppContext, ids: number[]): Promise<Map<number, string>> {
  return q.selectFirstNames(ctx.db, ids);
}

/**
 * Takes the write locks of both people's customer rows, the lower id first, before a link between
 * them is made or ended: two such changes sharing a person queue one behind the other instead of
 * each holding half of what the other needs (PostgreSQL would end one as a deadlock). SQLite
 * writes one transaction at a time anyway.
 */
export async function lockCustomers(trx: Transaction<Database>, ids: number[]): Promise<void> {
  for (const id of [...ids].sort((a, b) => a - b)) await q.lockCustomerRow(trx, id);
}
