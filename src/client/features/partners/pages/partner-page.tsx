import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { applyApiError } from '#client/components/forms/form-errors.ts';
import { TextField } from '#client/components/forms/fields.tsx';
import { buttonClass } from '#client/components/ui/button.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { SubmitButton } from '#client/components/ui/submit-button.tsx';
import { showToast } from '#client/components/ui/toast.tsx';
import {
  AccountHeader,
  useMemberData,
} from '#client/features/accounts/components/account-layout.tsx';
import { AccountSection } from '#client/components/ui/account-section.tsx';
import { VerifyEmailNotice } from '#client/features/accounts/components/verify-email-notice.tsx';
import { mediumDate, OrderStatusBadge } from '#client/components/ui/order-status.tsx';
import { emailVerifyText } from '#shared/accounts.ts';
import { bottleCount } from '#shared/catalog.ts';
import { usDateFromIso } from '#shared/dates.ts';
import {
  historyText,
  invitationClosedText,
  InviteSchema,
  neverShared,
  sharingItems,
  sharingItemText,
  type PartnerOverview,
  type PartnerShared,
  type Sharing,
} from '#shared/partners.ts';
import { paths } from '#shared/paths.ts';
import { TogetherSection } from '../components/together-section.tsx';
import { UnlinkDialog } from '../components/unlink-dialog.tsx';
import { TogetherForVisits } from '../components/visit-invitations.tsx';
import {
  useAnswerInvitation,
  useChangeSharing,
  useInvitePartner,
  usePartnerOverview,
  usePartnerShared,
  useWithdrawInvitation,
} from '../partners.api.ts';

/**
 * /accounts/partner (issue 16): the link with a partner, the invitations, what each shares (item
 * by item, nothing by default), what is never shared, and the customer's own history of it.
 * `?invite=` carries an invitation's token from its email, so the invitation shows to whoever
 * holds the link, even under another email address.
 */
export function PartnerPage() {
  const { leadsId } = useMemberData();
  const [search] = useSearchParams();
  const inviteToken = search.get('invite');
  const overview = usePartnerOverview(leadsId, inviteToken);
  return (
    <>
      <AccountHeader
        title="Partner"
        subtitle="Link with your partner and choose, item by item, what they can see."
        link={{ to: paths.accounts, label: 'All account settings' }}
      />
      <QueryView query={overview} loading="Loading your partner settings…">
        {(data) => <PartnerSections leadsId={leadsId} data={data} inviteToken={inviteToken} />}
      </QueryView>
    </>
  );
}

function PartnerSections({
  leadsId,
  data,
  inviteToken,
}: {
  leadsId: string;
  data: PartnerOverview;
  inviteToken: string | null;
}) {
  const partner = data.partner;
  return (
    <div className="space-y-6">
      <AccountSection
        id="partner-link"
        title="Your partner"
        description={
          partner
            ? undefined
            : 'Invite your partner by email. Once they accept, each of you chooses what the other can see.'
        }
      >
        {partner ? (
          <LinkedPartner leadsId={leadsId} name={partner.first_name} since={partner.linked_at} />
        ) : (
          <div className="space-y-6">
            {/* Invitations to an address show only once it is confirmed (issue 26): say so. */}
            {data.email_verified ? null : <VerifyEmailNotice waiting={emailVerifyText.partner} />}
            {/* The link's invitation is among those received while it is open (the server shows
                it by its token); none received means it was withdrawn, answered or expired. */}
            {inviteToken && data.received.length === 0 ? (
              <ClosedInvitation canInvite={data.sent?.status !== 'pending'} />
            ) : null}
            {data.received.length > 0 ? (
              <ReceivedInvitations
                leadsId={leadsId}
                received={data.received}
                inviteToken={inviteToken}
              />
            ) : null}
            {data.sent ? <SentInvitation leadsId={leadsId} sent={data.sent} /> : null}
            {data.sent?.status === 'pending' ? null : (
              <InviteForm leadsId={leadsId} again={data.sent !== null} />
            )}
          </div>
        )}
      </AccountSection>

      {partner ? (
        <SharingSwitches leadsId={leadsId} name={partner.first_name} sharing={data.you_share} />
      ) : null}

      {partner ? (
        <TogetherForVisits
          leadsId={leadsId}
          name={partner.first_name}
          invitations={data.visit_invitations}
        />
      ) : null}
      {partner ? <TogetherSection leadsId={leadsId} name={partner.first_name} /> : null}

      <NeverShared />

      {partner ? (
        <SharedWithYou
          leadsId={leadsId}
          name={partner.first_name}
          sharing={partner.shares_with_you}
        />
      ) : null}

      <AccountSection
        id="partner-history"
        title="History"
        description="Every invitation, link and sharing choice, for you alone."
      >
        {data.history.length === 0 ? (
          <p className="text-ink-soft">Nothing yet.</p>
        ) : (
          <ol className="space-y-2 text-[0.9375rem] text-ink">
            {data.history.map((event, index) => (
              <li key={`${event.at}-${index}`} className="border-l-2 border-accent-200 pl-3">
                {historyText(event)}
              </li>
            ))}
          </ol>
        )}
      </AccountSection>
    </div>
  );
}

