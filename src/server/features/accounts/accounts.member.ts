import { cardExpired } from '#server/adapters/payments.ts';
import type { AppContext } from '#server/context.ts';
import { accountOf, type AccountRow } from './accounts.service.ts';
import type { ActiveSession } from '#server/features/auth/auth.service.ts';
import { getCart } from '#server/features/cart/cart.service.ts';
import { billingFlag, orderHistoryPage } from '#server/features/orders/orders.history.ts';
import { earliestActiveBilling } from '#server/features/subscriptions/subscriptions.service.ts';
import { pendingOrders } from '#server/features/visits/visits.program.ts';
import { unreadCount } from '#server/features/messages/messages.service.ts';
import type { Basics, Flag, PatientData } from '#shared/accounts.ts';
import type { Lander } from '#shared/orders.ts';
import { paths } from '#shared/paths.ts';

/**
 * What the member area shows about a customer across features: the account frame (basics), the
 * lander with order history, and the flags that need attention.
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

async function cardDates(ctx: AppContext, account: AccountRow): Promise<CardDates | null> {
  if (!account.card) return null;
  const now = ctx.clock.now();
  const { expMonth, expYear } = account.card;
  const nextBilling = await earliestActiveBilling(ctx, account.customerId);
  return {
    expiredNow: cardExpired(expMonth, expYear, now),
    expiresBeforeNextBilling:
      nextBilling !== undefined &&
      cardExpired(expMonth, expYear, new Date(`${nextBilling}T12:00:00Z`)),
    expiresSoon: cardExpired(
      expMonth,
      expYear,
      new Date(now.getTime() + CARD_EXPIRING_DAYS * DAY_MS),
    ),
  };
}

function flagsFor(
  account: AccountRow,
  unpaid: { order_number: string } | null,
  card: CardDates | null,
): Flag[] {
  const flags: Flag[] = [];
  if (unpaid) {
    flags.push({
      type: 'payment_failed',
      message: `We could not charge your card for order ${unpaid.order_number}. Update your card to resolve it.`,
      href: paths.editPaymentMethod,
    });
  }
  if (account.card && card) {
    const { expMonth, expYear } = account.card;
    const label = `${account.card.brand} ending in ${account.card.last4}`;
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

/** The failed payment and the card's dates: the flags need them, and so does patient data. */
interface Standing {
  unpaid: { orders_id: number; order_number: string } | null;
  card: CardDates | null;
}

async function standingOf(ctx: AppContext, account: AccountRow): Promise<Standing> {
  return {
    unpaid: await billingFlag(ctx, account.customerId),
    card: await cardDates(ctx, account),
  };
}

async function flags(ctx: AppContext, account: AccountRow, standing?: Standing): Promise<Flag[]> {
  const { unpaid, card } = standing ?? (await standingOf(ctx, account));
  const visits: Flag[] = (await pendingOrders(ctx, account.customerId)).map((visit) => ({
    type: 'visit_incomplete',
    message: `You started an online visit (${visit.product}) and have not finished it yet.`,
    href: paths.visit(visit.product_category),
  }));
  const unread = await unreadCount(ctx, account.customerId);
  const messages: Flag[] = unread
    ? [
        {
          type: 'unread_messages',
          message: `You have ${unread} unread ${unread === 1 ? 'message' : 'messages'} from your care team.`,
          href: paths.messages,
        },
      ]
    : [];
  return [...flagsFor(account, unpaid, card), ...visits, ...messages];
}

/** Spec §7 `/account/basics`: the account frame's names, number, cart count and flags. */
export async function accountBasics(ctx: AppContext, session: ActiveSession): Promise<Basics> {
  const account = await accountOf(ctx, session.customerId);
  return {
    customer_id: account.customerId,
    leads_id: account.leadsId,
    first_name: account.firstName,
    last_name: account.lastName,
    email: account.email,
    cart_count: (await getCart(ctx, account.customerId)).item_count,
    flags: await flags(ctx, account),
  };
}

async function landerOf(
  ctx: AppContext,
  account: AccountRow,
  page: { cursor?: string | undefined; limit?: number | undefined },
  standing?: Standing,
): Promise<Lander> {
  const history = await orderHistoryPage(ctx, account.customerId, page);
  return {
    prospects_id: account.customerId,
    first_name: account.firstName,
    last_name: account.lastName,
    email: account.email,
    flags: await flags(ctx, account, standing),
    order_history: history.orderHistory,
    has_more: history.hasMore,
    next_cursor: history.nextCursor,
    treatment: history.treatment,
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
  return landerOf(ctx, await accountOf(ctx, session.customerId), page);
}

/**
 * Spec §3 "User data": the lander (its first page of orders), the billing flag, and expiredFlag
 * (the card will not last to the next billing). The account and its standing are read once.
 */
export async function patientData(ctx: AppContext, session: ActiveSession): Promise<PatientData> {
  const account = await accountOf(ctx, session.customerId);
  const standing = await standingOf(ctx, account);
  const { card } = standing;
  return {
    leadsId: account.leadsId,
    clicksId: account.clicksId,
    billingFlag: standing.unpaid,
    expiredFlag: card ? card.expiredNow || card.expiresBeforeNextBilling : false,
    lander: await landerOf(ctx, account, {}, standing),
  };
}
