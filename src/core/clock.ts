/** The source of "now" (epoch milliseconds). Injected everywhere so tests run on fixed clocks. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests move by hand. */
export function manualClock(start: number | string): Clock & { set(t: number | string): void; advance(ms: number): void } {
  let current = typeof start === 'string' ? Date.parse(start) : start;
  return {
    now: () => current,
    set(t) {
      current = typeof t === 'string' ? Date.parse(t) : t;
    },
    advance(ms) {
      current += ms;
    },
  };
}
