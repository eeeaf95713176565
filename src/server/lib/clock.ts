/**
 * The one source of time. Everything that schedules or expires (renewals, retries, tokens, sessions)
 * reads it, so tests can move it instead of waiting.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until a test moves it. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date | string = '2026-11-21T12:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(to: Date | string): void {
    this.current = new Date(to).getTime();
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
