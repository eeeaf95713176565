import type { EarlyInput } from './early-input.ts';

/**
 * The app has hydrated the page: from now on clicks reach it directly, and those the early-input
 * script kept (early-input.ts) are replayed in order, each on its control if that is still on the
 * page — a button is clicked; a radio or checkbox is set back and clicked again, so the app hears
 * of the change; an answer hydration closed again opens.
 */
export function replayEarlyInput(): void {
  // Should the script not have run yet, the mark tells it the app is here (early-input.ts).
  const early: EarlyInput = (window.earlyInput ??= { hydrated: true, clicks: [] });
  early.hydrated = true;
  for (const { control, checked, open } of early.clicks.splice(0)) {
    if (!control.isConnected || !(control instanceof HTMLElement)) continue;
    if (control instanceof HTMLDetailsElement) {
      if (open !== undefined) control.open = open;
    } else if (checked === undefined) control.click();
    else if (control instanceof HTMLInputElement) {
      // Hydration keeps the element as the visitor left it (checked), while the app's state is
      // still the prerendered one: put the control back as it was before the click and click it
      // again, so the change reaches the app whichever of the two hydration kept.
      if (control.checked === checked) control.checked = !checked;
      control.click();
    }
  }
}
