import crypto from 'node:crypto';
import type { AppContext } from '#server/context.ts';
import { enforceAddressLimit } from '#server/features/auth/auth.service.ts';
import type { ClickCreate } from '#shared/clicks.ts';
import * as q from './clicks.queries.ts';

/**
 * Registers a visit's click for attribution (spec §4: once per browser session). The address is the
 * connection's, never the one the client claims.
 */
export async function registerClick(
  ctx: AppContext,
  input: ClickCreate,
  ip: string,
): Promise<string> {
  await enforceAddressLimit(ctx, `click:ip:${ip}`, 120, 60 * 60_000);
  const id = `c${crypto.randomBytes(10).toString('hex')}`;
  const params = {
    a: input.a,
    c1: input.c1,
    s1: input.s1,
    s2: input.s2,
    s3: input.s3,
    s4: input.s4,
    s5: input.s5,
    campaigns_id: input.campaigns_id,
  };
  await q.insertClick(ctx.db, {
    id,
    params: JSON.stringify(params),
    url: input.url,
    referrer: input.referrer ?? null,
    userAgent: input.user_agent,
    deviceType: input.device_type,
    ipAddress: ip,
    now: ctx.clock.now().toISOString(),
  });
  return id;
}

export function clickExists(ctx: AppContext, id: string): Promise<boolean> {
  return q.clickExists(ctx.db, id);
}
