import { cardExpired } from '#server/adapters/payments.ts';
import type { AppContext } from '#server/context.ts';
import type { ActiveSession } from '#server/features/auth/auth.service.ts';
import { getCart } from '#server/features/cart/cart.service.ts';
import { orderHistoryPage } from '#server/features/orders/orders.history.ts';
import { renewalsOf } from '#server/features/renewals/renewals.service.ts';
import { pendingVisitName } from '#server/features/visits/visits.program.ts';
import type { Basics, Flag, PatientData } from '#shared/accounts.ts';
import type { Lander } from '#shared/orders.ts';
import { paths } from '#shared/paths.ts';
import { standingOf, type StandingRow } from '#server/features/accounts/accounts.standing.ts';

/**
 * What the member area shows about a customer across features: the account frame (basics), the
 * lander with order history, and the flags that need attention. Who the customer is and
 * everything the flags need are read in one statement (accounts' `standingOf`). A feature of its
 * own above accounts, orders, cart and visits, so none of them imports another for it.
 */

/** A card within this many days of expiring is flagged. */
const CARD_EXPIRING_DAYS = 30;
const DAY_MS = 24 * 60 * 60_000;

interface CardDates {
  expiredNow: boolean;
  /** Expires before the next subscription billing date (spec: sets expiredFlag). */
  expiresBeforeNextBilling: boolean;
  expiresSoon: boolean;
}

function cardDates(ctx: AppContext, standing: StandingRow): CardDates | null {
  if (!standing.card) return null;
  const now = ctx.clock.now();
  const { expMonth, expYear } = standing.card;
  const { nextBilling } = standing;
  return {
    expiredNow: cardExpired(expMonth, expYear, now),
    expiresBeforeNextBilling:
      nextBilling !== null && cardExpired(expMonth, expYear, new Date(`${nextBilling}T12:00:00Z`)),
    expiresSoon: cardExpired(
      expMonth,
      expYear,
      new Date(now.getTime() + CARD_EXPIRING_DAYS * DAY_MS),
    ),
  };
}

function cardFlags(standing: StandingRow, card: CardDates | null): Flag[] {
  const flags: Flag[] = [];
  const { unpaid } = standing;
  if (unpaid?.confirmable) {
    flags.push({
      type: 'payment_confirmation',
      message: `Your bank wants you to confirm the payment for order ${unpaid.orderNumber}.`,
      href: paths.confirmPayment(unpaid.orderNumber),
    });
  } else if (unpaid) {
    flags.push({
      type: 'payment_failed',
      message: `We could not charge your card for order ${unpaid.orderNumber}. Update your card to resolve it.`,
      href: paths.editPaymentMethod,
    });
  }
  if (standing.card && card) {
    const { expMonth, expYear } = standing.card;
    const label = `${standing.card.brand} ending in ${standing.card.last4}`;
    const expiry = `${String(expMonth).padStart(2, '0')}/${String(expYear).slice(-2)}`;
    if (card.expiredNow) {
      flags.push({
        type: 'card_expired',
        message: `Your ${label} has expired. Add a new card to keep your orders coming.`,
        href: paths.editPaymentMethod,
      });
    } else if (card.expiresBeforeNextBilling) {
      flags.push({
        type: 'card_expiring',
        message: `Your ${label} expires (${expiry}) before your next subscription delivery. Update it to avoid a missed delivery.`,
        href: paths.editPaymentMethod,
      });
    } else if (card.expiresSoon) {
      flags.push({
        type: 'card_expiring',
        message: `Your ${label} expires at the end of ${expiry}. Update it to avoid missed deliveries.`,
        href: paths.editPaymentMethod,
      });
    }
  }
  return flags;
}

function flags(ctx: AppContext, standing: StandingRow): Flag[] {
  const visits: Flag[] = standing.openVisits.map((visit) => ({
    type: 'visit_incomplete',
    message: `You started an online visit (${pendingVisitName(visit.category)}) and have not finished it yet.`,
    href: paths.visit(visit.category),
  }));
  const { unread } = standing;
  const messages: Flag[] = unread
    ? [
        {
          type: 'unread_messages',
          message: `You have ${unread} unread ${unread === 1 ? 'message' : 'messages'} from your care team.`,
          href: paths.messages,
        },
      ]
    : [];
  return [...cardFlags(standing, cardDates(ctx, standing)), ...visits, ...messages];
}

/** Spec §7 `/account/basics`: the account frame's names, number, cart count and flags. */
export async function accountBasics(ctx: AppContext, session: ActiveSession): Promise<Basics> {
  const standing = await standingOf(ctx, session.customerId);
  return {
    customer_id: standing.customerId,
    leads_id: standing.leadsId,
    first_name: standing.firstName,
    last_name: standing.lastName,
    email: standing.email,
    cart_count: (await getCart(ctx, standing.customerId)).item_count,
    flags: flags(ctx, standing),
  };
}

async function landerOf(
  ctx: AppContext,
  standing: StandingRow,
  page: { cursor?: string | undefined; limit?: number | undefined },
): Promise<Lander> {
  const history = await orderHistoryPage(ctx, standing.customerId, page);
  return {
    prospects_id: standing.customerId,
    first_name: standing.firstName,
    last_name: standing.lastName,
    email: standing.email,
    flags: flags(ctx, standing),
    order_history: history.orderHistory,
    has_more: history.hasMore,
    next_cursor: history.nextCursor,
    treatment: history.treatment,
    renewals: await renewalsOf(ctx, standing.customerId),
  };
}

/**
 * Spec §3 `lander`: who the customer is, what needs attention, and one page of their order
 * history (the newest without a cursor).
 */
export async function lander(
  ctx: AppContext,
  session: ActiveSession,
  page: { cursor?: string | undefined; limit?: number | undefined } = {},
): Promise<Lander> {
  return landerOf(ctx, await standingOf(ctx, session.customerId), page);
}

/**
 * Spec §3 "User data": the lander (its first page of orders), the billing flag, and expiredFlag
 * (the card will not last to the next billing).
 */
export async function patientData(ctx: AppContext, session: ActiveSession): Promise<PatientData> {
  const standing = await standingOf(ctx, session.customerId);
  const card = cardDates(ctx, standing);
  return {
    leadsId: standing.leadsId,
    clicksId: standing.clicksId,
    billingFlag: standing.unpaid
      ? { orders_id: standing.unpaid.id, order_number: standing.unpaid.orderNumber }
      : null,
    expiredFlag: card ? card.expiredNow || card.expiresBeforeNextBilling : false,
    lander: await landerOf(ctx, standing, {}),
  };
}
