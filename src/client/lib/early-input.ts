/**
 * What public/early-input.js keeps while a page drawn by the server is not yet the app's: a button
 * clicked, a radio or checkbox and the state it was left in, or an answer (`details`) opened or
 * closed.
 */
interface EarlyInput {
  ready: boolean;
  clicks: { control: Element; checked?: boolean; open?: boolean }[];
}

declare global {
  interface Window {
    pairwellEarlyInput?: EarlyInput;
  }
}

/**
 * The app has taken the page over (decision 011): from now on clicks reach it directly, and those
 * made before are replayed in order, each on its control if that is still on the page — a button
 * is clicked; a radio or checkbox the app's first render set back is clicked again, so the app
 * hears of the change; an answer the first render closed again opens.
 */
export function replayEarlyInput(win: Window = window): void {
  const early = win.pairwellEarlyInput;
  if (!early) return;
  early.ready = true;
  for (const { control, checked, open } of early.clicks.splice(0)) {
    if (!control.isConnected || !(control instanceof HTMLElement)) continue;
    if (control instanceof HTMLDetailsElement) {
      if (open !== undefined) control.open = open;
    } else if (checked === undefined) control.click();
    else if (control instanceof HTMLInputElement && control.checked !== checked) control.click();
  }
}
