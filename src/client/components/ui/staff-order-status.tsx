import { format, isValid, parseISO } from 'date-fns';
import { dateFormats } from '#shared/constants.ts';

/** 'MMMM dd, yyyy H:mm' (spec §9) for an instant; what cannot be read is shown as sent. */
export function longDateTime(value: string): string {
  const date = parseISO(value);
  return isValid(date) ? format(date, dateFormats.long) : value;
}

/** 'paid', 'partially_refunded' → 'Paid', 'Partially refunded'. */
export function paymentStatusLabel(status: string): string {
  const words = status.replace(/_/g, ' ').trim();
  return words ? `${words.charAt(0).toUpperCase()}${words.slice(1)}` : '—';
}