function LinkedPartner({ leadsId, name, since }: { leadsId: string; name: string; since: string }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
      <p className="text-ink">
        You are linked with <strong className="font-semibold">{name}</strong> since{' '}
        <time dateTime={since}>{mediumDate(since)}</time>.
      </p>
      <button
        type="button"
        className={`${buttonClass('secondary')} shrink-0 self-start sm:self-auto`}
        onClick={() => setConfirming(true)}
      >
        Unlink
      </button>
      <UnlinkDialog
        leadsId={leadsId}
        partnerName={name}
        open={confirming}
        onClose={() => setConfirming(false)}
      />
    </div>
  );
}

function ReceivedInvitations({
  leadsId,
  received,
  inviteToken,
}: {
  leadsId: string;
  received: PartnerOverview['received'];
  inviteToken: string | null;
}) {
  const [, setSearch] = useSearchParams();
  const answer = useAnswerInvitation(leadsId);
  const respond = (id: number, accept: boolean) =>
    answer.mutate(
      { invitation_id: id, accept, ...(inviteToken ? { invite_token: inviteToken } : {}) },
      {
        // The link in the address bar has done its work.
        onSuccess: () => {
          if (inviteToken) setSearch({}, { replace: true });
        },
      },
    );
  return (
    <ul className="space-y-3">
      {received.map((invitation) => (
        <li
          key={invitation.invitation_id}
          className="rounded-2xl border border-accent-200 bg-accent-50/60 p-4"
        >
          <p className="text-ink">
            <strong className="font-semibold">{invitation.from_first_name}</strong> invited you to
            link as partners.
          </p>
          <p className="mt-1 text-sm text-ink-soft">
            Nothing is shared until you choose to. Expires on{' '}
            <time dateTime={invitation.expires_at}>{mediumDate(invitation.expires_at)}</time>.
          </p>
          <div className="mt-3 flex flex-wrap gap-3">
            <button
              type="button"
              className={buttonClass('primary')}
              disabled={answer.isPending}
              onClick={() => respond(invitation.invitation_id, true)}
            >
              Accept
            </button>
            <button
              type="button"
              className={buttonClass('secondary')}
              disabled={answer.isPending}
              onClick={() => respond(invitation.invitation_id, false)}
            >
              Decline
            </button>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** Someone followed an invitation's link, but it can no longer be answered: say so, and what next. */
function ClosedInvitation({ canInvite }: { canInvite: boolean }) {
  return (
    <div className="rounded-2xl border border-danger/15 bg-danger-soft/60 p-4">
      <p className="font-semibold text-ink">{invitationClosedText.closed}</p>
      <p className="mt-1 text-[0.9375rem] text-ink">
        It may have been withdrawn, answered already, or it expired. To link, ask your partner to
        send you a new invitation from their partner page
        {canInvite ? ', or invite them yourself below' : ''}.
      </p>
    </div>
  );
}

function SentInvitation({
  leadsId,
  sent,
}: {
  leadsId: string;
  sent: NonNullable<PartnerOverview['sent']>;
}) {
  const withdraw = useWithdrawInvitation(leadsId);
  const tone =
    sent.status === 'pending'
      ? 'border-accent-200 bg-accent-50/60'
      : 'border-danger/15 bg-danger-soft/60';
  return (
    <div className={`rounded-2xl border p-4 ${tone}`}>
      <p className="text-ink">
        {sent.status === 'pending' ? (
          <>
            Invitation sent to <strong className="font-semibold break-all">{sent.email}</strong>.
            Waiting for an answer.
          </>
        ) : sent.status === 'declined' ? (
          <>
            <strong className="font-semibold break-all">{sent.email}</strong> declined your
            invitation.
          </>
        ) : (
          <>
            Your invitation to <strong className="font-semibold break-all">{sent.email}</strong>{' '}
            expired on <time dateTime={sent.expires_at}>{mediumDate(sent.expires_at)}</time>.
          </>
        )}
      </p>
      {sent.status === 'pending' ? (
        <>
          <p className="mt-1 text-sm text-ink-soft">
            It expires on <time dateTime={sent.expires_at}>{mediumDate(sent.expires_at)}</time>.
          </p>
          <button
            type="button"
            className={`${buttonClass('secondary')} mt-3`}
            disabled={withdraw.isPending}
            onClick={() => withdraw.mutate({ invitation_id: sent.invitation_id })}
          >
            Withdraw invitation
          </button>
        </>
      ) : null}
    </div>
  );
}

function InviteForm({ leadsId, again }: { leadsId: string; again: boolean }) {
  const invite = useInvitePartner(leadsId);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(InviteSchema), defaultValues: { email: '' } });
  const onSubmit = handleSubmit(async (values) => {
    try {
      await invite.mutateAsync(values);
      reset({ email: '' });
    } catch (error) {
      const outcome = applyApiError(error, setError, ['email']);
      if (!outcome.placed) showToast({ kind: 'error', title: outcome.message });
    }
  });
  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-4">
      <TextField
        label="Your partner's email"
        hint={`${again ? 'Send a new invitation, to the same address or to someone else. ' : ''}They get an email from us with your first name. If they are new here, they can create an account from it.`}
        type="email"
        autoComplete="off"
        inputMode="email"
        wrapperClassName="max-w-md"
        error={errors.email?.message}
        {...register('email')}
      />
      <SubmitButton pending={isSubmitting}>Send invitation</SubmitButton>
    </form>
  );
}

function SharingSwitches({
  leadsId,
  name,
  sharing,
}: {
  leadsId: string;
  name: string;
  sharing: Sharing;
}) {
  const change = useChangeSharing(leadsId, name);
  return (
    <AccountSection
      id="partner-sharing"
      title={`What ${name} can see`}
      description="Each switch is yours alone. Nothing is shared until you turn it on, and turning it off takes effect at once."
    >
      <ul className="divide-y divide-line">
        {sharingItems.map((item) => {
          const on =
            change.isPending && change.variables.item === item
              ? change.variables.shared
              : sharing[item];
          const labelId = `share-${item}-label`;
          const meansId = `share-${item}-means`;
          return (
            <li
              key={item}
              className="flex items-start justify-between gap-4 py-4 first:pt-0 last:pb-0"
            >
              <div>
                <p id={labelId} className="font-semibold text-ink">
                  {sharingItemText[item].label}
                </p>
                <p id={meansId} className="mt-0.5 text-sm text-ink-soft">
                  {sharingItemText[item].means}
                </p>
              </div>
              <button
                type="button"
                role="switch"
                aria-checked={on}
                aria-labelledby={labelId}
                aria-describedby={meansId}
                // Not `disabled` while saving: a disabled button would drop the keyboard's focus.
                aria-disabled={change.isPending || undefined}
                onClick={() => {
                  if (!change.isPending) change.mutate({ item, shared: !sharing[item] });
                }}
                className={`relative mt-1 inline-flex h-8 w-14 shrink-0 items-center rounded-full border-2 transition-colors aria-disabled:opacity-60 ${
                  on ? 'border-accent-700 bg-accent-700' : 'border-ink-soft/50 bg-line'
                }`}
              >
                <span
                  aria-hidden="true"
                  className={`inline-block size-6 rounded-full bg-white shadow ring-1 ring-line transition-transform ${
                    on ? 'translate-x-6' : 'translate-x-0.5'
                  }`}
                />
                <span className="sr-only">{on ? 'Shared' : 'Not shared'}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </AccountSection>
  );
}

/** What no setting shares, said plainly on the page where the choices are. */
export function NeverShared() {
  return (
    <AccountSection
      id="never-shared"
      title="Never shared with a partner"
      description="No setting can turn these on. They stay between you and your care team."
    >
      <ul className="grid gap-2 sm:grid-cols-2">
        {neverShared.map((line) => (
          <li key={line} className="flex gap-2 text-[0.9375rem] text-ink">
            <svg
              aria-hidden="true"
              viewBox="0 0 20 20"
              className="mt-0.5 size-5 shrink-0 text-accent-700"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
            >
              <rect x="4.5" y="9" width="11" height="8" rx="1.5" />
              <path d="M7 9V6.5a3 3 0 0 1 6 0V9" />
            </svg>
            {line}
          </li>
        ))}
      </ul>
    </AccountSection>
  );
}

function SharedWithYou({
  leadsId,
  name,
  sharing,
}: {
  leadsId: string;
  name: string;
  sharing: Sharing;
}) {
  const shared = usePartnerShared(leadsId, true);
  return (
    <AccountSection
      id="partner-shared"
      title={`What ${name} shares with you`}
      description={`${name} chooses these. What they do not share does not show here.`}
    >
      <QueryView query={shared} loading={`Loading what ${name} shares…`} size="inline">
        {(data) => <SharedItems name={name} data={data} sharing={sharing} />}
      </QueryView>
    </AccountSection>
  );
}

function SharedItems({
  name,
  data,
  sharing,
}: {
  name: string;
  data: PartnerShared;
  sharing: Sharing;
}) {
  if (!data.address && !data.orders && !data.subscriptions)
    return <p className="text-ink-soft">{name} isn't sharing anything with you yet.</p>;
  return (
    <div className="space-y-6">
      {data.address || sharing.address ? (
        <div>
          <h3 className="font-sans text-base font-semibold text-ink">Shipping address</h3>
          {data.address ? (
            <address className="mt-1 text-[0.9375rem] text-ink not-italic">
              {data.address.address}
              {data.address.address2 ? `, ${data.address.address2}` : ''}
              <br />
              {data.address.city}, {data.address.state} {data.address.zip}
            </address>
          ) : (
            <p className="mt-1 text-[0.9375rem] text-ink-soft">No address on file yet.</p>
          )}
        </div>
      ) : null}
      {data.orders ? (
        <div>
          <h3 className="font-sans text-base font-semibold text-ink">Store orders</h3>
          {data.orders.length === 0 ? (
            <p className="mt-1 text-[0.9375rem] text-ink-soft">No store orders yet.</p>
          ) : (
            <ul className="mt-2 divide-y divide-line">
              {data.orders.map((order) => (
                <li key={order.order_number} className="py-3 first:pt-0 last:pb-0">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <p className="font-semibold text-ink">Order #{order.order_number}</p>
                    <OrderStatusBadge status={order.status} />
                  </div>
                  <p className="mt-0.5 text-sm text-ink-soft">
                    {order.items.map((i) => `${i.product_name} × ${i.quantity}`).join(', ')} ·{' '}
                    <time dateTime={order.order_date}>{mediumDate(order.order_date)}</time>
                  </p>
                  <p className="mt-0.5 text-sm text-ink-soft">
                    {order.tracking_number
                      ? `Tracking number: ${order.tracking_number}`
                      : 'Not shipped yet'}
                  </p>
                  {order.ships_to_you ? (
                    <p className="mt-0.5 text-sm font-semibold text-ink">Shipping to you</p>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
      {data.subscriptions ? (
        <div>
          <h3 className="font-sans text-base font-semibold text-ink">Supplement subscriptions</h3>
          {data.subscriptions.length === 0 ? (
            <p className="mt-1 text-[0.9375rem] text-ink-soft">No supplement subscriptions.</p>
          ) : (
            <ul className="mt-2 divide-y divide-line">
              {data.subscriptions.map((sub, index) => (
                <li key={`${sub.product_name}-${index}`} className="py-3 first:pt-0 last:pb-0">
                  <p className="font-semibold text-ink">{sub.product_name}</p>
                  <p className="mt-0.5 text-sm text-ink-soft">
                    {bottleCount(sub.bottles)}{' '}
                    {sub.frequency === 'MONTHLY' ? 'a month' : 'every 3 months'} ·{' '}
                    {sub.status === 'PAUSED'
                      ? 'Paused'
                      : `Next delivery ${usDateFromIso(sub.next_date)}`}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
    </div>
  );
}
