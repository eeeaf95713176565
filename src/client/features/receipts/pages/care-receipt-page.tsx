import { Link, useParams } from 'react-router';
import { formatCents } from '#shared/money.ts';
import { paths } from '#shared/paths.ts';
import type { CareReceipt } from '#shared/receipts.ts';
import { site } from '#shared/site.ts';
import { buttonClass, textLinkClass } from '#client/components/ui/button.ts';
import { mediumDate } from '#client/components/ui/order-status.tsx';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { AccountHeader } from '#client/features/accounts/components/account-layout.tsx';
import { ApiError } from '#client/lib/api.ts';
import { useCareReceipt } from '../receipts.api.ts';

/**
 * /orders/care-receipt/:orderNumber (issue 29): an online visit's or a refill's itemised receipt
 * for an HSA or FSA claim, made to print on one page, black on white, without the site's frame:
 * the patient, the date of service, the medicine and quantity, the amount, the prescriber with
 * their NPI and licence, the pharmacy. Only the patient's own charged medicine orders have one.
 */
export function CareReceiptPage() {
  const { orderNumber = '' } = useParams();
  const receipt = useCareReceipt(orderNumber.trim());
  if (
    orderNumber.trim() === '' ||
    (receipt.error instanceof ApiError && receipt.error.status < 500)
  )
    return <NoReceipt />;
  return (
    <QueryView query={receipt} loading="Loading your receipt…">
      {(found) => <Receipt receipt={found} />}
    </QueryView>
  );
}

function NoReceipt() {
  return (
    <>
      <AccountHeader title="Receipt not found" />
      <div className="rounded-3xl border border-line bg-white p-5 sm:p-6">
        <p className="text-ink-soft">
          We couldn't find a receipt for that order in your account. A visit's receipt is ready once
          your provider approves it and your card is charged.
        </p>
        <Link to={paths.orders} className={`${buttonClass('primary')} mt-4`}>
          Back to Orders
        </Link>
      </div>
    </>
  );
}

function Row({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-1 gap-0.5 py-2 sm:grid-cols-[12rem_1fr] sm:gap-4 print:grid-cols-[12rem_1fr] print:gap-4 print:py-1">
      <dt className="text-sm text-muted">{term}</dt>
      <dd className="text-[0.9375rem] text-ink">{children}</dd>
    </div>
  );
}

function Receipt({ receipt }: { receipt: CareReceipt }) {
  const service =
    receipt.kind === 'visit' ? 'Online visit with a licensed provider' : 'Prescription refill';
  const paid = receipt.amount_cents - receipt.refunded_cents;
  return (
    <div className="print:text-black print:**:text-black">
      <div className="print:hidden">
        <AccountHeader
          title="Receipt for your HSA or FSA"
          documentTitle={`Receipt ${receipt.order_number}`}
          subtitle={`Order ${receipt.order_number}`}
        />
      </div>
      <article
        aria-labelledby="care-receipt-title"
        className="rounded-3xl border border-line bg-white p-5 sm:p-8 print:rounded-none print:border-0 print:p-0 print:text-[11pt]"
      >
        <header className="flex flex-wrap items-start justify-between gap-4 border-b border-line pb-5 print:border-black print:pb-3">
          <div>
            <p className="font-display text-xl text-ink">{site.name}</p>
            <h2 id="care-receipt-title" className="mt-1 font-sans text-lg font-semibold text-ink">
              Itemised receipt for order {receipt.order_number}
            </h2>
          </div>
          <dl className="grid grid-cols-[auto_auto] gap-x-4 gap-y-1 text-[0.9375rem]">
            <dt className="text-muted">Order number</dt>
            <dd className="font-semibold text-ink">{receipt.order_number}</dd>
            <dt className="text-muted">Date of service</dt>
            <dd className="text-ink">
              <time dateTime={receipt.date_of_service}>{mediumDate(receipt.date_of_service)}</time>
            </dd>
          </dl>
        </header>

        <dl className="mt-3 divide-y divide-line print:divide-black/30">
          <Row term="Patient">{receipt.patient}</Row>
          <Row term="Service">
            {service}
            <span className="block text-sm text-muted">{receipt.program}</span>
          </Row>
          <Row term="Medicine">
            {receipt.medicine}
            <span className="block text-sm text-muted">Quantity {receipt.quantity}</span>
          </Row>
          <Row term="Prescriber">
            {receipt.prescriber.name}
            {receipt.prescriber.npi ? (
              <span className="block text-sm text-muted">NPI {receipt.prescriber.npi}</span>
            ) : null}
            {receipt.prescriber.licence ? (
              <span className="block text-sm text-muted">Licence {receipt.prescriber.licence}</span>
            ) : null}
          </Row>
          <Row term="Pharmacy">{receipt.pharmacy}</Row>
        </dl>

        <dl className="mt-2 ml-auto max-w-xs space-y-1.5 border-t border-line pt-4 text-[0.9375rem] print:border-black print:pt-2">
          <div className="flex justify-between gap-6">
            <dt className="text-ink-soft">Charged</dt>
            <dd className="text-right text-ink">{formatCents(receipt.amount_cents)}</dd>
          </div>
          {receipt.refunded_cents > 0 ? (
            <div className="flex justify-between gap-6">
              <dt className="text-ink-soft">Refunded</dt>
              <dd className="text-right text-ink">−{formatCents(receipt.refunded_cents)}</dd>
            </div>
          ) : null}
          <div className="flex justify-between gap-6 border-t border-line pt-2 font-semibold print:border-black">
            <dt className="text-ink">Amount paid</dt>
            <dd className="text-right text-ink">{formatCents(paid)}</dd>
          </div>
        </dl>

        <p className="mt-6 text-sm text-ink-soft">
          A prescription medicine prescribed by a licensed provider after an online visit, for a
          health savings account (HSA) or flexible spending account (FSA) claim. Keep it with your
          records; your plan may ask for it.
        </p>
        <p className="mt-2 hidden text-sm print:block">
          Questions about this receipt? Write to {site.supportEmail}.
        </p>
      </article>

      <div className="mt-6 flex flex-wrap items-center gap-4 print:hidden">
        <button type="button" className={buttonClass('primary')} onClick={() => window.print()}>
          Print
        </button>
        <Link to={paths.order(receipt.order_number)} className={textLinkClass}>
          Back to Orders
        </Link>
      </div>
    </div>
  );
}
