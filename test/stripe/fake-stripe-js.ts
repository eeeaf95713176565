import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { FastifyInstance } from 'fastify';

/**
 * What the fake Stripe serves to browsers, as js.stripe.com and Stripe's 3-D Secure pages do:
 * the Stripe.js stand-in at `/v3/`, the Payment Element's card form at `/elements/payment` and the
 * test-mode 3-D Secure 2 page at `/3d_secure_2/challenge`. The scripts are written in TypeScript
 * beside this file (`*.browser.ts`) and bundled on first use.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const bundles = new Map<string, Promise<string>>();

/** One bundle per script for the whole test run: the sources do not change under it. */
function bundle(entry: string): Promise<string> {
  let built = bundles.get(entry);
  if (!built) {
    built = build({
      entryPoints: [path.join(here, entry)],
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      target: 'es2022',
      logLevel: 'silent',
    }).then((result) => result.outputFiles[0]?.text ?? '');
    bundles.set(entry, built);
  }
  return built;
}

const pageStyle = `
  *, *::before, *::after { box-sizing: border-box; }
  html { -webkit-text-size-adjust: 100%; }
  body {
    margin: 0;
    font-family: -apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif;
    color: #30313d;
    background: transparent;
  }
  button, input { font: inherit; }
`;

/** Stripe's Payment Element for a US card: number, expiry, security code and ZIP, each labelled. */
const paymentElementPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Secure payment input frame</title>
<style>${pageStyle}
  body { padding: 2px 4px 4px; }
  fieldset { border: 0; margin: 0; padding: 0; min-width: 0; }
  legend { font-size: 15px; font-weight: 600; padding: 0; margin-bottom: 12px; }
  .grid { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
  .field { display: flex; flex-direction: column; gap: 4px; min-width: 0; }
  .wide { grid-column: 1 / -1; }
  label { font-size: 14px; }
  input {
    width: 100%;
    min-height: 44px;
    padding: 10px 12px;
    font-size: 16px;
    color: #30313d;
    background: #fff;
    border: 1px solid #8a8d98;
    border-radius: 6px;
  }
  input:focus { outline: 3px solid #0570de; outline-offset: 1px; border-color: #0570de; }
  input[aria-invalid='true'] { border-color: #c0123c; box-shadow: 0 0 0 1px #c0123c; }
  .error { margin: 0; font-size: 14px; color: #c0123c; }
  @media (max-width: 320px) { .grid { grid-template-columns: 1fr; } }
</style>
</head>
<body>
<form id="card" novalidate>
  <fieldset>
    <legend>Card</legend>
    <div class="grid">
      <div class="field wide">
        <label for="number">Card number</label>
        <input id="number" name="cardnumber" inputmode="numeric" autocomplete="cc-number"
          placeholder="1234 1234 1234 1234" aria-invalid="false" spellcheck="false">
        <p class="error" id="number-error" aria-live="polite" hidden></p>
      </div>
      <div class="field">
        <label for="expiry">Expiration date</label>
        <input id="expiry" name="exp-date" inputmode="numeric" autocomplete="cc-exp"
          placeholder="MM / YY" aria-invalid="false" spellcheck="false">
        <p class="error" id="expiry-error" aria-live="polite" hidden></p>
      </div>
      <div class="field">
        <label for="cvc">Security code</label>
        <input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="CVC"
          aria-invalid="false" spellcheck="false">
        <p class="error" id="cvc-error" aria-live="polite" hidden></p>
      </div>
      <div class="field wide">
        <label for="zip">ZIP</label>
        <input id="zip" name="postal" inputmode="numeric" autocomplete="postal-code"
          placeholder="12345" aria-invalid="false" spellcheck="false">
        <p class="error" id="zip-error" aria-live="polite" hidden></p>
      </div>
    </div>
  </fieldset>
</form>
<script src="/elements/payment.js"></script>
</body>
</html>`;

/** Stripe's test-mode 3-D Secure 2 page: the card holder completes or fails the check. */
const challengePage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>3D Secure 2 Test Page</title>
<style>${pageStyle}
  body { background: #fff; }
  main { max-width: 460px; margin: 0 auto; padding: 24px 20px; }
  h1 { font-size: 20px; margin: 0 0 12px; }
  p { line-height: 1.5; margin: 0 0 20px; }
  .actions { display: flex; flex-wrap: wrap; gap: 12px; }
  button {
    min-height: 44px;
    min-width: 120px;
    padding: 10px 20px;
    font-size: 16px;
    font-weight: 600;
    border-radius: 6px;
    border: 2px solid #0570de;
    cursor: pointer;
  }
  button:focus-visible { outline: 3px solid #30313d; outline-offset: 2px; }
  button[data-outcome='succeed'] { background: #0570de; color: #fff; }
  button[data-outcome='fail'] { background: #fff; color: #0570de; }
  button:disabled { opacity: 0.6; cursor: progress; }
  #status { color: #c0123c; margin-top: 16px; }
</style>
</head>
<body>
<main>
  <h1>3D Secure 2 Test Page</h1>
  <p>This is a test page for 3D Secure 2 authentication. In live mode, the card holder's bank shows
    its own check here. Complete or fail the authentication to see how your integration handles it.</p>
  <div class="actions">
    <button type="button" data-outcome="succeed">Complete</button>
    <button type="button" data-outcome="fail">Fail</button>
  </div>
  <p id="status" role="status"></p>
</main>
<script src="/3d_secure_2/challenge.js"></script>
</body>
</html>`;

export interface StripeJsRoutes {
  /** The card holder's answer on the 3-D Secure page, for the intent the client secret names. */
  authenticate(
    clientSecret: string,
    publishableKey: string,
    outcome: 'succeed' | 'fail',
  ): { status: number; body: object };
}

export function registerStripeJs(app: FastifyInstance, routes: StripeJsRoutes): void {
  for (const [url, entry] of [
    ['/v3/', 'fake-stripe-js.browser.ts'],
    ['/elements/payment.js', 'fake-stripe-element.browser.ts'],
    ['/3d_secure_2/challenge.js', 'fake-stripe-challenge.browser.ts'],
  ] as const) {
    app.get(url, async (_request, reply) => {
      // Stripe's CDN lets any origin load the script (and read it, for subresource checks).
      void reply
        .type('text/javascript; charset=utf-8')
        .header('access-control-allow-origin', '*')
        .header('cache-control', 'no-store');
      return bundle(entry);
    });
  }
  app.get('/elements/payment', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(paymentElementPage),
  );
  app.get('/3d_secure_2/challenge', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(challengePage),
  );
  app.post('/3d_secure_2/authenticate', async (request, reply) => {
    const form = new URLSearchParams(typeof request.body === 'string' ? request.body : '');
    const outcome = form.get('outcome') === 'succeed' ? 'succeed' : 'fail';
    const answer = routes.authenticate(
      form.get('client_secret') ?? '',
      form.get('key') ?? '',
      outcome,
    );
    return reply.code(answer.status).type('application/json').send(answer.body);
  });
}
