import { usDateFromIso } from '#shared/dates.ts';

/** A stored date of birth ('YYYY-MM-DD') as the form shows it ('MM/DD/YYYY'). */
export function dobForForm(value: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? usDateFromIso(value) : value;
}
