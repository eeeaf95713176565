import {
  decodeSettings,
  type ChallengeSettings,
  type FrameMessage,
} from './fake-stripe-js-protocol.ts';

/**
 * The 3-D Secure 2 page of Stripe's test mode, in the frame Stripe.js opens over the merchant's
 * page (https://docs.stripe.com/testing#regulatory-cards: "Complete" or "Fail" the
 * authentication). The answer goes to the fake, which moves the intent as the card holder's bank
 * would; the merchant's page then hears that the page is done and reads the intent's new state.
 */

const settings = decodeSettings<ChallengeSettings>(location.hash);
const status = document.getElementById('status');
const buttons = [...document.querySelectorAll<HTMLButtonElement>('button[data-outcome]')];

async function answer(outcome: string): Promise<void> {
  for (const button of buttons) button.disabled = true;
  const response = await fetch('/3d_secure_2/authenticate', {
    method: 'POST',
    body: new URLSearchParams({
      client_secret: settings.clientSecret,
      key: settings.publishableKey,
      outcome,
    }),
  });
  if (!response.ok) {
    const { error } = (await response.json()) as { error: { message: string } };
    if (status) status.textContent = error.message;
    for (const button of buttons) button.disabled = false;
    return;
  }
  const message: FrameMessage = { channel: settings.channel, type: 'authentication-finished' };
  window.parent.postMessage(message, settings.parentOrigin);
}

for (const button of buttons) {
  button.addEventListener('click', () => void answer(button.dataset.outcome ?? 'fail'));
}
buttons[0]?.focus();
