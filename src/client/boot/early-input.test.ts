// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { replayEarlyInput } from './replay-early-input.ts';

/**
 * The early-input script (early-input.ts), run as a page runs it, and the app's replay: clicks on a
 * prerendered page made before it was hydrated (decision 011).
 */
async function page(html: string) {
  document.body.innerHTML = html;
  // A fresh run of the script, as on each page load.
  vi.resetModules();
  await import('./early-input.ts');
}

/** A click as a person makes it; true when the browser may go on with its default action. */
const click = (element: Element) =>
  element.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));

describe('clicks on a prerendered page before hydration', () => {
  afterEach(() => {
    document.body.innerHTML = '';
    // The listeners of this run stay on the document: hydrated, they hold nothing back.
    if (window.earlyInput) window.earlyInput.hydrated = true;
    delete window.earlyInput;
  });

  it('keeps clicks on buttons and replays them once, in order', async () => {
    await page('<form method="post"><button type="submit">Add to cart</button></form>');
    const seen: string[] = [];
    const button = document.querySelector('button') as HTMLButtonElement;
    // The app's handlers, already attached: a kept click reaches them only when replayed.
    const form = document.querySelector('form') as HTMLFormElement;
    form.addEventListener('click', (event) => seen.push((event.target as Element).localName));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      seen.push('submit');
    });

    expect(click(button)).toBe(false);
    expect(click(button)).toBe(false);
    expect(seen).toEqual([]);

    replayEarlyInput();
    // The double click is one.
    expect(seen).toEqual(['button', 'submit']);
    // From now on the page is the app's: nothing is held back.
    expect(click(button)).toBe(true);
    expect(seen).toEqual(['button', 'submit', 'button', 'submit']);
  });

  it('lets a radio or checkbox tick, and tells the app when hydration set it back', async () => {
    await page(`<label for="monthly">Monthly</label><input id="monthly" type="radio" name="f" />
      <input id="one-time" type="radio" name="f" checked /><input id="consent" type="checkbox" />`);
    const monthly = document.getElementById('monthly') as HTMLInputElement;
    const oneTime = document.getElementById('one-time') as HTMLInputElement;
    const consent = document.getElementById('consent') as HTMLInputElement;
    const heard: string[] = [];
    document.addEventListener('change', (event) => heard.push((event.target as Element).id));

    (document.querySelector('label') as HTMLLabelElement).click();
    expect(monthly.checked).toBe(true);
    consent.click();
    expect(consent.checked).toBe(true);
    heard.length = 0;

    // Hydration renders the app's own state: one-time, no consent.
    oneTime.checked = true;
    consent.checked = false;
    replayEarlyInput();
    expect(monthly.checked).toBe(true);
    expect(consent.checked).toBe(true);
    expect(heard).toEqual(['monthly', 'consent']);
  });

  it('tells the app of a radio or checkbox that hydration kept as the visitor left it', async () => {
    await page(`<input id="monthly" type="radio" name="f" />
      <input id="one-time" type="radio" name="f" checked /><input id="consent" type="checkbox" />`);
    const monthly = document.getElementById('monthly') as HTMLInputElement;
    const consent = document.getElementById('consent') as HTMLInputElement;
    const heard: string[] = [];
    document.addEventListener('change', (event) => heard.push((event.target as Element).id));

    monthly.click();
    consent.click();
    heard.length = 0;

    // Hydration keeps the elements as they are (Monthly, consent ticked); the app still holds the
    // prerendered state, so it must hear both changes or it adds a one-time purchase.
    replayEarlyInput();
    expect(monthly.checked).toBe(true);
    expect(consent.checked).toBe(true);
    expect(heard).toEqual(['monthly', 'consent']);
  });

  it('lets links and text fields be, and never lets the browser send a form itself', async () => {
    await page('<a href="#faq">FAQ</a><form method="post"><input type="email" /></form>');
    expect(click(document.querySelector('a') as Element)).toBe(true);
    expect(click(document.querySelector('input') as Element)).toBe(true);
    const form = document.querySelector('form') as HTMLFormElement;
    expect(form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }))).toBe(
      false,
    );
    expect(window.earlyInput?.clicks).toEqual([]);
  });

  it('opens again an answer hydration closed', async () => {
    await page('<details><summary>How old do I need to be?</summary><p>19 to 99.</p></details>');
    const details = document.querySelector('details') as HTMLDetailsElement;
    (document.querySelector('summary') as HTMLElement).click();
    // Hydration renders the answer as its markup says: closed.
    details.open = false;
    replayEarlyInput();
    expect(details.open).toBe(true);
  });

  it("fetches a prerendered page's deferred entry, with its modules, once the page has painted", async () => {
    document.head.innerHTML =
      '<meta name="deferred-entry" content="/assets/index-abc.js" />' +
      '<meta name="deferred-entry-preload" content="/assets/chunk-def.js" />';
    await page('<h1>Sleep Gummies</h1>');
    expect(document.querySelector('script[type="module"]')).toBeNull();
    await vi.waitFor(
      () =>
        expect(document.querySelector('script[type="module"]')?.getAttribute('src')).toBe(
          '/assets/index-abc.js',
        ),
      { timeout: 5_000 },
    );
    expect(document.querySelector('link[rel="modulepreload"]')?.getAttribute('href')).toBe(
      '/assets/chunk-def.js',
    );
    document.head.innerHTML = '';
  });

  it('holds nothing when it runs after the app has already rendered', async () => {
    replayEarlyInput();
    await page('<button type="button">Open</button>');
    expect(click(document.querySelector('button') as Element)).toBe(true);
    expect(window.earlyInput?.clicks).toEqual([]);
  });

  it('skips a control that is no longer on the page', async () => {
    await page('<button type="button">Open</button>');
    const button = document.querySelector('button') as HTMLButtonElement;
    let clicks = 0;
    button.addEventListener('click', () => (clicks += 1));
    click(button);
    button.remove();
    replayEarlyInput();
    expect(clicks).toBe(0);
  });
});
