import { Link } from 'react-router';
import { buttonClass } from '#client/components/ui/button.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { paths } from '#shared/paths.ts';
import { useAccountData } from '../accounts.api.ts';
import { AccountDetailsForm } from '../components/account-details-form.tsx';
import { AccountHeader, useMemberData } from '../components/account-layout.tsx';
import { AccountSection } from '#client/components/ui/account-section.tsx';
import { AddressForm } from '../components/address-form.tsx';
import { PaymentCard } from '#client/components/ui/payment-card.tsx';
import { PhoneVerification } from '../components/phone-verification.tsx';
import { ChangePasswordForm } from '#client/features/auth/components/change-password-form.tsx';
import { SignedInDevices } from '#client/features/auth/components/signed-in-devices.tsx';

/** /accounts: details, address, payment method, password, phone and devices. */
export function AccountsPage() {
  const { leadsId } = useMemberData();
  const account = useAccountData(leadsId);
  return (
    <>
      <AccountHeader
        title="Accounts"
        subtitle="Your details, addresses, payment method, partner and sign-in security."
      />
      <QueryView query={account} loading="Loading your account details…">
        {(data) => (
          <div className="space-y-6">
            <AccountDetailsForm account={data} />
            <AddressForm account={data} />
            <AccountSection
              id="payment"
              title="Payment method"
              description="The card we charge for your orders and active subscriptions."
            >
              <PaymentCard card={data.card} />
              <Link to={paths.editPaymentMethod} className={`${buttonClass('secondary')} mt-5`}>
                Update payment method
              </Link>
            </AccountSection>
            <AccountSection
              id="partner"
              title="Partner"
              description="Link with your partner and choose, item by item, what they can see. Online visits, prescriptions, messages with your care team and photo IDs are never shared."
            >
              <Link to={paths.partner} className={buttonClass('secondary')}>
                Partner settings
              </Link>
            </AccountSection>
            <ChangePasswordForm />
            <PhoneVerification account={data} />
            <SignedInDevices />
          </div>
        )}
      </QueryView>
    </>
  );
}
