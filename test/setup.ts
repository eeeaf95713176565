import { configure } from '@testing-library/dom';
import { afterAll, afterEach, beforeEach, vi } from 'vitest';
// Taken before the first stub below (see the file).
import './real-fetch.ts';

// findBy… and waitFor wait up to 5 s for the screen to settle (1 s by default): on a busy two-core
// machine React can take longer than a second to render a page, and these are waits, not timings.
configure({ asyncUtilTimeout: 5_000 });

/**
 * Every test: an unexpected console.error fails it, and so does a network call it did not stub
 * (tests talk to the app through `inject`, never through a socket to somewhere else).
 */
let consoleErrors: unknown[][] = [];

beforeEach(() => {
  consoleErrors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args);
  });
  vi.stubGlobal('fetch', (input: unknown) => {
    throw new Error(`Unexpected network call in a test: ${String(input)}`);
  });
});

afterEach(() => {
  if (consoleErrors.length > 0) {
    const first = consoleErrors[0]?.map(String).join(' ') ?? '';
    consoleErrors = [];
    throw new Error(`Unexpected console.error during the test: ${first}`);
  }
});

/**
 * Preact runs effects up to a frame (35 ms) after a render: in a test file with a window, the flushes
 * still waiting run before the window is taken down, or their timer would fire into a page that
 * no longer has `cancelAnimationFrame`.
 */
if (typeof window !== 'undefined') {
  const { trackEffectFlushes, flushWaitingEffects } = await import('./preact-effects.ts');
  trackEffectFlushes();
  afterAll(() => {
    vi.useRealTimers();
    flushWaitingEffects();
  });
}

/** For a test that expects console.error (React logs caught render errors): take them and clear. */
export function takeConsoleErrors(): unknown[][] {
  const taken = consoleErrors;
  consoleErrors = [];
  return taken;
}
