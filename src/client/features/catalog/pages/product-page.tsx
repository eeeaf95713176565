import { useEffect, useRef } from 'react';
import { Link, useParams } from 'react-router';
import { catalogApi, headlineOffer, type ProductLine } from '#shared/catalog.ts';
import { couplesPriceCents } from '#shared/couples-price.ts';
import { formatCents, priceLabel } from '#shared/money.ts';
import { site } from '#shared/site.ts';
import { LoadError } from '#client/components/ui/load-error.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { textLinkClass } from '#client/components/ui/button.ts';
import { itemLists, productLineSource, trackViewItem } from '#client/lib/analytics.ts';
import { failedWith } from '#client/lib/api.ts';
import { NotFoundPage } from '#client/features/errors/pages/not-found-page.tsx';
import { paths } from '#shared/paths.ts';
import { useCatalog, useProductLine } from '../catalog.api.ts';
import { ProductCard } from '../components/product-card.tsx';
import { useViewItemList } from '../use-item-list.ts';
import { PurchaseOptions } from '../components/purchase-options.tsx';
import { PageTitle } from '#client/components/layout/document-head.tsx';

const promises = [
  'Free shipping on every order',
  'Vegan, gelatin-free gummies',
  'Subscriptions: skip, pause or cancel any time',
];

/** GA4 `view_item`, once per product shown (DESIGN §8). */
function useViewItem(line: ProductLine | undefined) {
  const sent = useRef<string | null>(null);
  useEffect(() => {
    if (!line || sent.current === line.slug) return;
    const source = productLineSource(line);
    if (!source) return;
    sent.current = line.slug;
    trackViewItem(source);
  }, [line]);
}

function MoreProducts({ current }: { current: string }) {
  const catalog = useCatalog();
  const others = catalog.data?.lines.filter((line) => line.slug !== current) ?? [];
  const shown = others.slice(0, 3);
  useViewItemList(itemLists.related, shown.length > 0 ? shown : undefined);
  if (shown.length === 0) return null;
  return (
    <section aria-labelledby="more-title" className="container-page pb-16 md:pb-20">
      <h2 id="more-title" className="text-2xl text-ink md:text-3xl">
        More from {site.name}
      </h2>
      <ul className="mt-6 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
        {shown.map((line, index) => (
          <li key={line.slug} className="flex">
            <ProductCard line={line} list={itemLists.related} index={index} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** /shop/:slug: one product, its description and dose, and the ways to buy it. */
export function ProductPage() {
  const { slug = '' } = useParams();
  const product = useProductLine(slug);
  useViewItem(product.data);

  if (product.isPending) return <Spinner screen label="Loading the product…" />;
  if (product.isError) {
    if (failedWith(product.error, catalogApi.product, 'NOT_FOUND')) return <NotFoundPage />;
    return (
      <div className="container-page py-12">
        <LoadError message={product.error.message} onRetry={() => void product.refetch()} />
      </div>
    );
  }

  const line = product.data;
  const headline = headlineOffer(line);
  const monthly = line.offers.find((offer) => offer.frequency === 'MONTHLY');
  return (
    <>
      <PageTitle>{`${line.name} — ${site.name}`}</PageTitle>
      <div className="bg-gradient-to-b from-accent-50 via-accent-50/40 to-white">
        <div className="container-page py-6 md:py-12">
          <nav aria-label="Breadcrumb">
            <ol className="flex flex-wrap items-center gap-2 text-sm text-muted">
              <li>
                <Link to={paths.shop} className={textLinkClass}>
                  Shop
                </Link>
              </li>
              <li aria-hidden="true">/</li>
              <li aria-current="page" className="text-ink-soft">
                {line.name}
              </li>
            </ol>
          </nav>
          <div className="mt-6 grid gap-8 md:grid-cols-2 md:gap-10 lg:gap-16">
            <div className="md:sticky md:top-24 md:self-start">
              <img
                src={line.img}
                alt={line.name}
                width={800}
                height={800}
                fetchPriority="high"
                className="aspect-square w-full rounded-[2rem] bg-surface object-cover shadow-xl ring-1 ring-white"
              />
            </div>
            <div>
              <h1 className="text-[2.25rem] leading-[1.1] text-ink md:text-5xl">{line.name}</h1>
              <p className="mt-3 text-lg text-ink-soft">{line.summary}</p>
              {headline ? (
                <p className="mt-4 flex flex-wrap items-baseline gap-x-2 text-2xl font-semibold text-ink">
                  {priceLabel(headline.price_cents, headline.frequency)}
                  {monthly ? (
                    <span className="text-base font-normal text-muted">
                      or{' '}
                      <span className="font-semibold text-accent-800">
                        {priceLabel(monthly.price_cents, monthly.frequency)}
                      </span>{' '}
                      by subscription
                    </span>
                  ) : null}
                </p>
              ) : null}
              {monthly ? (
                <p className="mt-1 text-[0.9375rem] text-ink-soft">
                  Couples&apos; plan: {formatCents(couplesPriceCents(monthly.price_cents))} each a
                  month, for you and your partner, delivered together.{' '}
                  <Link to={paths.partner} className={textLinkClass}>
                    How it works
                  </Link>
                </p>
              ) : null}
              <div className="mt-6 rounded-3xl border border-line bg-white p-5 shadow-[0_8px_30px_rgba(15,37,51,0.06)] sm:p-6">
                <PurchaseOptions line={line} />
              </div>
              <section aria-labelledby="about-title" className="mt-8">
                <h2 id="about-title" className="text-2xl text-ink">
                  About this product
                </h2>
                <p className="mt-3 leading-relaxed text-ink-soft">{line.description}</p>
                <ul className="mt-5 space-y-2.5">
                  {promises.map((promise) => (
                    <li
                      key={promise}
                      className="flex items-start gap-2.5 text-[0.9375rem] text-ink-soft"
                    >
                      <span
                        aria-hidden="true"
                        className="mt-0.5 grid size-5 shrink-0 place-items-center rounded-full bg-accent-100 text-accent-800"
                      >
                        <svg
                          viewBox="0 0 20 20"
                          className="size-3"
                          fill="none"
                          stroke="currentColor"
                          strokeWidth="2.5"
                        >
                          <path d="M4 10.5l4 4 8-9" strokeLinecap="round" strokeLinejoin="round" />
                        </svg>
                      </span>
                      {promise}
                    </li>
                  ))}
                </ul>
                <p className="mt-6 text-xs leading-relaxed text-muted">
                  These statements have not been evaluated by the Food and Drug Administration. This
                  product is not intended to diagnose, treat, cure or prevent any disease.
                </p>
              </section>
            </div>
          </div>
        </div>
      </div>
      <MoreProducts current={line.slug} />
    </>
  );
}
