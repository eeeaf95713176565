import type { ProductLine } from '#shared/catalog.ts';
import { couplesPriceCents } from '#shared/couples-price.ts';
import { formatCents } from '#shared/money.ts';

/**
 * A catalogue card's couples' price (decision 018): "Couples' plan: $15.75 each", from the line's
 * monthly offer; nothing for a line without one (the bundle), which no plan can hold.
 */
export function CouplesPlanPrice({
  line,
  className = '',
}: {
  line: ProductLine;
  className?: string;
}) {
  const monthly = line.offers.find((offer) => offer.frequency === 'MONTHLY');
  if (!monthly) return null;
  return (
    <p className={`text-sm text-muted ${className}`}>
      Couples&apos; plan: {formatCents(couplesPriceCents(monthly.price_cents))} each
    </p>
  );
}
