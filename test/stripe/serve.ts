// `npx tsx test/stripe/serve.ts`: the fake Stripe (fake-stripe.ts) as a process of its own, for
// the browser journeys' Stripe instance of the app (playwright.config.ts). From the environment:
// FAKE_STRIPE_PORT (required), FAKE_STRIPE_WEBHOOK_SECRET (required, the app's
// STRIPE_WEBHOOK_SECRET) and FAKE_STRIPE_WEBHOOK_URL (optional, where events are POSTed). It says
// one line once listening (`GET /v3/`, the Stripe.js stand-in, answers 200 without a key: the
// readiness check) and closes on SIGTERM or SIGINT.
import { startFakeStripe } from './fake-stripe.ts';

const log = (line: string) => process.stdout.write(`${line}\n`);

/** A variable that must be set, or the reason it is not. */
function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

async function main(): Promise<void> {
  const portText = required('FAKE_STRIPE_PORT');
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65_535)
    throw new Error(`FAKE_STRIPE_PORT is not a port: ${portText}`);
  const webhookUrl = process.env.FAKE_STRIPE_WEBHOOK_URL || undefined;
  const fake = await startFakeStripe({
    port,
    webhookSecret: required('FAKE_STRIPE_WEBHOOK_SECRET'),
    ...(webhookUrl ? { webhookUrl } : {}),
  });
  log(
    `fake Stripe listening at ${fake.url}, webhooks ${webhookUrl ? `to ${webhookUrl}` : 'recorded only'}`,
  );

  let closing = false;
  const stop = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    fake.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`fake Stripe did not close on ${signal}: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `fake Stripe failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
