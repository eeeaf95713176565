import { Link } from 'react-router';
import { buttonClass } from '#client/components/ui/button.ts';
import { LoadError } from '#client/components/ui/load-error.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { paths } from '#shared/paths.ts';
import { useAccountData } from '../accounts.api.ts';
import { AccountDetailsForm } from '../components/account-details-form.tsx';
import { AccountHeader, useMemberData } from '../components/account-layout.tsx';
import { AccountSection } from '../components/account-section.tsx';
import { AddressForm } from '../components/address-form.tsx';
import { ChangePasswordForm } from '../components/change-password-form.tsx';
import { PaymentCard } from '../components/payment-card.tsx';
import { PhoneVerification } from '../components/phone-verification.tsx';
import { SignedInDevices } from '../components/signed-in-devices.tsx';

/** /accounts: details, address, payment method, password, phone and devices. */
export function AccountsPage() {
  const { leadsId } = useMemberData();
  const account = useAccountData(leadsId);
  return (
    <>
      <AccountHeader
        title="Accounts"
        subtitle="Your details, addresses, payment method and sign-in security."
      />
      {account.isPending ? (
        <Spinner block label="Loading your account details…" />
      ) : account.isError ? (
        <LoadError message={account.error.message} onRetry={() => void account.refetch()} />
      ) : (
        <div className="space-y-6">
          <AccountDetailsForm account={account.data} />
          <AddressForm account={account.data} />
          <AccountSection
            id="payment"
            title="Payment method"
            description="The card we charge for your orders and active subscriptions."
          >
            <PaymentCard card={account.data.card} />
            <Link to={paths.editPaymentMethod} className={`${buttonClass('secondary')} mt-5`}>
              Update payment method
            </Link>
          </AccountSection>
          <ChangePasswordForm />
          <PhoneVerification account={account.data} />
          <SignedInDevices />
        </div>
      )}
    </>
  );
}
