import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '#server/context.ts';
import { AppError } from '#server/lib/errors.ts';
import { requireOwnLeadsId, requireSession } from '#server/plugins/session.ts';
import { LeadsRequestSchema } from '#shared/accounts.ts';
import { apiPaths } from '#shared/api.ts';
import {
  ConsentResultSchema,
  ConsentSchema,
  DosagePreferenceSchema,
  DrugPreferenceSchema,
  FrequencyPreferenceSchema,
  HairPreferencesSchema,
  MAX_UPLOAD_BYTES,
  PreferencesResultSchema,
  SleepPreferencesSchema,
  UploadResultSchema,
  VisitCheckoutResultSchema,
  DoctorResultSchema,
  FeedbackSchema,
  OkSchema,
  SurveySchema,
  VisitRequestSchema,
  VisitCheckoutSchema,
  VisitIdSchema,
  EligibilityResultSchema,
  EligibilitySchema,
  PendingOrdersResponseSchema,
  QuestionRequestSchema,
  QuestionsResponseSchema,
  QuestionStateResponseSchema,
  SaveQuestionSchema,
  StartProgramResultSchema,
  StartProgramSchema,
  StatesAllowedResponseSchema,
  V2QuestionStateResponseSchema,
} from '#shared/telehealth.ts';
import {
  attachPhotoId,
  checkEligibility,
  giveConsent,
  savePreference,
  submitVisit,
  assignedProvider,
  saveFeedback,
  saveSurvey,
  getQuestions,
  nextQuestion,
  pendingOrders,
  previousQuestion,
  saveAnswer,
  startProgram,
  statesAllowed,
} from './visits.service.ts';

const tags = ['visits'];
const PreviousRequestSchema = QuestionRequestSchema.extend({ linkId: z.string().min(1).max(100) });

