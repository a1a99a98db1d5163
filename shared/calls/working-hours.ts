import type { WorkingHours } from './schema';

/**
 * Working-hours arithmetic, all in UTC at minute precision. A shift is [start_minute, end_minute) of its day.
 */
export type Day = Exclude<keyof WorkingHours, 'enabled'>;
/** The contract's days in `getUTCDay()` order; each checked against the contract's days. */
export const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const satisfies readonly Day[];

const MINUTE = 60_000;
const DAY = 1_440 * MINUTE;

/** Working hours constrain calls only when present and not switched off. */
export function workingHoursApply(hours: WorkingHours | undefined | null): hours is WorkingHours {
  return Boolean(hours) && hours!.enabled !== false;
}

export function hasAnyShift(hours: WorkingHours): boolean {
  return DAYS.some((d) => (hours[d]?.length ?? 0) > 0);
}

/**
 * The earliest instant at or after `at` that lies inside a shift: `at` itself when inside one, else the start
 * of the next shift, looking a full week ahead. Null when no day has a shift.
 */
export function nextWorkingTime(at: number, hours: WorkingHours): number | null {
  const dayStart = Math.floor(at / DAY) * DAY;
  const minuteOfDay = Math.floor((at - dayStart) / MINUTE);
  const weekday = new Date(dayStart).getUTCDay();
  // Eight days: today, six more, and today's weekday again for a shift that began before `at` today.
  for (let offset = 0; offset <= 7; offset++) {
    const shifts = [...(hours[DAYS[(weekday + offset) % 7]] ?? [])].sort((a, b) => a.start_minute - b.start_minute);
    for (const shift of shifts) {
      if (offset === 0 && minuteOfDay >= shift.end_minute) continue;
      if (offset === 0 && minuteOfDay >= shift.start_minute) return at;
      return dayStart + offset * DAY + shift.start_minute * MINUTE;
    }
  }
  return null;
}

/**
 * When a call should first be dialled. `schedule_at` wins as given (a past instant means now); otherwise now,
 * moved into working hours when they apply.
 */
export function firstDialTime(now: number, scheduleAt: number | null | undefined, hours: WorkingHours | undefined | null): number {
  if (scheduleAt !== null && scheduleAt !== undefined) return Math.max(now, scheduleAt);
  if (!workingHoursApply(hours)) return now;
  return nextWorkingTime(now, hours) ?? now;
}
