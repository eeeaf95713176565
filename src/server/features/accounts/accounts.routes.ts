import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '#server/context.ts';
import { requestMeta } from '#server/features/auth/auth.routes.ts';
import { readDeviceToken, setDeviceCookie } from '#server/plugins/device-cookie.ts';
import {
  clearSessionCookie,
  requireOwnLeadsId,
  requireSession,
  setSessionCookie,
} from '#server/plugins/session.ts';
import {
  AccountDataSchema,
  AccountUpdateSchema,
  AddressPayloadSchema,
  BasicsSchema,
  CardPayloadSchema,
  CardUpdateResultSchema,
  EmailRestoreResultSchema,
  EmailRestoreSchema,
  LeadsRequestSchema,
  LoginResultSchema,
  PatientDataResponseSchema,
  SignupSchema,
  SmsAuthResultSchema,
  SmsAuthSchema,
} from '#shared/accounts.ts';
import { apiPaths, v1Success } from '#shared/api.ts';
import { messages } from '#shared/messages.ts';
import { updateCardAndRetry } from '#server/features/billing/billing.service.ts';
import { accountBasics, patientData } from '#server/features/member/member.service.ts';
import {
  accountData,
  createAccount,
  restoreEmail,
  saveAddresses,
  sendPhoneCode,
  updateAccount,
  verifyPhoneCode,
} from './accounts.service.ts';

const Empty = z.strictObject({}).optional();
const Ok = z.object({ status: z.literal('SUCCESS'), message: z.string() });
const tags = ['accounts'];

export const accountsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      apiPaths.accountCreate,
      { schema: { tags, body: SignupSchema, response: { 200: v1Success(LoginResultSchema) } } },
      async (request, reply) => {
        const result = await createAccount(ctx, request.body, {
          ...requestMeta(request),
          deviceToken: readDeviceToken(request, ctx.env),
        });
        setSessionCookie(reply, ctx.env, result.token, result.maxAgeSeconds);
        setDeviceCookie(reply, ctx.env, result.device);
        return {
          status: 'SUCCESS' as const,
          message: 'Welcome to Pairwell',
          data: { leads_id: result.user.leads_id, user: result.user },
        };
      },
    );

    app.post(
      apiPaths.basics,
      { schema: { tags, body: Empty, response: { 200: v1Success(BasicsSchema) } } },
      async (request) => ({
        status: 'SUCCESS' as const,
        message: '',
        data: await accountBasics(ctx, requireSession(request)),
      }),
    );

    app.post(
      apiPaths.accountData,
      {
        schema: { tags, body: LeadsRequestSchema, response: { 200: v1Success(AccountDataSchema) } },
      },
      async (request) => ({
        status: 'SUCCESS' as const,
        message: '',
        data: await accountData(ctx, requireOwnLeadsId(request, request.body.leads_id)),
      }),
    );

    app.post(
      apiPaths.patientData,
      { schema: { tags, body: LeadsRequestSchema, response: { 200: PatientDataResponseSchema } } },
      async (request) => ({
        status: 'SUCCESS' as const,
        message: await patientData(ctx, requireOwnLeadsId(request, request.body.leads_id)),
      }),
    );

    app.post(
      apiPaths.accountUpdate,
      { schema: { tags, body: AccountUpdateSchema, response: { 200: Ok } } },
      async (request) => {
        await updateAccount(ctx, requireOwnLeadsId(request, request.body.leads_id), request.body);
        return { status: 'SUCCESS' as const, message: messages.accountUpdateContent };
      },
    );

    app.post(
      apiPaths.emailRestore,
      {
        schema: {
          tags,
          body: EmailRestoreSchema,
          response: { 200: v1Success(EmailRestoreResultSchema) },
        },
      },
      async (request, reply) => {
        // Anyone holding the link may use it: the owner may have no session left to use.
        const restored = await restoreEmail(ctx, request.body.token);
        clearSessionCookie(reply, ctx.env);
        return {
          status: 'SUCCESS' as const,
          message:
            'Your email address is back, and every device was logged out. Please choose a new password now.',
          data: restored,
        };
      },
    );

    app.post(
      apiPaths.address,
      { schema: { tags, body: AddressPayloadSchema, response: { 200: Ok } } },
      async (request) => {
        await saveAddresses(ctx, requireOwnLeadsId(request, request.body.leads_id), request.body);
        return { status: 'SUCCESS' as const, message: 'Your addresses were saved.' };
      },
    );

    app.post(
      apiPaths.ccUpdate,
      {
        schema: {
          tags,
          body: CardPayloadSchema,
          response: { 200: v1Success(CardUpdateResultSchema) },
        },
      },
      async (request) => ({
        status: 'SUCCESS' as const,
        message: 'Your payment method was updated.',
        data: { card: await updateCardAndRetry(ctx, requireSession(request), request.body) },
      }),
    );

    app.post(
      apiPaths.smsAuth,
      { schema: { tags, body: SmsAuthSchema, response: { 200: v1Success(SmsAuthResultSchema) } } },
      async (request) => {
        const session = requireSession(request);
        const data =
          request.body.action === 'send'
            ? await sendPhoneCode(ctx, session)
            : await verifyPhoneCode(ctx, session, request.body.code);
        return { status: 'SUCCESS' as const, message: '', data };
      },
    );
  };
