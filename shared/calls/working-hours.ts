import { DateTime } from 'luxon';
import type { WorkingHours } from './schema';
import { CANDIDATE_ZONES } from '../contact/time-zone-names';

/**
 * Working-hours arithmetic at minute precision. A shift is [start_minute, end_minute) of its day, in UTC or in
 * IANA zones. In a zone, shifts keep their wall clock across daylight-saving changes (09:00–17:00 in New York
 * is 09:00–17:00 on both sides of a change): instants are found through the zone's rules (luxon, over the
 * runtime's ICU data), never with a fixed offset.
 */
export type Day = Exclude<keyof WorkingHours, 'enabled' | 'timezone'>;
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

/** The zones of a call's working hours: none for UTC, the named zone, or the candidate's own (`candidate`). */
export function hoursZonesOf(hours: WorkingHours | null | undefined, candidateZones: readonly string[] | undefined): string[] | undefined {
  const zone = hours?.timezone;
  if (zone === undefined || zone === 'UTC') return undefined;
  return zone === CANDIDATE_ZONES ? [...(candidateZones ?? ['UTC'])] : [zone];
}

/**
 * The moment working hours let a call dial, at or after `at`: in UTC without `zones` (or with only UTC), else
 * inside a shift in every zone. Unchanged when they do not apply, or when no moment comes within eight days.
 */
export function intoWorkingHours(at: number, hours: WorkingHours | undefined | null, zones?: readonly string[] | null): number {
  if (!workingHoursApply(hours)) return at;
  const utc = !zones || zones.length === 0 || (zones.length === 1 && zones[0] === 'UTC');
  return (utc ? nextWorkingTime(at, hours) : nextTimeInZones(at, hours, zones)) ?? at;
}

/**
 * When a call should first be dialled. `schedule_at` wins as given (a past instant means now); otherwise now,
 * moved into working hours when they apply.
 */
export function firstDialTime(
  now: number,
  scheduleAt: number | null | undefined,
  hours: WorkingHours | undefined | null,
  zones?: readonly string[] | null,
): number {
  if (scheduleAt !== null && scheduleAt !== undefined) return Math.max(now, scheduleAt);
  return intoWorkingHours(now, hours, zones);
}

/** The instant of `minute` (0–1440) on the local day of `day` in its zone; a time a spring change skips moves on past it. */
function atMinute(day: DateTime, minute: number): number {
  if (minute >= 1_440) return day.plus({ days: 1 }).startOf('day').toMillis();
  return day.set({ hour: Math.floor(minute / 60), minute: minute % 60, second: 0, millisecond: 0 }).toMillis();
}

/**
 * The earliest instant at or after `at` inside a shift of `hours` in one zone, looking eight local days ahead
 * (today, six more, and today's weekday again); null when there is none.
 */
function nextInZone(at: number, hours: WorkingHours, zone: string): number | null {
  const today = DateTime.fromMillis(at, { zone }).startOf('day');
  for (let offset = 0; offset <= 7; offset++) {
    const day = today.plus({ days: offset });
    const shifts = [...(hours[DAYS[day.weekday % 7]] ?? [])].sort((a, b) => a.start_minute - b.start_minute);
    for (const shift of shifts) {
      const start = atMinute(day, shift.start_minute);
      const end = atMinute(day, shift.end_minute);
      if (end <= at || end <= start) continue;
      return Math.max(start, at);
    }
  }
  return null;
}

/** How far ahead a moment inside every zone is looked for: a week and a day, as for one zone. */
const HORIZON_MS = 8 * 86_400_000;

/**
 * The earliest instant at or after `at` that lies inside a shift in every one of `zones` (a candidate whose
 * number spans several zones is called only when it is working time in all of them); null when no such moment
 * comes within eight days. Each step moves to the next working moment of a zone that is outside, so the first
 * moment every zone accepts is the answer.
 */
export function nextTimeInZones(at: number, hours: WorkingHours, zones: readonly string[]): number | null {
  const all = zones.length > 0 ? zones : ['UTC'];
  let t = at;
  for (let steps = 0; steps < 1_000 && t - at <= HORIZON_MS; steps++) {
    let moved = false;
    for (const zone of all) {
      const next = nextInZone(t, hours, zone);
      if (next === null) return null;
      if (next > t) {
        t = next;
        moved = true;
      }
    }
    if (!moved) return t;
  }
  return null;
}
