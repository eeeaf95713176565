import {
  addDays,
  MAX_MOVE_DAYS,
  MAX_PAUSE_DAYS,
  type Subscription,
  type SubscriptionChange,
} from '#shared/subscriptions.ts';

export type ChangeAction = SubscriptionChange['action'];

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
 * What each status allows, in the order the card offers it. The server has the last word
 * (`applySubscriptionChange`); this only keeps the card from offering what would be refused.
 */
export function availableActions(subscription: Subscription): ChangeAction[] {
  // A prescription sets what a refill is and how often it comes: only its dates and whether it
  // continues are the patient's to change.
  if (subscription.refill) {
    switch (subscription.status) {
      case 'ACTIVE':
        return ['skip', 'move_date', 'pause', 'cancel'];
      case 'PAUSED':
        return ['resume', 'cancel'];
      case 'PAST_DUE':
        return ['cancel'];
      case 'CANCELLED':
        return subscription.refill.refills_remaining > 0 ? ['reactivate'] : [];
      case 'COMPLETED':
        return [];
    }
  }
  const swap: ChangeAction[] = subscription.swap_options.length > 0 ? ['swap'] : [];
  switch (subscription.status) {
    case 'ACTIVE':
      return [
        'change_frequency',
        'skip',
        'move_date',
        'change_quantity',
        ...swap,
        'pause',
        'cancel',
      ];
    case 'PAUSED':
      return ['resume', 'change_frequency', 'change_quantity', ...swap, 'cancel'];
    case 'PAST_DUE':
      return ['change_frequency', 'change_quantity', ...swap, 'cancel'];
    case 'CANCELLED':
      return ['reactivate'];
    case 'COMPLETED':
      return [];
  }
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
