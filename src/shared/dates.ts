import { limits } from './constants.ts';
import { messages } from './wording.ts';

/** A calendar date without time or zone. */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** Parses 'MM/DD/YYYY' into a real calendar date, or null (31 February is null). */
export function parseUsDate(value: string): CalendarDate | null {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value);
  if (!match) return null;
  const [month, day, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || year < 1900) return null;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > daysInMonth) return null;
  return { year, month, day };
}

/** Whole years between a birth date and `today` (a birthday counts on the day itself). */
export function ageOn(birth: CalendarDate, today: CalendarDate): number {
  let age = today.year - birth.year;
  if (today.month < birth.month || (today.month === birth.month && today.day < birth.day)) age--;
  return age;
}

export function calendarDateOf(instant: Date): CalendarDate {
  return {
    year: instant.getUTCFullYear(),
    month: instant.getUTCMonth() + 1,
    day: instant.getUTCDate(),
  };
}

/** 'YYYY-MM-DD', as dates are stored. */
export function isoDate(date: CalendarDate): string {
  return `${date.year}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}

const monthNames = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** 'November 29, 2026' from a stored 'YYYY-MM-DD': a date in a sentence the patient reads. */
export function longDateFromIso(iso: string): string {
  const [year, month, day] = iso.split('-');
  return `${monthNames[Number(month) - 1] ?? month} ${Number(day)}, ${year}`;
}

/** 'MM/DD/YYYY' from a stored 'YYYY-MM-DD'. */
export function usDateFromIso(iso: string): string {
  const [year, month, day] = iso.split('-');
  return `${month}/${day}/${year}`;
}

/**
 * The date-of-birth rules of spec §5, in its order and words: required, length 10, a real date,
 * age 19 to 99 on `today`. Returns the first message that applies, or null.
 */
export function dobProblem(value: string | undefined, today: Date): string | null {
  if (!value) return messages.dobRequired;
  if (value.length !== 10) return messages.dobFormat;
  const birth = parseUsDate(value);
  if (!birth) return messages.dobInvalid;
  const age = ageOn(birth, calendarDateOf(today));
  if (age < 0) return messages.dobInvalid;
  if (age < limits.minAge) return messages.dobMinAge;
  if (age > limits.maxAge) return messages.dobMaxAge;
  return null;
}

/** 'YYYY-MM-DD' plus whole months; a day the month lacks becomes its last day (Jan 31 + 1 → Feb 28/29). */
export function addMonthsIso(iso: string, months: number): string {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(
    Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0),
  ).getUTCDate();
  return isoDate({
    year: target.getUTCFullYear(),
    month: target.getUTCMonth() + 1,
    day: Math.min(day, lastDay),
  });
}