export const visitsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      apiPaths.startProgram,
      { schema: { tags, body: StartProgramSchema, response: { 200: StartProgramResultSchema } } },
      async (request) => {
        const session = requireOwnLeadsId(request, request.body.leads_id);
        const { visit, destination } = await startProgram(ctx, session, request.body.new_category);
        return {
          status: 'SUCCESS' as const,
          message: '',
          data: { leads_id: session.leadsId, destination, visit_id: visit.id },
        };
      },
    );

    app.post(
      apiPaths.pendingOrders,
      {
        schema: { tags, body: LeadsRequestSchema, response: { 200: PendingOrdersResponseSchema } },
      },
      async (request) => {
        const session = requireOwnLeadsId(request, request.body.leads_id);
        return {
          status: 'SUCCESS' as const,
          message: '',
          data: await pendingOrders(ctx, session.customerId),
        };
      },
    );

    // Public: which states the service covers (configurable, STATES_ALLOWED).
    app.post(
      apiPaths.statesAllowed,
      {
        schema: {
          tags,
          body: z.strictObject({}).optional(),
          response: { 200: StatesAllowedResponseSchema },
        },
      },
      async () => ({
        status: 'SUCCESS' as const,
        message: '',
        data: { states: statesAllowed(ctx) },
      }),
    );

    app.post(
      apiPaths.visitEligibility,
      { schema: { tags, body: EligibilitySchema, response: { 200: EligibilityResultSchema } } },
      async (request) => ({
        status: 'SUCCESS' as const,
        message: '',
        data: await checkEligibility(
          ctx,
          requireSession(request),
          request.body.visit_id,
          request.body.state,
          request.body.dob,
        ),
      }),
    );

    // v1 questionnaire calls.
    app.post(
      apiPaths.questionsGet,
      { schema: { tags, body: QuestionRequestSchema, response: { 200: QuestionsResponseSchema } } },
      async (request) => ({
        status: 'SUCCESS' as const,
        message: '',
        data: await getQuestions(ctx, requireSession(request), request.body.visit_id),
      }),
    );
    app.post(
      apiPaths.questionSave,
      {
        schema: { tags, body: SaveQuestionSchema, response: { 200: QuestionStateResponseSchema } },
      },
      async (request) => ({
        status: 'SUCCESS' as const,
        message: '',
        data: await saveAnswer(
          ctx,
          requireSession(request),
          request.body.visit_id,
          request.body.linkId,
          request.body.value,
        ),
      }),
    );
    app.post(
      apiPaths.questionNext,
      {
        schema: {
          tags,
          body: QuestionRequestSchema,
          response: { 200: QuestionStateResponseSchema },
        },
      },
      async (request) => ({
        status: 'SUCCESS' as const,
        message: '',
        data: await nextQuestion(
          ctx,
          requireSession(request),
          request.body.visit_id,
          request.body.linkId,
        ),
      }),
    );
    app.post(
      apiPaths.questionPrevious,
      {
        schema: {
          tags,
          body: PreviousRequestSchema,
          response: { 200: QuestionStateResponseSchema },
        },
      },
      async (request) => ({
        status: 'SUCCESS' as const,
        message: '',
        data: await previousQuestion(
          ctx,
          requireSession(request),
          request.body.visit_id,
          request.body.linkId,
        ),
      }),
    );

    // v2 questionnaire calls: `{ data }`.
    app.post(
      apiPaths.v2QuestionNext,
      {
        schema: {
          tags,
          body: QuestionRequestSchema,
          response: { 200: V2QuestionStateResponseSchema },
        },
      },
      async (request) => ({
        data: await nextQuestion(
          ctx,
          requireSession(request),
          request.body.visit_id,
          request.body.linkId,
        ),
      }),
    );
    app.post(
      apiPaths.v2QuestionPrevious,
      {
        schema: {
          tags,
          body: PreviousRequestSchema,
          response: { 200: V2QuestionStateResponseSchema },
        },
      },
      async (request) => ({
        data: await previousQuestion(
          ctx,
          requireSession(request),
          request.body.visit_id,
          request.body.linkId,
        ),
      }),
    );
    app.post(
      apiPaths.v2QuestionSubmit,
      {
        schema: {
          tags,
          body: SaveQuestionSchema,
          response: { 200: V2QuestionStateResponseSchema },
        },
      },
      async (request) => ({
        data: await saveAnswer(
          ctx,
          requireSession(request),
          request.body.visit_id,
          request.body.linkId,
          request.body.value,
        ),
      }),
    );

    // Treatment preferences (spec §7 `/product/…`).
    const preference = (data: Awaited<ReturnType<typeof savePreference>>) => ({
      status: 'SUCCESS' as const,
      message: '',
      data,
    });
    app.post(
      apiPaths.productDrug,
      { schema: { tags, body: DrugPreferenceSchema, response: { 200: PreferencesResultSchema } } },
      async (request) =>
        preference(
          await savePreference(ctx, requireSession(request), request.body.visit_id, {
            kind: 'drug',
            drug: request.body.drug,
          }),
        ),
    );
    app.post(
      apiPaths.productDosage,
      {
        schema: { tags, body: DosagePreferenceSchema, response: { 200: PreferencesResultSchema } },
      },
      async (request) =>
        preference(
          await savePreference(ctx, requireSession(request), request.body.visit_id, {
            kind: 'dosage',
            dosage: request.body.dosage,
          }),
        ),
    );
    app.post(
      apiPaths.productFrequency,
      {
        schema: {
          tags,
          body: FrequencyPreferenceSchema,
          response: { 200: PreferencesResultSchema },
        },
      },
      async (request) =>
        preference(
          await savePreference(ctx, requireSession(request), request.body.visit_id, {
            kind: 'frequency',
            frequency: request.body.frequency,
          }),
        ),
    );
    app.post(
      apiPaths.hairPreferences,
      { schema: { tags, body: HairPreferencesSchema, response: { 200: PreferencesResultSchema } } },
      async (request) =>
        preference(
          await savePreference(ctx, requireSession(request), request.body.visit_id, {
            kind: 'hair',
            form: request.body.form,
            notes: request.body.notes,
          }),
        ),
    );
    app.post(
      apiPaths.sleepPreferences,
      {
        schema: { tags, body: SleepPreferencesSchema, response: { 200: PreferencesResultSchema } },
      },
      async (request) =>
        preference(
          await savePreference(ctx, requireSession(request), request.body.visit_id, {
            kind: 'sleep',
            goal: request.body.goal,
            notes: request.body.notes,
          }),
        ),
    );

    // Spec §7 `/upload_image/`: form data with the photo in `fileToUpload` and the visit in `visit_id`.
    app.post(
      apiPaths.uploadImage,
      { schema: { tags, response: { 200: UploadResultSchema } } },
      async (request) => {
        const session = requireSession(request);
        if (!request.isMultipart())
          throw new AppError(
            415,
            'NOT_MULTIPART',
            'Send the photo as form data in the field fileToUpload.',
          );
        const tooLarge = new AppError(
          413,
          'TOO_LARGE',
          'That photo is larger than 10 MB. Please choose a smaller one.',
          { fileToUpload: 'That photo is larger than 10 MB. Please choose a smaller one.' },
        );
        let bytes: Buffer | undefined;
        let visitField: string | undefined;
        try {
          for await (const part of request.parts({
            limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 4 },
          })) {
            if (part.type === 'file') {
              if (part.fieldname !== 'fileToUpload') {
                await part.toBuffer();
                continue;
              }
              bytes = await part.toBuffer();
            } else if (part.fieldname === 'visit_id') {
              visitField = String(part.value);
            }
          }
        } catch (error) {
          if (error instanceof Error && /too large|file size|limit/i.test(error.message))
            throw tooLarge;
          throw new AppError(400, 'BAD_UPLOAD', 'The upload could not be read. Please try again.');
        }
        const visitId = VisitIdSchema.safeParse(Number(visitField));
        if (!visitId.success)
          throw new AppError(400, 'VALIDATION', 'Choose a visit', { visit_id: 'Choose a visit' });
        if (!bytes || bytes.length === 0)
          throw new AppError(400, 'VALIDATION', 'Choose a photo of your ID.', {
            fileToUpload: 'Choose a photo of your ID.',
          });
        const stored = await attachPhotoId(ctx, session, visitId.data, bytes);
        return {
          status: 'SUCCESS' as const,
          message: 'Your photo ID was uploaded.',
          data: { upload_id: stored.uploadId, destination: stored.destination },
        };
      },
    );

    app.post(
      apiPaths.visitConsent,
      { schema: { tags, body: ConsentSchema, response: { 200: ConsentResultSchema } } },
      async (request) => ({
        status: 'SUCCESS' as const,
        message: '',
        data: await giveConsent(ctx, requireSession(request), request.body.visit_id),
      }),
    );

    app.post(
      apiPaths.visitCheckout,
      { schema: { tags, body: VisitCheckoutSchema, response: { 200: VisitCheckoutResultSchema } } },
      async (request) => {
        const result = await submitVisit(ctx, requireSession(request), {
          visitId: request.body.visit_id,
          shipping: request.body.shipping,
          billing: request.body.billing,
          payment: request.body.payment,
        });
        return {
          status: 'SUCCESS' as const,
          message: 'Your visit was sent to a provider.',
          data: {
            order_number: result.orderNumber,
            amount_cents: result.amountCents,
            destination: result.destination,
          },
        };
      },
    );

    app.post(
      apiPaths.doctor,
      { schema: { tags, body: VisitRequestSchema, response: { 200: DoctorResultSchema } } },
      async (request) => ({
        status: 'SUCCESS' as const,
        message: '',
        data: {
          provider: await assignedProvider(ctx, requireSession(request), request.body.visit_id),
        },
      }),
    );

    app.post(
      apiPaths.survey,
      { schema: { tags, body: SurveySchema, response: { 200: OkSchema } } },
      async (request) => {
        await saveSurvey(ctx, requireSession(request), {
          visitId: request.body.visit_id,
          rating: request.body.rating,
          wouldRecommend: request.body.would_recommend,
          comments: request.body.comments,
        });
        return { status: 'SUCCESS' as const, message: 'Thank you for telling us.' };
      },
    );

    app.post(
      apiPaths.feedback,
      { schema: { tags, body: FeedbackSchema, response: { 200: OkSchema } } },
      async (request) => {
        await saveFeedback(ctx, requireSession(request), {
          message: request.body.message,
          rating: request.body.rating,
        });
        return { status: 'SUCCESS' as const, message: 'Thank you for your feedback.' };
      },
    );
  };
