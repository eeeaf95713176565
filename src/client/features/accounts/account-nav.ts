import { paths } from '#shared/paths.ts';

export type AccountNavIcon =
  'home' | 'cart' | 'messages' | 'orders' | 'subscriptions' | 'accounts' | 'logout';

export interface AccountNavEntry {
  label: string;
  to: string;
  icon: AccountNavIcon;
  /** Whether the route is built. Entries whose route is not built yet are not linked. */
  exists: boolean;
  /** Home: an attention icon when there are flags; Cart: a badge with the item count. */
  indicator?: 'flags' | 'cart';
}

/**
 * The member area's sidebar, in the order and words of spec §2. When a route is built, flip its
 * `exists` to true: that is the only change needed for it to appear in the sidebar and for flags
 * pointing at it to become links.
 */
export const accountNav: readonly AccountNavEntry[] = [
  { label: 'Home', to: paths.dashboard, icon: 'home', exists: true, indicator: 'flags' },
  { label: 'Cart', to: paths.cart, icon: 'cart', exists: true, indicator: 'cart' },
  { label: 'Messages', to: paths.messages, icon: 'messages', exists: true },
  { label: 'Orders', to: paths.orders, icon: 'orders', exists: true },
  { label: 'Subscriptions', to: paths.subscriptions, icon: 'subscriptions', exists: true },
  { label: 'Accounts', to: paths.accounts, icon: 'accounts', exists: true },
  { label: 'Log out', to: paths.logout, icon: 'logout', exists: true },
];

export const liveAccountNav = accountNav.filter((entry) => entry.exists);

/**
 * Member-area pages that exist but are not sidebar entries (spec §2 fixes the sidebar): sections of
 * Accounts, under its path, so its entry stays marked while they show.
 */
const otherLiveMemberPaths: readonly string[] = [
  paths.editPaymentMethod,
  paths.confirmPaymentPage,
  paths.partner,
];

/**
 * Whether a link the server sent (a flag's href) leads to a page that exists. Links to pages not
 * built yet are shown as text only, never as a link to a 404.
 */
export function isLiveMemberLink(href: string): boolean {
  if (!href.startsWith('/') || href.startsWith('//')) return false;
  const pathname = href.split(/[?#]/)[0] ?? '';
  // An online visit not yet finished: its start resumes it wherever it was left.
  if (/^\/visit\/(ed|sleep|hair)$/.test(pathname)) return true;
  return (
    liveAccountNav.some((entry) => entry.to === pathname && entry.to !== paths.logout) ||
    otherLiveMemberPaths.includes(pathname)
  );
}
