import { Link } from 'react-router';
import type { ProductLine } from '#shared/catalog.ts';
import { headlineOffer } from '#shared/catalog.ts';
import { priceLabel } from '#shared/money.ts';
import { paths } from '#shared/paths.ts';
import type { ItemList } from '#client/lib/analytics.ts';
import { selectItem } from '../use-item-list.ts';
import { CouplesPlanPrice } from './couples-plan-price.tsx';

/**
 * A catalogue entry: image, name, what it does, and its prices in the spec's labels. The whole
 * card opens the product page; the name is the one link, so a screen reader hears it once.
 */
export function ProductCard({
  line,
  list,
  index,
}: {
  line: ProductLine;
  /** The list the card is shown in, for GA4's `select_item` when it is opened. */
  list: ItemList;
  index: number;
}) {
  const headline = headlineOffer(line);
  const monthly = line.offers.find((offer) => offer.frequency === 'MONTHLY');
  return (
    <article className="group relative flex flex-col overflow-hidden rounded-3xl border border-line bg-white shadow-[0_1px_2px_rgba(15,37,51,0.04)] transition-shadow hover:shadow-lg has-[a:focus-visible]:ring-3 has-[a:focus-visible]:ring-accent-600">
      <div className="aspect-square overflow-hidden bg-surface">
        <img
          src={line.img}
          alt={line.name}
          width={800}
          height={800}
          loading="lazy"
          decoding="async"
          className="size-full object-cover transition-transform duration-300 group-hover:scale-[1.02]"
        />
      </div>
      <div className="flex flex-1 flex-col p-5">
        <h3 className="font-sans text-lg font-semibold leading-snug text-ink">
          <Link
            to={paths.product(line.slug)}
            onClick={() => selectItem(list, line, index)}
            className="outline-none after:absolute after:inset-0 after:content-[''] group-hover:text-accent-800"
          >
            {line.name}
          </Link>
        </h3>
        <p className="mt-1.5 text-[0.9375rem] text-ink-soft">{line.summary}</p>
        <div className="mt-auto flex flex-wrap items-baseline gap-x-2 gap-y-1 pt-4">
          {headline ? (
            <p className="text-lg font-semibold text-ink">
              {priceLabel(headline.price_cents, headline.frequency)}
            </p>
          ) : null}
          {monthly ? (
            <p className="text-sm text-muted">
              or{' '}
              <span className="font-medium text-accent-800">
                {priceLabel(monthly.price_cents, monthly.frequency)}
              </span>{' '}
              by subscription
            </p>
          ) : (
            <p className="text-sm text-muted">{headline?.dose}</p>
          )}
          <CouplesPlanPrice line={line} className="w-full" />
        </div>
      </div>
    </article>
  );
}
