import { bottlesText } from '#shared/catalog.ts';
import {
  addDays,
  allowedChanges,
  MAX_MOVE_DAYS,
  MAX_PAUSE_DAYS,
  type ChangeAction,
  type Subscription,
  type SubscriptionChange,
} from '#shared/subscriptions.ts';

/**
 * Today as the server counts days (UTC), so the date pickers offer exactly the dates the server
 * accepts (`applySubscriptionChange` compares 'YYYY-MM-DD' strings against its UTC day).
 */
export function serverToday(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** The first and last day a date picker offers for moving the next delivery or pausing. */
export function dateRange(action: 'move_date' | 'pause', now: Date = new Date()) {
  const today = serverToday(now);
  return {
    min: addDays(today, 1),
    max: addDays(today, action === 'move_date' ? MAX_MOVE_DAYS : MAX_PAUSE_DAYS),
  };
}

/**
 * The changes the card offers: the ones the server allows (`allowedChanges`, the rule
 * `applySubscriptionChange` applies), and a swap only when there is another supplement to take.
 */
export function availableActions(subscription: Subscription): ChangeAction[] {
  const refill = subscription.refill && {
    remaining: subscription.refill.refills_remaining,
    until: subscription.refill.valid_until,
  };
  return allowedChanges({ status: subscription.status, refill }).filter(
    (action) => action !== 'swap' || subscription.swap_options.length > 0,
  );
}

export function otherFrequency(subscription: Subscription): 'MONTHLY' | 'QUARTERLY' {
  return subscription.frequency === 'MONTHLY' ? 'QUARTERLY' : 'MONTHLY';
}

/** The words on the card's button for each change. */
export function actionLabel(action: ChangeAction, subscription: Subscription): string {
  switch (action) {
    case 'change_frequency':
      return otherFrequency(subscription) === 'QUARTERLY'
        ? 'Switch to quarterly'
        : 'Switch to monthly';
    case 'skip':
      return 'Skip next delivery';
    case 'move_date':
      return 'Change date';
    case 'pause':
      return 'Pause';
    case 'resume':
      return 'Resume';
    case 'change_quantity':
      return 'Change quantity';
    case 'swap':
      return 'Swap product';
    case 'cancel':
      return 'Cancel subscription';
    case 'reactivate':
      return 'Reactivate';
  }
}

/** The dialog's title for each change. */
export function actionTitle(action: ChangeAction, subscription: Subscription): string {
  switch (action) {
    case 'change_frequency':
      return otherFrequency(subscription) === 'QUARTERLY'
        ? 'Switch to quarterly deliveries'
        : 'Switch to monthly deliveries';
    case 'skip':
      return 'Skip your next delivery';
    case 'move_date':
      return 'Change your next delivery date';
    case 'pause':
      return 'Pause your subscription';
    case 'resume':
      return 'Resume your subscription';
    case 'change_quantity':
      return 'Change quantity';
    case 'swap':
      return 'Swap to another supplement';
    case 'cancel':
      return 'Cancel your subscription';
    case 'reactivate':
      return 'Reactivate your subscription';
  }
}

/** Changes that need nothing more from the customer go straight to the preview. */
export function immediateChange(
  action: ChangeAction,
  subscription: Subscription,
): SubscriptionChange | null {
  switch (action) {
    case 'change_frequency':
      return { action, frequency: otherFrequency(subscription) };
    case 'skip':
    case 'resume':
    case 'reactivate':
      return { action };
    default:
      return null;
  }
}

/** Why customers usually cancel; 'Other' asks for their own words. */
export const cancelReasons = [
  'I have more than I need right now',
  'It costs more than I want to spend',
  'It is not working for me',
  'I would rather order when I need it',
  'Other',
] as const;

export const frequencyWords = { MONTHLY: 'Every month', QUARTERLY: 'Every 3 months' } as const;

/**
 * What each delivery brings, in the words of the card: bottles for a supplement
 * ('3 bottles every 3 months'); a refill's contents are the prescription's, so only how often.
 */
export function deliveryText(subscription: Subscription): string {
  return subscription.refill
    ? frequencyWords[subscription.frequency]
    : bottlesText(subscription, subscription.quantity);
}
