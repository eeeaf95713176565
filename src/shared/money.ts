import type { Frequency } from './catalog.ts';

/** Money is integer cents end to end; this is the one function that turns cents into text. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  const dollars = Math.floor(abs / 100).toLocaleString('en-US');
  const rest = String(abs % 100).padStart(2, '0');
  return `${sign}$${dollars}.${rest}`;
}

/** The price labels of spec §3: '$X.XX', '$X.XX/month' and '$X.XX/quarterly'. */
export function priceLabel(cents: number, frequency: Frequency): string {
  const amount = formatCents(cents);
  switch (frequency) {
    case 'ONE_TIME':
      return amount;
    case 'MONTHLY':
      return `${amount}/month`;
    case 'QUARTERLY':
      return `${amount}/quarterly`;
  }
}

/** Cents to the decimal number the spec's payloads carry (price as a number, e.g. 24.99). */
export function centsToAmount(cents: number): number {
  return Math.round(cents) / 100;
}
