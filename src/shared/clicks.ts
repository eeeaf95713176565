// zod/mini, not classic zod: every first visit registers its click
// (docs/decisions/007-measured-quality.md).
import * as z from 'zod/mini';
import { apiPaths } from './api.ts';
import { endpoint } from './contract.ts';

const param = z.nullish(z.string().check(z.maxLength(500)));

/**
 * Spec §3 "Click / lead payload". The client's `ip_address` is never trusted: the server takes the
 * address from the connection.
 */
export const ClickCreateSchema = z.strictObject({
  a: param,
  c1: param,
  s1: param,
  s2: param,
  s3: param,
  s4: param,
  s5: param,
  url: z.string().check(z.maxLength(2000)),
  referrer: z.nullish(z.string().check(z.maxLength(2000))),
  user_agent: z.string().check(z.maxLength(1000)),
  device_type: z.enum(['mobile', 'tablet', 'desktop']),
  ip_address: z.nullish(z.string().check(z.maxLength(64))),
  campaigns_id: param,
  token: param,
});
export type ClickCreate = z.infer<typeof ClickCreateSchema>;

export const clicksApi = {
  /** Spec §7 "Register click": the answer is `{ status, click_id }`, the id beside the status. */
  clickCreate: endpoint({
    path: apiPaths.clickCreate,
    access: 'public',
    envelope: 'flat',
    body: ClickCreateSchema,
    response: z.object({ click_id: z.string() }),
    errors: [],
  }),
};
