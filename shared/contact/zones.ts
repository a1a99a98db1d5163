import { DAYS } from '../calls/working-hours';
import type { WorkingHours } from '../calls/schema';

/** The workspace's calling window (its arithmetic is working hours': working-hours.ts). */

/** A workspace's calling window: every day, from `start` to `end` ("HH:MM", local), in the candidate's zones. */
export interface CallingWindow {
  start: string;
  end: string;
}

const CLOCK = /^([01]\d|2[0-3]):([0-5]\d)$|^24:00$/;

/** Minutes since local midnight of "HH:MM" (24:00 is the day's end), or null when it is not such a time. */
export function clockMinute(text: string): number | null {
  const m = CLOCK.exec(text);
  if (!m) return null;
  return text === '24:00' ? 1_440 : Number(m[1]) * 60 + Number(m[2]);
}

/** Why a window cannot be used, or null: each end an HH:MM time, and the start before the end. */
export function callingWindowProblem(window: CallingWindow): string | null {
  const start = clockMinute(window.start);
  const end = clockMinute(window.end);
  if (start === null || start === 1_440) return 'start must be a local time from 00:00 to 23:59 (HH:MM)';
  if (end === null) return 'end must be a local time from 00:01 to 24:00 (HH:MM)';
  if (start >= end) return `is empty or inverted: start ${window.start} must come before end ${window.end} on the same day`;
  return null;
}

/** The window as working hours: the same shift on every day of the week. */
export function windowHours(window: CallingWindow): WorkingHours {
  const shift = [{ start_minute: clockMinute(window.start)!, end_minute: clockMinute(window.end)! }];
  return Object.fromEntries(DAYS.map((d) => [d, shift])) as WorkingHours;
}
