import { firstDialTime, nextWorkingTime, workingHoursApply, hasAnyShift } from '../../../shared/calls/working-hours';
import type { WorkingHours } from '../../../shared/calls/schema';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
// 2026-11-23 is a Monday.
const weekdays: WorkingHours = {
  monday: [
    { start_minute: 540, end_minute: 720 },
    { start_minute: 780, end_minute: 1020 },
  ],
  tuesday: [{ start_minute: 540, end_minute: 1020 }],
  wednesday: [{ start_minute: 540, end_minute: 1020 }],
  thursday: [{ start_minute: 540, end_minute: 1020 }],
  friday: [{ start_minute: 540, end_minute: 1020 }],
};

describe('nextWorkingTime', () => {
  it.each([
    ['inside a shift is now', '2026-11-23T10:15:30.000Z', '2026-11-23T10:15:30.000Z'],
    ['at a shift start is now', '2026-11-23T09:00:00.000Z', '2026-11-23T09:00:00.000Z'],
    ['before the first shift → its start today', '2026-11-23T06:00:00.000Z', '2026-11-23T09:00:00.000Z'],
    ['between two shifts → the later shift today', '2026-11-23T12:30:00.000Z', '2026-11-23T13:00:00.000Z'],
    ['at the exclusive end → next shift', '2026-11-23T12:00:00.000Z', '2026-11-23T13:00:00.000Z'],
    ['after the last shift → tomorrow', '2026-11-23T17:00:00.000Z', '2026-11-24T09:00:00.000Z'],
    ['Friday evening → Monday', '2026-11-27T18:00:00.000Z', '2026-11-30T09:00:00.000Z'],
    ['Saturday → Monday', '2026-11-28T12:00:00.000Z', '2026-11-30T09:00:00.000Z'],
  ])('%s', (_name, now, expected) => expect(iso(nextWorkingTime(at(now), weekdays))).toBe(expected));

  it('finds the same weekday next week when the only shift is over today', () => {
    const mondays: WorkingHours = { monday: [{ start_minute: 540, end_minute: 600 }] };
    expect(iso(nextWorkingTime(at('2026-11-23T11:00:00Z'), mondays))).toBe('2026-11-30T09:00:00.000Z');
  });

  it('handles a shift that runs to midnight (end 1440) and unsorted shifts', () => {
    const late: WorkingHours = {
      sunday: [
        { start_minute: 1380, end_minute: 1440 },
        { start_minute: 0, end_minute: 60 },
      ],
    };
    expect(iso(nextWorkingTime(at('2026-11-22T23:59:00Z'), late))).toBe('2026-11-22T23:59:00.000Z');
    expect(iso(nextWorkingTime(at('2026-11-22T02:00:00Z'), late))).toBe('2026-11-22T23:00:00.000Z');
  });

  it('is null without any shift', () => {
    expect(nextWorkingTime(at('2026-11-23T10:00:00Z'), { monday: [] })).toBeNull();
    expect(hasAnyShift({ monday: [] })).toBe(false);
    expect(hasAnyShift(weekdays)).toBe(true);
  });
});

describe('firstDialTime', () => {
  const now = at('2026-11-23T18:00:00Z');
  it('uses schedule_at as given, ignoring working hours', () => {
    expect(iso(firstDialTime(now, at('2026-11-29T03:00:00Z'), weekdays))).toBe('2026-11-29T03:00:00.000Z');
  });
  it('treats a past schedule_at as now', () => expect(firstDialTime(now, at('2026-01-01T00:00:00Z'), weekdays)).toBe(now));
  it('moves now into the next shift', () => expect(iso(firstDialTime(now, null, weekdays))).toBe('2026-11-24T09:00:00.000Z'));
  it('ignores working hours when disabled or absent', () => {
    expect(firstDialTime(now, null, { ...weekdays, enabled: false })).toBe(now);
    expect(firstDialTime(now, undefined, undefined)).toBe(now);
    expect(workingHoursApply({ enabled: false })).toBe(false);
    expect(workingHoursApply({})).toBe(true);
  });
});
