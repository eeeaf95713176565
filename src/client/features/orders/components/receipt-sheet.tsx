import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '#shared/paths.ts';
import { site } from '#shared/site.ts';
import { buttonClass, textLinkClass } from '#client/components/ui/button.ts';
import { AccountHeader } from '#client/features/accounts/components/account-layout.tsx';

/**
 * A receipt made to print (a store order's; a visit's or a refill's for an HSA or FSA claim): the
 * page's heading, then the sheet — the brand, its title, the order number and date, what `children`
 * itemise — then Print and the way back. The site's header, footer and account menu, and the
 * buttons, stay off the paper; it prints black on white on one page.
 */
export function ReceiptSheet({
  pageTitle,
  orderNumber,
  title,
  dateTerm,
  date,
  children,
}: {
  pageTitle: string;
  orderNumber: string;
  /** The sheet's own heading ("Receipt for order PW-…"). */
  title: string;
  dateTerm: string;
  date: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="print:text-black print:**:text-black">
      <div className="print:hidden">
        <AccountHeader
          title={pageTitle}
          documentTitle={`Receipt ${orderNumber}`}
          subtitle={`Order ${orderNumber}`}
        />
      </div>
      <article
        aria-labelledby="receipt-title"
        className="rounded-3xl border border-line bg-white p-5 sm:p-8 print:rounded-none print:border-0 print:p-0 print:text-[11pt]"
      >
        <header className="flex flex-wrap items-start justify-between gap-4 border-b border-line pb-5 print:border-black print:pb-3">
          <div>
            <p className="font-display text-xl text-ink">{site.name}</p>
            <h2 id="receipt-title" className="mt-1 font-sans text-lg font-semibold text-ink">
              {title}
            </h2>
          </div>
          <dl className="grid grid-cols-[auto_auto] gap-x-4 gap-y-1 text-[0.9375rem]">
            <dt className="text-muted">Order number</dt>
            <dd className="font-semibold text-ink">{orderNumber}</dd>
            <dt className="text-muted">{dateTerm}</dt>
            <dd className="text-ink">{date}</dd>
          </dl>
        </header>
        {children}
      </article>

      <div className="mt-6 flex flex-wrap items-center gap-4 print:hidden">
        <button type="button" className={buttonClass('primary')} onClick={() => window.print()}>
          Print
        </button>
        <Link to={paths.order(orderNumber)} className={textLinkClass}>
          Back to Orders
        </Link>
      </div>
    </div>
  );
}

/** An order number with no receipt in this account: said plainly, with the way back. */
export function NoReceipt({ children }: { children: ReactNode }) {
  return (
    <>
      <AccountHeader title="Receipt not found" />
      <div className="rounded-3xl border border-line bg-white p-5 sm:p-6">
        <p className="text-ink-soft">{children}</p>
        <Link to={paths.orders} className={`${buttonClass('primary')} mt-4`}>
          Back to Orders
        </Link>
      </div>
    </>
  );
}
