import { Link } from 'react-router';
import { buttonClass, textLinkClass } from '#client/components/ui/button.ts';
import { neverShared, type PartnerOverview } from '#shared/partners.ts';
import { paths } from '#shared/paths.ts';
import { usDateFromIso } from '#shared/dates.ts';
import type { TogetherItem } from '#shared/partners-together.ts';
import { usePartnerOverview, useTogether } from '../partners.api.ts';
import { sharedWords } from './sharing-words.ts';
import { ReceivedVisitInvitations } from './visit-invitations.tsx';

const cardClass =
  'rounded-3xl border border-line bg-white p-5 shadow-[0_1px_2px_rgba(15,37,51,0.04)] sm:p-6';

/**
 * Home's "Together" card (issue 16): the linked partner and what each shares, an invitation
 * waiting, or for someone not linked how it works and what stays private. Secondary news: Home
 * never waits for it, and shows nothing of it if it cannot load.
 */
export function TogetherCard({ leadsId }: { leadsId: string }) {
  const overview = usePartnerOverview(leadsId);
  if (!overview.data) return null;
  return (
    <section aria-labelledby="together-title" className={cardClass}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 id="together-title" className="text-xl text-ink">
          Together
        </h2>
        <Link to={paths.partner} className={textLinkClass}>
          Partner settings
        </Link>
      </div>
      <TogetherBody leadsId={leadsId} data={overview.data} />
    </section>
  );
}

/** Gifts waiting and the couples' plan's status, when there are any; nothing while loading. */
function TogetherNews({ leadsId, name }: { leadsId: string; name: string }) {
  const together = useTogether(leadsId);
  const items = together.data?.items ?? [];
  const giftsWaiting = items.filter(
    (i) => i.kind === 'gift' && i.role === 'partner' && i.status === 'pending',
  ).length;
  const plan = items.find((i) => i.kind === 'plan');
  if (giftsWaiting === 0 && !plan) return null;
  return (
    <>
      {giftsWaiting > 0 ? (
        <p className="font-semibold text-ink">
          {giftsWaiting === 1
            ? `A gift from ${name} is waiting for you.`
            : `${giftsWaiting} gifts from ${name} are waiting for you.`}{' '}
          <Link to={paths.partner} className={textLinkClass}>
            See the gift
          </Link>
        </p>
      ) : null}
      {plan ? <p className="text-ink">Couples' plan: {planStatus(plan, name)}.</p> : null}
    </>
  );
}

function planStatus(plan: TogetherItem, name: string): string {
  switch (plan.status) {
    case 'pending':
      return plan.role === 'payer'
        ? `waiting for ${name} to accept`
        : `${name} proposed one, waiting for your answer`;
    case 'active':
      return `active, next delivery ${usDateFromIso(plan.next_date ?? '')}`;
    case 'paused':
      return 'paused';
    case 'payment_due':
      return 'payment due';
  }
}

function TogetherBody({ leadsId, data }: { leadsId: string; data: PartnerOverview }) {
  if (data.partner) {
    const name = data.partner.first_name;
    const theyShare = sharedWords(data.partner.shares_with_you);
    const youShare = sharedWords(data.you_share);
    return (
      <div className="mt-3 space-y-2 text-[0.9375rem]">
        <p className="text-ink">
          You and <strong className="font-semibold">{name}</strong> are linked as partners.
        </p>
        <p className="text-ink-soft">
          {name} shares with you: {theyShare ?? 'nothing yet'}.
        </p>
        <p className="text-ink-soft">
          You share with {name}: {youShare ?? 'nothing yet'}.
        </p>
        <TogetherNews leadsId={leadsId} name={name} />
        {data.visit_invitations.received.length > 0 ? (
          <div className="pt-2">
            <ReceivedVisitInvitations
              leadsId={leadsId}
              received={data.visit_invitations.received}
            />
          </div>
        ) : null}
      </div>
    );
  }
  const waiting = data.received[0];
  if (waiting)
    return (
      <div className="mt-3">
        <p className="text-[0.9375rem] text-ink">
          <strong className="font-semibold">{waiting.from_first_name}</strong> invited you to link
          as partners. Nothing is shared until you choose to.
        </p>
        <Link to={paths.partner} className={`${buttonClass('primary')} mt-4`}>
          See the invitation
        </Link>
      </div>
    );
  if (data.sent?.status === 'pending')
    return (
      <p className="mt-3 text-[0.9375rem] text-ink-soft">
        Your invitation to <span className="break-all">{data.sent.email}</span> is waiting for an
        answer.
      </p>
    );
  return (
    <div className="mt-3 text-[0.9375rem]">
      <p className="text-ink-soft">
        Link your account with your partner&apos;s. Each of you chooses what the other sees: a
        shipping address, store orders and their tracking, supplement subscriptions. Nothing is
        shared until you turn it on, and either of you can unlink at any time.
      </p>
      <p className="mt-3 font-semibold text-ink">Never shared with a partner</p>
      <ul className="mt-1 list-disc space-y-0.5 pl-5 text-ink-soft">
        {neverShared.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <Link to={paths.partner} className={`${buttonClass('secondary')} mt-4`}>
        Invite your partner
      </Link>
    </div>
  );
}
