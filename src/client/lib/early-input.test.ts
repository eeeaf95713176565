// @vitest-environment jsdom
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { replayEarlyInput } from './early-input.ts';

/**
 * public/early-input.js, as index.html loads it, and the app's replay: clicks on a page the server
 * drew, made before the app took it over (decision 011).
 */
const script = fs.readFileSync(path.resolve('public/early-input.js'), 'utf8');

function page(html: string) {
  document.body.innerHTML = html;
  window.eval(script);
}

/** A click as a person makes it; true when the browser may go on with its default action. */
const click = (element: Element) =>
  element.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));

describe('clicks before the app has taken over a drawn page', () => {
  afterEach(() => {
    document.body.innerHTML = '';
    delete window.pairwellEarlyInput;
  });

  it('keeps clicks on buttons and replays them once, in order', () => {
    page('<form method="post"><button type="submit">Add to cart</button></form>');
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

  it('lets a radio or checkbox tick, and tells the app when its first render set it back', () => {
    page(`<label for="monthly">Monthly</label><input id="monthly" type="radio" name="f" />
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

    // The app's first render draws its own state: one-time, no consent.
    oneTime.checked = true;
    consent.checked = false;
    replayEarlyInput();
    expect(monthly.checked).toBe(true);
    expect(consent.checked).toBe(true);
    expect(heard).toEqual(['monthly', 'consent']);
  });

  it('lets links and text fields be, and never lets the browser send a form itself', () => {
    page('<a href="#faq">FAQ</a><form method="post"><input type="email" /></form>');
    expect(click(document.querySelector('a') as Element)).toBe(true);
    expect(click(document.querySelector('input') as Element)).toBe(true);
    const form = document.querySelector('form') as HTMLFormElement;
    expect(form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }))).toBe(
      false,
    );
    expect(window.pairwellEarlyInput?.clicks).toEqual([]);
  });

  it('opens again an answer the first render closed', () => {
    page('<details><summary>How old do I need to be?</summary><p>19 to 99.</p></details>');
    const details = document.querySelector('details') as HTMLDetailsElement;
    (document.querySelector('summary') as HTMLElement).click();
    // The app's first render draws the answer as its markup says: closed.
    details.open = false;
    replayEarlyInput();
    expect(details.open).toBe(true);
  });

  it("fetches a drawn page's app, with its modules, once the page has painted", async () => {
    document.head.innerHTML =
      '<meta name="pairwell-app" content="/assets/index-abc.js" />' +
      '<meta name="pairwell-app-preload" content="/assets/chunk-def.js" />';
    page('<h1>Sleep Gummies</h1>');
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

  it('skips a control that is no longer on the page', () => {
    page('<button type="button">Open</button>');
    const button = document.querySelector('button') as HTMLButtonElement;
    let clicks = 0;
    button.addEventListener('click', () => (clicks += 1));
    click(button);
    button.remove();
    replayEarlyInput();
    expect(clicks).toBe(0);
  });
});
