import { useEffect, useEffectEvent } from 'react';

/** DESIGN §7: staff are logged out after 15 minutes without activity. */
export const STAFF_IDLE_MS = 15 * 60_000;

const activityEvents = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'scroll'];
/** How often a tab tells the console's other tabs that someone is working in it. */
const SHARE_EVERY_MS = 10_000;

/**
 * Calls `onIdle` once the page has seen no mouse, touch or keyboard activity for `timeoutMs`, and
 * `onActivity` on each sign of life. A shared computer left open on the console logs itself out
 * even when no request is made to let the server notice.
 *
 * Tabs sharing `channel` count each other's activity (BroadcastChannel, nothing stored), so a
 * forgotten second tab does not log out the session someone is working in.
 */
export function useIdleTimeout(
  timeoutMs: number,
  onIdle: () => void,
  onActivity?: () => void,
  channel?: string,
): void {
  const idle = useEffectEvent(onIdle);
  const active = useEffectEvent(() => onActivity?.());
  useEffect(() => {
    let last = Date.now();
    let shared = 0;
    let timer: ReturnType<typeof setTimeout>;
    const check = () => {
      const quiet = Date.now() - last;
      if (quiet >= timeoutMs) idle();
      else timer = setTimeout(check, timeoutMs - quiet);
    };
    timer = setTimeout(check, timeoutMs);
    const others =
      channel && typeof BroadcastChannel !== 'undefined' ? new BroadcastChannel(channel) : null;
    if (others) {
      others.onmessage = (event: MessageEvent<unknown>) => {
        const at = (event.data as { activeAt?: unknown } | null)?.activeAt;
        if (typeof at === 'number' && at > last && at <= Date.now()) last = at;
      };
    }
    const seen = () => {
      last = Date.now();
      active();
      if (others && last - shared >= SHARE_EVERY_MS) {
        shared = last;
        others.postMessage({ activeAt: last });
      }
    };
    for (const name of activityEvents)
      window.addEventListener(name, seen, { passive: true, capture: true });
    return () => {
      clearTimeout(timer);
      others?.close();
      for (const name of activityEvents) window.removeEventListener(name, seen, { capture: true });
    };
  }, [timeoutMs, channel]);
}
