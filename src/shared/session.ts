// zod/mini, not classic zod: every storefront page asks whether the visitor is logged in
// (docs/decisions/007-measured-quality.md).
import * as z from 'zod/mini';
import { apiPaths } from './api.ts';
import { endpoint } from './contract.ts';

/*
 * The part of auth (auth.ts) that every page needs on a first visit: whether this browser is
 * logged in, and as whom. Apart because a module's schemas all come along with it, and the log-in,
 * password and device forms' schemas do not belong in that download.
 */

/** Who a logged-in session belongs to, as log-in, sign-up and verifyauthentication answer it. */
export const SessionUserSchema = z.object({
  leads_id: z.string(),
  customer_id: z.number().check(z.int()),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
});
export type SessionUser = z.infer<typeof SessionUserSchema>;

export const VerifyAuthResultSchema = z.object({
  authenticated: z.boolean(),
  user: z.nullable(SessionUserSchema),
});
export type VerifyAuthResult = z.infer<typeof VerifyAuthResultSchema>;

export const sessionApi = {
  /** Whether this browser's session is logged in: the server's word, never an error for a visitor. */
  verifyAuthentication: endpoint({
    path: apiPaths.verifyAuthentication,
    access: 'public',
    body: z.optional(z.strictObject({})),
    response: VerifyAuthResultSchema,
    errors: [],
  }),
};
