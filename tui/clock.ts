/**
 * The dashboard's clock: what "now" is and which UTC offset local times are shown
 * in. The real program uses {@link systemClock}; tests inject {@link fixedClock} so
 * rendered frames are the same on every machine and at every hour.
 *
 * @module
 */

/** Where the time comes from. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Minutes east of UTC in effect at `ms` (local time = UTC + this). */
  offsetMinutes(ms: number): number;
}

/** The machine's clock and time zone. */
export const systemClock: Clock = {
  now: () => Date.now(),
  offsetMinutes: (ms) => -new Date(ms).getTimezoneOffset(),
};

/** A clock stopped at `ms`, showing times at a fixed offset (UTC by default). */
export function fixedClock(ms: number, offsetMinutes = 0): Clock {
  return { now: () => ms, offsetMinutes: () => offsetMinutes };
}

/** `ms` as local `YYYY-MM-DD HH:MM:SS` (cut as needed by the callers). */
export function localStamp(clock: Clock, ms: number): string {
  const shifted = new Date(ms + clock.offsetMinutes(ms) * 60_000);
  return shifted.toISOString().slice(0, 19).replace("T", " ");
}

/** The local day number of `ms` (days since 1970-01-01 in local time). */
export function localDay(clock: Clock, ms: number): number {
  return Math.floor((ms + clock.offsetMinutes(ms) * 60_000) / 86_400_000);
}

/** `MM-DD` of a local day number. */
export function dayLabel(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(5, 10);
}
