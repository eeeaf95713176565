import type { CardSummary } from '#shared/accounts.ts';

/** 'MM/YY' from the stored expiry month and year. */
export function cardExpiry(card: CardSummary): string {
  return `${String(card.exp_month).padStart(2, '0')}/${String(card.exp_year % 100).padStart(2, '0')}`;
}

/**
 * The card on file: brand, last four digits, expiry, and an 'Expired' badge. Nothing else of a
 * card is ever known to the browser after it is saved.
 */
export function PaymentCard({ card }: { card: CardSummary | null }) {
  if (!card) {
    return (
      <div className="flex items-center gap-4 rounded-2xl border border-dashed border-line bg-surface px-5 py-4">
        <CardGlyph />
        <p className="text-ink-soft">No card on file</p>
      </div>
    );
  }
  return (
    <div
      className={`flex flex-wrap items-center gap-x-4 gap-y-2 rounded-2xl border px-5 py-4 ${
        card.expired ? 'border-danger/30 bg-danger-soft/50' : 'border-line bg-surface'
      }`}
    >
      <CardGlyph />
      <div className="min-w-0 flex-1">
        <p className="font-semibold text-ink">
          {card.brand} <span aria-hidden="true">••••</span>
          <span className="sr-only">ending in</span> {card.last4}
        </p>
        <p className="text-sm text-ink-soft">Expires {cardExpiry(card)}</p>
      </div>
      {card.expired ? (
        <span className="rounded-full bg-danger px-2.5 py-0.5 text-sm font-semibold text-white">
          Expired
        </span>
      ) : null}
    </div>
  );
}

function CardGlyph() {
  return (
    <span
      aria-hidden="true"
      className="grid h-9 w-12 shrink-0 place-items-center rounded-lg bg-gradient-to-br from-accent-600 to-accent-800 text-white shadow-sm"
    >
      <svg
        viewBox="0 0 24 24"
        className="size-5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
      >
        <rect x="3" y="5.5" width="18" height="13" rx="2" />
        <path d="M3 10h18M7 15h3" strokeLinecap="round" />
      </svg>
    </span>
  );
}
