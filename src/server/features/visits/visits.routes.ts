import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AppContext } from '#server/context.ts';
import { AppError } from '#server/lib/errors.ts';
import { readImageForm } from '#server/lib/image-form.ts';
import { route } from '#server/lib/route.ts';
import { VisitIdSchema, visitsApi } from '#shared/visits.ts';
import { checkEligibility, previewEligibility } from './visits.eligibility.ts';
import { assignedProvider, saveFeedback, saveSurvey } from './visits.feedback.ts';
import { viewUpload } from './visits.photo-id.ts';
import { attachPhotoId, giveConsent, savePreference } from './visits.preferences.ts';
import { pendingOrders, startProgram, statesAllowed } from './visits.program.ts';
import {
  changeAnswer,
  confirmKnockout,
  getQuestions,
  nextQuestion,
  previousQuestion,
  reviewAnswers,
  saveAnswer,
} from './visits.questionnaire.ts';
import { closedVisit, closedVisits, joinWaitlist, requestReview } from './visits.closed.ts';
import { checkoutSummary, submitVisit } from './visits.submission.ts';
import { joinVisitorWaitlist } from './visits.waitlist.ts';

const tag = 'visits';

/** The patient's side of an online visit (spec §7 telehealth and questionnaire calls). */
export const visitsRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    route(
      app,
      visitsApi.startProgram,
      { tag, summary: "Open the program's visit, or resume the one in progress" },
      async ({ session, body }) => {
        const { visit, destination } = await startProgram(ctx, session, body.new_category);
        return { leads_id: session.leadsId, destination, visit_id: visit.id };
      },
    );
    route(
      app,
      visitsApi.pendingOrders,
      { tag, summary: 'The visits the patient started and has not finished' },
      async ({ session }) => pendingOrders(ctx, session.customerId),
    );
    route(
      app,
      visitsApi.statesAllowed,
      { tag, summary: 'The states the service covers: offered, with a licensed provider' },
      async () => ({ states: await statesAllowed(ctx) }),
    );
    route(
      app,
      visitsApi.checkEligibility,
      { tag, summary: "A visitor's state and age, before an account: eligible or why not" },
      async ({ body, request }) => previewEligibility(ctx, { ...body, ip: request.ip }),
    );
    route(
      app,
      visitsApi.joinVisitorWaitlist,
      { tag, summary: "A visitor's address, told once when online visits open in their state" },
      async ({ body, request }) => joinVisitorWaitlist(ctx, { ...body, ip: request.ip }),
    );
    route(
      app,
      visitsApi.eligibility,
      { tag, summary: 'Check where the patient lives and their age' },
      async ({ session, body }) =>
        checkEligibility(ctx, session, body.visit_id, body.state, body.dob),
    );

    route(
      app,
      visitsApi.closedVisit,
      { tag, summary: 'A closed visit: why it closed, and what the patient can do instead' },
      async ({ session, body }) => closedVisit(ctx, session, body.visit_id),
    );
    route(
      app,
      visitsApi.closedVisits,
      { tag, summary: 'The closed visits Home tells the patient about' },
      async ({ session }) => closedVisits(ctx, session),
    );
    route(
      app,
      visitsApi.joinWaitlist,
      { tag, summary: 'Email the patient when online visits open in their state' },
      async ({ session, body }) => joinWaitlist(ctx, session, body.visit_id),
    );
    route(
      app,
      visitsApi.requestReview,
      { tag, summary: 'Send a visit closed by a knock-out answer to a provider, as answered' },
      async ({ session, body }) => requestReview(ctx, session, body.visit_id),
    );
    route(
      app,
      visitsApi.confirmKnockout,
      { tag, summary: 'Confirm the answer that ends the visit; the visit closes' },
      async ({ session, body }) => confirmKnockout(ctx, session, body.visit_id),
    );

    route(
      app,
      visitsApi.questions,
      { tag, summary: 'The questionnaire as answered so far' },
      async ({ session, body }) => getQuestions(ctx, session, body.visit_id),
    );
    route(
      app,
      visitsApi.reviewAnswers,
      { tag, summary: 'The questions shown and their answers, before the next step' },
      async ({ session, body }) => reviewAnswers(ctx, session, body.visit_id),
    );
    route(
      app,
      visitsApi.changeAnswer,
      { tag, summary: 'Open one answered question again from the review' },
      async ({ session, body }) => changeAnswer(ctx, session, body.visit_id, body.linkId),
    );
    // The v1 and v2 questionnaire families: the same calls, answered in their own envelope.
    for (const save of [visitsApi.saveQuestion, visitsApi.v2SubmitQuestion]) {
      route(
        app,
        save,
        { tag, summary: 'Save an answer; the next question' },
        async ({ session, body }) =>
          saveAnswer(ctx, session, body.visit_id, body.linkId, body.value),
      );
    }
    for (const next of [visitsApi.nextQuestion, visitsApi.v2NextQuestion]) {
      route(
        app,
        next,
        { tag, summary: 'The question after this one, or where the patient left off' },
        async ({ session, body }) => nextQuestion(ctx, session, body.visit_id, body.linkId),
      );
    }
    for (const previous of [visitsApi.previousQuestion, visitsApi.v2PreviousQuestion]) {
      route(
        app,
        previous,
        { tag, summary: 'The question before this one' },
        async ({ session, body }) => previousQuestion(ctx, session, body.visit_id, body.linkId),
      );
    }

    // Treatment preferences (spec §7 `/product/…`).
    route(
      app,
      visitsApi.drug,
      { tag, summary: 'Choose the treatment' },
      async ({ session, body }) =>
        savePreference(ctx, session, body.visit_id, { kind: 'drug', drug: body.drug }),
    );
    route(app, visitsApi.dosage, { tag, summary: 'Choose the dose' }, async ({ session, body }) =>
      savePreference(ctx, session, body.visit_id, { kind: 'dosage', dosage: body.dosage }),
    );
    route(
      app,
      visitsApi.frequency,
      { tag, summary: 'Choose how much each month' },
      async ({ session, body }) =>
        savePreference(ctx, session, body.visit_id, {
          kind: 'frequency',
          frequency: body.frequency,
        }),
    );
    route(
      app,
      visitsApi.hairPreferences,
      { tag, summary: 'Tablets or foam, for the hair program' },
      async ({ session, body }) =>
        savePreference(ctx, session, body.visit_id, {
          kind: 'hair',
          form: body.form,
          notes: body.notes,
        }),
    );
    route(
      app,
      visitsApi.sleepPreferences,
      { tag, summary: 'What to help with, for the sleep program' },
      async ({ session, body }) =>
        savePreference(ctx, session, body.visit_id, {
          kind: 'sleep',
          goal: body.goal,
          notes: body.notes,
        }),
    );

    route(
      app,
      visitsApi.uploadImage,
      { tag, summary: "Upload a photo of the patient's ID" },
      async ({ session, request }) => {
        const { visitId, bytes } = await readPhotoForm(request);
        const stored = await attachPhotoId(ctx, session, visitId, bytes);
        return { upload_id: stored.uploadId, destination: stored.destination };
      },
    );
    route(
      app,
      visitsApi.photoId,
      {
        tag,
        summary: 'A photo ID or a scalp photo, to its patient or a provider who may see it',
      },
      async ({ session, params, request, reply }) => {
        const file = await viewUpload(
          ctx,
          { customerId: session?.customerId, staff: request.staffSession ?? undefined },
          params.id,
          request.ip,
        );
        // Never cached, never shown by the browser as anything but the image it is.
        reply
          .header('Cache-Control', 'private, no-store')
          .header('Content-Disposition', 'inline; filename="photo"');
        return file;
      },
    );
    route(
      app,
      visitsApi.consent,
      { tag, summary: 'Consent to telehealth' },
      async ({ session, body }) => giveConsent(ctx, session, body.visit_id),
    );
    route(
      app,
      visitsApi.checkout,
      { tag, summary: 'Submit the visit: the card is authorised, charged only on approval' },
      async ({ session, body }) => {
        const result = await submitVisit(ctx, session, {
          visitId: body.visit_id,
          shipping: body.shipping,
          billing: body.billing,
          payment: body.payment,
        });
        return {
          order_number: result.orderNumber,
          amount_cents: result.amountCents,
          destination: result.destination,
        };
      },
    );
    route(
      app,
      visitsApi.checkoutSummary,
      { tag, summary: 'What the checkout holds on the card, and how refills renew' },
      async ({ session, body }) => ({
        summary: await checkoutSummary(ctx, session, body.visit_id),
      }),
    );

    route(
      app,
      visitsApi.doctor,
      { tag, summary: "The provider assigned to the patient's visit" },
      async ({ session, body }) => ({
        provider: await assignedProvider(ctx, session, body.visit_id),
      }),
    );
    route(
      app,
      visitsApi.survey,
      { tag, summary: 'How the visit went' },
      async ({ session, body }) => {
        await saveSurvey(ctx, session, {
          visitId: body.visit_id,
          rating: body.rating,
          wouldRecommend: body.would_recommend,
          comments: body.comments,
        });
      },
    );
    route(
      app,
      visitsApi.feedback,
      { tag, summary: 'Anything a customer wants to tell us' },
      async ({ session, body }) => {
        await saveFeedback(ctx, session, { message: body.message, rating: body.rating });
      },
    );
  };

/**
 * Spec §7 `/upload_image/`: form data with the photo in `fileToUpload` and the visit in
 * `visit_id` (`lib/image-form.ts`: any other file is dropped, a photo over 10 MB is refused as it
 * streams).
 */
async function readPhotoForm(request: FastifyRequest): Promise<{ visitId: number; bytes: Buffer }> {
  const { fields, bytes } = await readImageForm(request, {
    fields: ['visit_id'],
    missingFile: 'Choose a photo of your ID.',
  });
  const visitId = VisitIdSchema.safeParse(Number(fields.visit_id));
  if (!visitId.success)
    throw new AppError('VALIDATION', 'Choose a visit', { visit_id: 'Choose a visit' });
  return { visitId: visitId.data, bytes };
}
