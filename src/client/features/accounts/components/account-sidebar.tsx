import { NavLink } from 'react-router';
import type { Basics } from '#shared/accounts.ts';
import { liveAccountNav, type AccountNavEntry, type AccountNavIcon } from '../account-nav.ts';

const iconPaths: Record<AccountNavIcon, string> = {
  home: 'M3.5 10.5 12 4l8.5 6.5M6 9v10.5h4.5V14h3v5.5H18V9',
  cart: 'M3 4.5h2.2l2.1 10.2a1.5 1.5 0 0 0 1.5 1.2h7.9a1.5 1.5 0 0 0 1.5-1.1L20 8H6.1M9.5 20h.01M17 20h.01',
  messages:
    'M4.5 5.5h15a1 1 0 0 1 1 1v9a1 1 0 0 1-1 1H10l-4.5 3.5V16.5h-1a1 1 0 0 1-1-1v-9a1 1 0 0 1 1-1Z',
  orders: 'M4 7.5 12 3.5l8 4v9l-8 4-8-4v-9Zm0 0 8 4m0 0 8-4m-8 4v9',
  subscriptions:
    'M19.5 12a7.5 7.5 0 0 1-13.1 5M4.5 12a7.5 7.5 0 0 1 13.1-5M17.6 3.5V7h-3.5M6.4 20.5V17h3.5',
  accounts: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm-7.5 8.5c.8-3.6 3.9-6 7.5-6s6.7 2.4 7.5 6',
  logout: 'M14 4.5h4.5a1 1 0 0 1 1 1v13a1 1 0 0 1-1 1H14M10 16.5 5.5 12 10 7.5M5.5 12h10',
};

function NavIcon({ icon }: { icon: AccountNavIcon }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="size-5 shrink-0"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={iconPaths[icon]} />
    </svg>
  );
}

/** Spec §2: Home shows an attention icon when the customer has flags. */
function AttentionIcon() {
  return (
    <svg
      role="img"
      aria-label="Needs attention"
      viewBox="0 0 20 20"
      className="ml-auto size-5 shrink-0 text-danger"
      fill="currentColor"
    >
      <path d="M10 1.75a8.25 8.25 0 1 0 0 16.5 8.25 8.25 0 0 0 0-16.5Zm0 4a.9.9 0 0 1 .9.9v3.9a.9.9 0 1 1-1.8 0V6.65a.9.9 0 0 1 .9-.9Zm0 8.6a1.1 1.1 0 1 1 0-2.2 1.1 1.1 0 0 1 0 2.2Z" />
    </svg>
  );
}

/** Spec §2: Cart shows a badge with the count of cart items. */
function CountBadge({ count }: { count: number }) {
  return (
    <span className="ml-auto inline-flex min-w-6 items-center justify-center rounded-full bg-accent-700 px-1.5 py-0.5 text-xs font-semibold text-white">
      {count}
      <span className="sr-only">{count === 1 ? ' item' : ' items'}</span>
    </span>
  );
}

interface AccountSidebarProps {
  basics: Basics | undefined;
  /** The entries to show; by default those whose route exists. */
  entries?: readonly AccountNavEntry[];
  onNavigate?: () => void;
}

/** The member area's sidebar (spec §2 Account layout): who is logged in, and where to go. */
export function AccountSidebar({
  basics,
  entries = liveAccountNav,
  onNavigate,
}: AccountSidebarProps) {
  return (
    <div className="rounded-3xl border border-line bg-white p-4 shadow-[0_1px_2px_rgba(15,37,51,0.04)]">
      {basics ? (
        <div className="flex items-center gap-3 border-b border-line px-2 pb-4">
          <span
            aria-hidden="true"
            className="grid size-11 shrink-0 place-items-center rounded-full bg-accent-100 font-display text-lg font-semibold text-accent-800"
          >
            {`${basics.first_name.charAt(0)}${basics.last_name.charAt(0)}`.toUpperCase()}
          </span>
          <div className="min-w-0">
            <p className="truncate font-semibold text-ink">
              {basics.first_name} {basics.last_name}
            </p>
            <p className="text-sm text-muted">Customer: {basics.customer_id}</p>
          </div>
        </div>
      ) : null}
      <nav aria-label="Account" className={basics ? 'pt-3' : ''}>
        <ul className="space-y-1">
          {entries.map((entry) => (
            <li key={entry.to}>
              <NavLink
                to={entry.to}
                onClick={onNavigate}
                className={({ isActive }) =>
                  `flex min-h-11 items-center gap-3 rounded-xl px-3 py-2 text-[0.9375rem] font-medium transition-colors ${
                    isActive
                      ? 'bg-accent-50 text-accent-900 ring-1 ring-accent-200'
                      : 'text-ink-soft hover:bg-surface hover:text-ink'
                  }`
                }
              >
                <NavIcon icon={entry.icon} />
                <span>{entry.label}</span>
                {entry.indicator === 'flags' && basics && basics.flags.length > 0 ? (
                  <AttentionIcon />
                ) : null}
                {entry.indicator === 'cart' && basics && basics.cart_count > 0 ? (
                  <CountBadge count={basics.cart_count} />
                ) : null}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
