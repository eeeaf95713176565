import { Link } from 'react-router';
import type { ProductLine } from '#shared/catalog.ts';
import { site } from '#shared/site.ts';
import { LoadError } from '#client/components/ui/load-error.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { paths } from '#shared/paths.ts';
import { useCatalog } from '../catalog.api.ts';
import { selectItem, useViewItemList } from '../use-item-list.ts';
import { itemLists } from '#client/lib/analytics.ts';
import { CouplesPlanPrice } from '../components/couples-plan-price.tsx';
import { PurchaseOptions } from '../components/purchase-options.tsx';
import { PageTitle } from '#client/components/layout/document-head.tsx';

function ShopItem({ line, index }: { line: ProductLine; index: number }) {
  return (
    <article
      aria-labelledby={`product-${line.slug}`}
      className="flex h-full flex-col rounded-3xl border border-line bg-white p-5 shadow-[0_1px_2px_rgba(15,37,51,0.04)] sm:p-6"
    >
      <div className="flex items-start gap-4 sm:gap-5">
        <img
          src={line.img}
          alt=""
          width={800}
          height={800}
          loading="lazy"
          decoding="async"
          className="size-24 shrink-0 rounded-2xl bg-surface object-cover ring-1 ring-line sm:size-32"
        />
        <div className="min-w-0">
          <h2
            id={`product-${line.slug}`}
            className="font-sans text-xl font-semibold leading-snug text-ink"
          >
            <Link
              to={paths.product(line.slug)}
              onClick={() => selectItem(itemLists.shop, line, index)}
              className="rounded-sm hover:text-accent-800 hover:underline hover:underline-offset-4"
            >
              {line.name}
            </Link>
          </h2>
          <p className="mt-1 text-ink-soft">{line.summary}</p>
          <CouplesPlanPrice line={line} className="mt-1" />
        </div>
      </div>
      <p className="mt-4 text-[0.9375rem] leading-relaxed text-ink-soft">{line.description}</p>
      <div className="mt-auto pt-5">
        <PurchaseOptions line={line} compact />
      </div>
    </article>
  );
}

/** /shop: every product with its ways to buy. */
export function ShopPage() {
  const catalog = useCatalog();
  useViewItemList(itemLists.shop, catalog.data?.lines);
  return (
    <>
      <PageTitle>{`Shop — ${site.name}`}</PageTitle>
      <section className="bg-gradient-to-b from-accent-50 via-accent-50/40 to-white">
        <div className="container-page py-10 md:py-14">
          <h1 className="text-[2.5rem] leading-[1.08] text-ink md:text-5xl">Shop</h1>
          <p className="mt-3 max-w-2xl text-lg text-ink-soft">
            Vegan gummies for sleep, hair and immunity. Buy once, or subscribe monthly or quarterly
            and save. Every order ships free.
          </p>
        </div>
      </section>
      <div className="container-page pb-16 md:pb-20">
        {catalog.isPending ? (
          <Spinner label="Loading products…" block />
        ) : catalog.isError ? (
          <LoadError message={catalog.error.message} onRetry={() => void catalog.refetch()} />
        ) : (
          <ul className="grid gap-6 lg:grid-cols-2">
            {catalog.data.lines.map((line, index) => (
              <li key={line.slug}>
                <ShopItem line={line} index={index} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </>
  );
}
