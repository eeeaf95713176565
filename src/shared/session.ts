// zod/mini, not classic zod: every storefront page asks whether the visitor is logged in
// (docs/decisions/007-measured-quality.md).
import * as z from 'zod/mini';

/*
 * Apart from accounts.ts: every storefront page asks whether the visitor is logged in, and the
 * account forms' schemas do not belong in its first download.
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
