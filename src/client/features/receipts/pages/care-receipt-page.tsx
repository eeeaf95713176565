import { useParams } from 'react-router';
import { formatCents } from '#shared/money.ts';
import type { CareReceipt } from '#shared/receipts.ts';
import { site } from '#shared/site.ts';
import { mediumDate } from '#client/components/ui/order-status.tsx';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { NoReceipt, ReceiptSheet } from '#client/features/orders/components/receipt-sheet.tsx';
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
    return <NotFound />;
  return (
    <QueryView query={receipt} loading="Loading your receipt…">
      {(found) => <Receipt receipt={found} />}
    </QueryView>
  );
}

const NotFound = () => (
  <NoReceipt>
    We couldn't find a receipt for that order in your account. A visit's receipt is ready once your
    provider approves it and your card is charged.
  </NoReceipt>
);

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
    <ReceiptSheet
      pageTitle="Receipt for your HSA or FSA"
      orderNumber={receipt.order_number}
      title={`Itemised receipt for order ${receipt.order_number}`}
      dateTerm="Date of service"
      date={<time dateTime={receipt.date_of_service}>{mediumDate(receipt.date_of_service)}</time>}
    >
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
    </ReceiptSheet>
  );
}
