import { useState } from 'react';
import { Link } from 'react-router';
import { CheckboxField } from '#client/components/forms/fields.tsx';
import { buttonClass } from '#client/components/ui/button.ts';
import { AccountSection } from '#client/components/ui/account-section.tsx';
import { aProgramVisit, visitInvitationText, type PartnerOverview } from '#shared/partners.ts';
import { programs, type ProgramCategory } from '#shared/visits.ts';
import { useDismissVisitInvitation, useSendVisitInvitation } from '../partners.api.ts';

/**
 * Together for a visit (issue 16): the partner's invitations to start a visit of a program, and
 * the invitations the customer can send from a visit a provider decided. Nothing of either
 * partner's visit travels with one: the partner's own visit, answers and outcome stay theirs.
 */

type Received = PartnerOverview['visit_invitations']['received'];

/** The partner's invitations: what they said, "Start your visit" and "Dismiss". */
export function ReceivedVisitInvitations({
  leadsId,
  received,
}: {
  leadsId: string;
  received: Received;
}) {
  const dismiss = useDismissVisitInvitation(leadsId);
  if (received.length === 0) return null;
  return (
    <ul className="space-y-3">
      {received.map((invitation) => (
        <li
          key={invitation.invitation_id}
          className="rounded-2xl border border-accent-200 bg-accent-50/60 p-4"
        >
          <p className="text-[0.9375rem] text-ink">{visitInvitationText(invitation)}</p>
          <p className="mt-1 text-sm text-ink-soft">
            Your visit, your answers and its outcome stay yours: nothing is shared with your
            partner.
          </p>
          <div className="mt-3 flex flex-wrap gap-3">
            <Link to={invitation.start_path} className={buttonClass('primary')}>
              Start your visit
            </Link>
            <button
              type="button"
              className={buttonClass('secondary')}
              disabled={dismiss.isPending}
              aria-label={`Dismiss the ${programs[invitation.program].name} visit invitation`}
              onClick={() => dismiss.mutate({ invitation_id: invitation.invitation_id })}
            >
              Dismiss
            </button>
          </div>
        </li>
      ))}
    </ul>
  );
}

function InviteToProgram({
  leadsId,
  name,
  program,
  pending,
}: {
  leadsId: string;
  name: string;
  program: ProgramCategory;
  pending: boolean;
}) {
  const [reveal, setReveal] = useState(false);
  const programName = programs[program].name;
  const send = useSendVisitInvitation(leadsId);
  return (
    <li className="rounded-2xl border border-line p-4">
      <p className="font-semibold text-ink">{programName}</p>
      {pending ? (
        <p className="mt-1 text-[0.9375rem] text-ink-soft">
          Your invitation to start {aProgramVisit(program)} is waiting for {name}.
        </p>
      ) : (
        <>
          <p className="mt-1 text-[0.9375rem] text-ink-soft">
            Invite {name} to start their own {programName} visit. {name} sees only the invitation.
          </p>
          <CheckboxField
            wrapperClassName="mt-3"
            label={`Let ${name} know I started a visit`}
            checked={reveal}
            onChange={(event) => setReveal(event.currentTarget.checked)}
          />
          <button
            type="button"
            className={`${buttonClass('secondary')} mt-3`}
            disabled={send.isPending}
            onClick={() =>
              send.mutate(
                { program, reveal_started: reveal },
                { onSuccess: () => setReveal(false) },
              )
            }
          >
            Invite {name} to {aProgramVisit(program)}
          </button>
        </>
      )}
    </li>
  );
}

/**
 * The partner page's "Together for a visit": invitations from the partner, and from each program
 * the customer finished a visit of, an invitation to send (at most one waiting per program).
 */
export function TogetherForVisits({
  leadsId,
  name,
  invitations,
}: {
  leadsId: string;
  name: string;
  invitations: PartnerOverview['visit_invitations'];
}) {
  if (invitations.received.length === 0 && invitations.can_send.length === 0) return null;
  return (
    <AccountSection
      id="partner-visits"
      title="Together for a visit"
      description={`Suggest a visit to ${name} after one of yours, or answer theirs. Your visits, answers and outcomes are never shared.`}
    >
      <div className="space-y-5">
        <ReceivedVisitInvitations leadsId={leadsId} received={invitations.received} />
        {invitations.can_send.length > 0 ? (
          <ul className="space-y-3">
            {invitations.can_send.map(({ program, pending }) => (
              <InviteToProgram
                key={program}
                leadsId={leadsId}
                name={name}
                program={program}
                pending={pending}
              />
            ))}
          </ul>
        ) : null}
      </div>
    </AccountSection>
  );
}
