import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { accountsApi, type PaymentRetry } from '#shared/accounts.ts';
import { formatCents } from '#shared/money.ts';
import { paths } from '#shared/paths.ts';
import { FormAlert } from '#client/components/forms/fields.tsx';
import { AccountSection } from '#client/components/ui/account-section.tsx';
import { buttonClass, textLinkClass } from '#client/components/ui/button.ts';
import { SubmitButton } from '#client/components/ui/submit-button.tsx';
import { ApiError, failedWith } from '#client/lib/api.ts';
import { sendConfirming, useCardPageDocument } from '#client/lib/stripe-js.ts';
import { confirmPayment, refreshMemberData } from '../accounts.api.ts';
import { AccountHeader, useMemberData } from '../components/account-layout.tsx';

type Problem = { message: string; updateCard: boolean };

/**
 * /accounts/confirm-payment?order=…: "Confirm your payment" (issue 28). A renewal the customer's
 * bank would not pay while they were away until they confirm it: the button asks again with them
 * here, and the bank's own page (3-D Secure) opens over this one. Reached from Home's "Needs
 * attention" and from the e-mail.
 */
export function ConfirmPaymentPage() {
  useCardPageDocument();
  const [search] = useSearchParams();
  const orderNumber = search.get('order') ?? '';
  const { leadsId } = useMemberData();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const [paid, setPaid] = useState<PaymentRetry | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);

  const confirm = async () => {
    setPending(true);
    setProblem(null);
    try {
      setPaid(await sendConfirming(() => confirmPayment(orderNumber)));
      void refreshMemberData(queryClient, leadsId);
    } catch (error) {
      const declined = failedWith(error, accountsApi.paymentConfirm, 'CARD_DECLINED');
      setProblem({
        message:
          error instanceof ApiError ? error.message : 'Something went wrong. Please try again.',
        updateCard: declined,
      });
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      <AccountHeader
        title="Confirm your payment"
        subtitle="Your bank wants to check with you before it pays."
        link={{ to: paths.dashboard, label: 'Back to Home' }}
      />
      <AccountSection id="confirm-payment" title={`Order ${orderNumber}`}>
        {paid ? (
          <Confirmed paid={paid} />
        ) : (
          <form
            className="space-y-5"
            onSubmit={(event) => {
              event.preventDefault();
              void confirm();
            }}
          >
            {problem ? (
              <FormAlert>
                {problem.message}{' '}
                {problem.updateCard ? (
                  <Link
                    to={paths.editPaymentMethod}
                    className="font-semibold underline underline-offset-4"
                  >
                    Update payment method
                  </Link>
                ) : null}
              </FormAlert>
            ) : null}
            <p className="text-[0.9375rem] text-ink-soft">
              Your bank would not pay this renewal without your say-so. Confirming takes a moment,
              on your bank&apos;s own page. Nothing is charged, and nothing ships, until you do.
            </p>
            <SubmitButton pending={pending} size="lg" className="w-full sm:w-auto">
              Confirm payment
            </SubmitButton>
          </form>
        )}
      </AccountSection>
    </>
  );
}

/** The payment went through: said at once (focused), with the way to the order. */
function Confirmed({ paid }: { paid: PaymentRetry }) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => panel.current?.focus(), []);
  return (
    <div
      ref={panel}
      tabIndex={-1}
      role="status"
      className="space-y-4 rounded-2xl border border-success/25 bg-success-soft p-5 outline-none focus-visible:ring-2 focus-visible:ring-accent-600"
    >
      <p className="font-semibold text-ink">
        {paid.outcome === 'paid'
          ? `Payment confirmed. We charged ${formatCents(paid.amount_cents)} for order ${paid.order_number}, and we will ship it soon.`
          : `Payment confirmed. Order ${paid.order_number} shows it as paid in a moment.`}
      </p>
      <Link to={paths.order(paid.order_number)} className={buttonClass('secondary')}>
        See order {paid.order_number}
      </Link>
      <p className="text-sm text-muted">
        <Link to={paths.dashboard} className={textLinkClass}>
          Back to Home
        </Link>
      </p>
    </div>
  );
}
