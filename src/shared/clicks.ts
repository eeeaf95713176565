import { z } from 'zod';

const param = z.string().max(500).nullish();

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
  url: z.string().max(2000),
  referrer: z.string().max(2000).nullish(),
  user_agent: z.string().max(1000),
  device_type: z.enum(['mobile', 'tablet', 'desktop']),
  ip_address: z.string().max(64).nullish(),
  campaigns_id: param,
  token: param,
});
export type ClickCreate = z.infer<typeof ClickCreateSchema>;

export const ClickCreateResultSchema = z.object({
  status: z.literal('SUCCESS'),
  click_id: z.string(),
});
