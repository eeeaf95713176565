/**
 * Slash-separated numbers typed on a number keypad, where there is no '/' key: 'MM/DD/YYYY' for a
 * birth date and 'MM/YY' for a card's expiry. When the customer types (or pastes) at the end, the
 * slash is added as each group fills; deleting and editing in the middle are left alone, and a
 * customer who types the slashes themselves keeps exactly what they typed.
 */
export function autoSlash(previous: string, next: string, groups: readonly number[]): string {
  if (next.length <= previous.length || !next.startsWith(previous)) return next;
  if (!/^[\d/]*$/.test(next)) return next;
  if (next.endsWith('//')) return next.slice(0, -1);
  const parts = next.split('/');
  const done = parts.slice(0, -1);
  let last = parts.at(-1) ?? '';
  let index = done.length;
  while (index < groups.length - 1 && last.length > (groups[index] ?? 0)) {
    const size = groups[index] ?? 0;
    done.push(last.slice(0, size));
    last = last.slice(size);
    index++;
  }
  const value = [...done, last].join('/');
  const filled = index < groups.length - 1 && last.length === groups[index];
  return filled ? `${value}/` : value;
}

export const dateGroups = [2, 2, 4] as const;
export const expiryGroups = [2, 2] as const;

/**
 * A card number grouped as it is typed: fours (4242 4242 4242 4242), or 4-6-5 for American Express
 * (34…, 37…). Only when the customer types or pastes at the end; editing in the middle is left
 * alone. Spaces are ignored by the schema, so the grouping never changes what is sent.
 */
export function groupCardNumber(previous: string, next: string): string {
  if (next.length <= previous.length || !next.startsWith(previous)) return next;
  if (!/^[\d\s-]*$/.test(next)) return next;
  const digits = next.replace(/\D/g, '');
  const sizes = /^3[47]/.test(digits) ? [4, 6, 5] : [4, 4, 4, 4, 4];
  const groups: string[] = [];
  let rest = digits;
  for (const size of sizes) {
    if (!rest) break;
    groups.push(rest.slice(0, size));
    rest = rest.slice(size);
  }
  // Digits past the last group (a number too long) stay visible for the schema to refuse.
  return [...groups, ...(rest ? [rest] : [])].join(' ');
}
