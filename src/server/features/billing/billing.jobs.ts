import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.ts';
import { runBilling } from './billing.service.ts';

/**
 * Runs renewal billing every `intervalSeconds` inside the server process. Every instance may run it:
 * exactly-once comes from the database's unique keys, not from this timer. One run at a time here.
 */
export function startBillingLoop(
  app: FastifyInstance,
  ctx: AppContext,
  intervalSeconds: number,
): void {
  if (intervalSeconds <= 0) return;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const run = await runBilling(ctx);
      if (run.renewed + run.failed + run.recovered > 0)
        app.log.info({ billing: run }, 'billing run');
    } catch (error) {
      app.log.error({ err: error }, 'billing run failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), intervalSeconds * 1000);
  timer.unref();
  app.addHook('onReady', async () => {
    void tick();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
  });
}
