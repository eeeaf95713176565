import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '#server/context.ts';
import { requestMeta } from '#server/features/auth/auth.routes.ts';
import { route } from '#server/lib/route.ts';
import { readDeviceToken, setDeviceCookie } from '#server/plugins/device-cookie.ts';
import { clearSessionCookie, setSessionCookie } from '#server/plugins/session.ts';
import { accountsApi, type PaymentRetry } from '#shared/accounts.ts';
import { replaceCard, type CardReplaced } from './accounts.card.ts';
import {
  accountData,
  confirmEmail,
  createAccount,
  restoreEmail,
  saveAddresses,
  sendEmailVerification,
  sendPhoneCode,
  updateAccount,
  verifyPhoneCode,
} from './accounts.service.ts';

const tag = 'accounts';

/**
 * `cardReplaced`: what the features that charge the card do with a new one (billing's retries).
 * `confirmPayment`: billing's "Confirm your payment" of an unpaid renewal, the customer present.
 */
export const accountsRoutes =
  (
    ctx: AppContext,
    hooks: {
      cardReplaced: readonly CardReplaced[];
      confirmPayment: (
        ctx: AppContext,
        customerId: number,
        orderNumber: string,
      ) => Promise<PaymentRetry>;
    },
  ): FastifyPluginAsync =>
  async (app) => {
    route(
      app,
      accountsApi.accountCreate,
      { tag, summary: 'Sign up: create the account and log in' },
      async ({ body, request, reply }) => {
        const result = await createAccount(ctx, body, {
          ...requestMeta(request),
          deviceToken: readDeviceToken(request, ctx.env),
        });
        setSessionCookie(reply, ctx.env, result.token, result.maxAgeSeconds);
        setDeviceCookie(reply, ctx.env, result.device);
        return { leads_id: result.user.leads_id, user: result.user };
      },
    );

    route(
      app,
      accountsApi.accountData,
      { tag, summary: "The customer's details, addresses and card" },
      async ({ session }) => accountData(ctx, session),
    );

    route(
      app,
      accountsApi.accountUpdate,
      { tag, summary: 'Change name, email, phone and date of birth' },
      async ({ body, session }) => {
        await updateAccount(ctx, session, body);
      },
    );

    route(
      app,
      accountsApi.emailRestore,
      { tag, summary: 'Undo an email change with the link sent to the old address' },
      async ({ body, reply }) => {
        // Anyone holding the link may use it: the owner may have no session left to use.
        const restored = await restoreEmail(ctx, body.token);
        clearSessionCookie(reply, ctx.env);
        return restored;
      },
    );

    route(
      app,
      accountsApi.emailVerify,
      { tag, summary: 'Prove an email address with the link mailed to it' },
      // Anyone holding the link may use it (it may be opened on another device); a session of the
      // same account is the one an email change keeps.
      async ({ body, session }) => confirmEmail(ctx, body.token, session),
    );

    route(
      app,
      accountsApi.emailVerifySend,
      { tag, summary: "Send the link that proves the account's email address again" },
      async ({ session }) => sendEmailVerification(ctx, session),
    );

    route(
      app,
      accountsApi.address,
      { tag, summary: 'Save the shipping and billing addresses and the phone' },
      async ({ body, session }) => {
        await saveAddresses(ctx, session, body);
      },
    );

    route(
      app,
      accountsApi.ccUpdate,
      { tag, summary: 'Replace the card on file (and retry a failed payment)' },
      async ({ body, session }) => replaceCard(ctx, session, body, hooks.cardReplaced),
    );

    route(
      app,
      accountsApi.paymentMethodUpdate,
      {
        tag,
        summary:
          "Replace the card on file with one from Stripe's card form (and retry a failed payment)",
      },
      async ({ body, session }) => replaceCard(ctx, session, body, hooks.cardReplaced),
    );

    route(
      app,
      accountsApi.paymentConfirm,
      { tag, summary: 'Confirm a payment the bank asked the customer about (3-D Secure)' },
      async ({ body, session }) => hooks.confirmPayment(ctx, session.customerId, body.order_number),
    );

    route(
      app,
      accountsApi.smsAuth,
      { tag, summary: 'Text a code to the phone, or check it' },
      async ({ body, session }) =>
        body.action === 'send'
          ? sendPhoneCode(ctx, session)
          : verifyPhoneCode(ctx, session, body.code),
    );
  };
