import { sharingItems, sharingItemText, type Sharing } from '#shared/partners.ts';

/** "shipping address and store orders and their tracking", or null when nothing is shared. */
export function sharedWords(sharing: Sharing): string | null {
  const items = sharingItems
    .filter((item) => sharing[item])
    .map((item) => sharingItemText[item].label.toLowerCase());
  if (items.length === 0) return null;
  if (items.length === 1) return items[0] ?? null;
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
