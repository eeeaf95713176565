import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStaff } from '#server/db/seed-demo.ts';
import { partnersApi, type PartnerOverview } from '#shared/partners.ts';
import { reviewsApi } from '#shared/reviews.ts';
import { visitsApi, type ProgramCategory } from '#shared/visits.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import { staffCookie, type TestCustomer } from '#test/factories.ts';
import { sentMessages } from '#test/outbox.ts';
import { submittedEdVisit } from '#test/visits.ts';
import { household, partnerPage, share } from './partners.test-helpers.ts';

/**
 * Issue 16, household slice (decision 016): from a visit a provider decided, a patient invites their
 * partner to start a visit of the same program. Nothing of the inviter's visit travels with it, no
 * email names it, only the invitee dismisses it, and a waiting one ends with the link.
 */

const provider = demoStaff.find((s) => s.role === 'provider')!;

describe(`partners: inviting the partner to a visit (${testDialect})`, () => {
  let t: TestApp;
  let alex: TestCustomer;
  let sam: TestCustomer;
  let cy: TestCustomer;

  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
    ({ alex, sam, cy } = await household(t));
    // They share what a household does (Sam's address, Alex's store orders): the invitation must
    // travel without any of the visit, whatever else is shared.
    await share(t, sam, 'address', true);
    await share(t, alex, 'orders', true);
  });
  afterAll(() => t.close());

  /** Invites the partner to start a visit of `program`, saying or not that one was started. */
  const inviteToVisit = (
    from: TestCustomer,
    program: ProgramCategory,
    { revealStarted = false } = {},
  ) => callAs(t.app, partnersApi.visitInvite, { program, reveal_started: revealStarted }, from);

  const dismiss = (id: number, by: TestCustomer) =>
    callAs(t.app, partnersApi.visitInviteDismiss, { invitation_id: id }, by);

  describe('together for a visit', () => {
    let visitId = 0;

    it('can be sent only from a visit a provider decided', async () => {
      const visit = await submittedEdVisit(t.app, alex);
      visitId = visit.visitId;
      // Waiting for review: not finished yet.
      expect((await partnerPage(t, alex)).visit_invitations.can_send).toEqual([]);
      const early = await inviteToVisit(alex, 'ed');
      expect(early.statusCode, early.body).toBe(404);

      const declined = await callAs(
        t.app,
        reviewsApi.decline,
        { visit_id: visitId, reason: 'Not a good fit for this treatment today.' },
        await staffCookie(t, provider),
      );
      expect(declined.statusCode, declined.body).toBe(200);
      expect((await partnerPage(t, alex)).visit_invitations.can_send).toEqual([
        { program: 'ed', pending: false },
      ]);
      // A program without a finished visit is refused plainly.
      const other = await inviteToVisit(alex, 'sleep');
      expect(other.statusCode, other.body).toBe(404);
      expect(other.json()).toMatchObject({
        message: 'You have no finished Sleep visit to invite Sam from.',
      });
    });

    it("the partner sees only the invitation: not the inviter's visit id, status or answers, and no email names it", async () => {
      const mailBefore = (await sentMessages(t)).filter((m) => m.to === sam.email).length;
      const sent = await inviteToVisit(alex, 'ed');
      expect(sent.statusCode, sent.body).toBe(200);
      expect(sent.json()).toMatchObject({ message: 'Invitation sent.' });

      const response = await callAs(t.app, partnersApi.overview, {}, sam);
      const received = response.json<{ data: PartnerOverview }>().data.visit_invitations.received;
      expect(received).toEqual([
        {
          invitation_id: expect.any(Number),
          from_first_name: 'Alex',
          program: 'ed',
          started: false,
          start_path: '/visit/ed',
          sent_at: expect.any(String),
        },
      ]);
      expect(response.body).not.toMatch(/visit_id|DECLINED|declined|APPROVED|Not a good fit/);
      expect(response.body).not.toContain(`"${visitId}"`);
      // The shared items carry nothing of it either.
      const shared = await callAs(t.app, partnersApi.shared, {}, sam);
      expect(shared.body).not.toMatch(/visit|ED|Not a good fit/);
      // No email to the partner (a program is health information).
      expect((await sentMessages(t)).filter((m) => m.to === sam.email)).toHaveLength(mailBefore);

      // At most one waiting per program per pair.
      expect((await partnerPage(t, alex)).visit_invitations.can_send).toEqual([
        { program: 'ed', pending: true },
      ]);
      const again = await inviteToVisit(alex, 'ed', { revealStarted: true });
      expect(again.statusCode, again.body).toBe(409);
      expect(again.json()).toMatchObject({
        code: 'VISIT_INVITATION_PENDING',
        message: 'Your invitation to Sam for an ED visit is already waiting for them.',
      });
      // The owner's own history records it; the partner's does not.
      expect((await partnerPage(t, alex)).history[0]).toMatchObject({
        kind: 'visit_invited',
        program: 'ed',
        counterpart: 'Sam',
        quiet: true,
      });
      expect((await partnerPage(t, sam)).history.some((e) => e.kind === 'visit_invited')).toBe(
        false,
      );
    });

    it('only the invitee may dismiss it; then it is gone, and a new one may say the inviter started a visit', async () => {
      const id = (await partnerPage(t, sam)).visit_invitations.received[0]!.invitation_id;
      for (const who of [alex, cy]) {
        const refused = await dismiss(id, who);
        expect(refused.statusCode, refused.body).toBe(404);
      }
      const dismissed = await dismiss(id, sam);
      expect(dismissed.statusCode, dismissed.body).toBe(200);
      expect((await partnerPage(t, sam)).visit_invitations.received).toEqual([]);
      expect((await partnerPage(t, sam)).history[0]).toMatchObject({
        kind: 'visit_invitation_dismissed',
        program: 'ed',
        counterpart: 'Alex',
      });
      const twice = await dismiss(id, sam);
      expect(twice.statusCode).toBe(404);

      const sent = await inviteToVisit(alex, 'ed', { revealStarted: true });
      expect(sent.statusCode, sent.body).toBe(200);
      expect((await partnerPage(t, sam)).visit_invitations.received[0]).toMatchObject({
        from_first_name: 'Alex',
        started: true,
      });
    });

    it('starting a visit of the program takes it off the partner page, and the inviter still sees it waiting', async () => {
      const historyBefore = [
        (await partnerPage(t, alex)).history,
        (await partnerPage(t, sam)).history,
      ];
      const started = await callAs(
        t.app,
        visitsApi.startProgram,
        { leads_id: sam.leadsId, new_category: 'ed' },
        sam.cookie,
      );
      expect(started.statusCode, started.body).toBe(200);
      expect((await partnerPage(t, sam)).visit_invitations.received).toEqual([]);
      // Issue 26: nothing the inviter reads changes with the partner's visits.
      expect((await partnerPage(t, alex)).visit_invitations.can_send).toEqual([
        { program: 'ed', pending: true },
      ]);
      expect([(await partnerPage(t, alex)).history, (await partnerPage(t, sam)).history]).toEqual(
        historyBefore,
      );
      const again = await inviteToVisit(alex, 'ed');
      expect(again.statusCode, again.body).toBe(409);
    });

    it('a customer who is not linked cannot send one', async () => {
      const response = await inviteToVisit(cy, 'ed');
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json()).toMatchObject({ message: 'You are not linked with a partner.' });
    });
  });

  describe('after an unlink', () => {
    it('pending visit invitations end with the link', async () => {
      const unlinked = await callAs(t.app, partnersApi.unlink, { notify: false }, sam);
      expect(unlinked.statusCode, unlinked.body).toBe(200);

      // The visit invitation waiting for Sam ended with the link.
      expect((await partnerPage(t, sam)).visit_invitations).toEqual({ can_send: [], received: [] });
      const rows = await t.app.db
        .selectFrom('partner_visit_invitations')
        .select('status')
        .where('inviter_id', '=', alex.customerId)
        .execute();
      expect(rows.map((r) => r.status).sort()).toEqual(['dismissed', 'ended']);
      const late = await inviteToVisit(alex, 'ed');
      expect(late.statusCode, late.body).toBe(404);
    });
  });
});
