import type { AppContext } from '#server/context.ts';
import type { ActiveSession } from '#server/features/auth/auth.service.ts';
import type {
  CardPayload,
  CardSummary,
  PaymentMethodPayload,
  PaymentRetry,
} from '#shared/accounts.ts';
import { updateCard } from './accounts.service.ts';

/**
 * What a feature that charges the card on file does once the customer replaces it, saying what
 * became of each charge it made. Billing registers one at start (app.ts) to charge the unpaid
 * orders with the new card at once; accounts knows no feature above it.
 */
export type CardReplaced = (ctx: AppContext, customerId: number) => Promise<PaymentRetry[]>;

/**
 * Spec §7 `/account/ccupdate/`: save the new card, then let every registered feature use it at
 * once; the answer says what became of each retry, so the page can tell the customer.
 */
export async function replaceCard(
  ctx: AppContext,
  session: ActiveSession,
  input: CardPayload | PaymentMethodPayload,
  cardReplaced: readonly CardReplaced[],
): Promise<{ card: CardSummary; retries: PaymentRetry[] }> {
  const card = await updateCard(ctx, session, input);
  const retries: PaymentRetry[] = [];
  for (const hook of cardReplaced) retries.push(...(await hook(ctx, session.customerId)));
  return { card, retries };
}
