import { options } from 'preact';

/**
 * Preact runs effects after the next frame: its hooks ask `options.requestAnimationFrame` (or, when
 * unset, their own `afterNextFrame`) to call a flush once a frame or 35 ms has passed, whichever
 * comes first. In a test file with a window, a flush still waiting when the file ends would fire
 * into a page that no longer has `cancelAnimationFrame`. This is the same schedule, with the
 * flushes still waiting known, so the file can run them before its window goes rather than guess
 * how long they take.
 */

/** Preact's own fallback when no frame comes (30 frames a second). */
const FRAME_TIMEOUT_MS = 35;

interface Scheduled {
  flush: () => void;
  cancel: () => void;
}

const waiting = new Set<Scheduled>();

function afterNextFrame(flush: () => void): void {
  const scheduled: Scheduled = { flush, cancel: () => undefined };
  const run = () => {
    scheduled.cancel();
    // As Preact does: a macrotask after the frame, so the browser has painted.
    setTimeout(() => {
      if (waiting.delete(scheduled)) flush();
    });
  };
  const timeout = setTimeout(run, FRAME_TIMEOUT_MS);
  const frame = typeof requestAnimationFrame === 'function' ? requestAnimationFrame(run) : null;
  scheduled.cancel = () => {
    clearTimeout(timeout);
    // Once the window is gone there is no frame left to cancel.
    if (frame !== null && typeof cancelAnimationFrame === 'function') cancelAnimationFrame(frame);
  };
  waiting.add(scheduled);
}

/** Effects are scheduled through `afterNextFrame` above from now on. */
export function trackEffectFlushes(): void {
  options.requestAnimationFrame = afterNextFrame;
}

/** Runs every effect flush still waiting for its frame, now. */
export function flushWaitingEffects(): void {
  for (const scheduled of [...waiting]) {
    waiting.delete(scheduled);
    scheduled.cancel();
    scheduled.flush();
  }
}
