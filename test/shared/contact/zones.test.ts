import { callingWindowProblem, windowHours } from '../../../shared/contact/zones';
import { isTimeZone } from '../../../shared/contact/time-zone-names';
import { intoWorkingHours, nextTimeInZones } from '../../../shared/calls/working-hours';
import type { WorkingHours } from '../../../shared/calls/schema';

const NINE_TO_FIVE = { start_minute: 540, end_minute: 1_020 };
const WEEKDAYS: WorkingHours = {
  monday: [NINE_TO_FIVE],
  tuesday: [NINE_TO_FIVE],
  wednesday: [NINE_TO_FIVE],
  thursday: [NINE_TO_FIVE],
  friday: [NINE_TO_FIVE],
};
const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe('time zones: local shifts on fixed clocks', () => {
  it('knows IANA names, keeps their spelling, and refuses offsets, abbreviations and inventions', () => {
    for (const good of ['America/Chicago', 'UTC', 'America/Argentina/Buenos_Aires', 'Asia/Kolkata', 'Europe/Kyiv']) {
      expect(isTimeZone(good)).toBe(true);
    }
    for (const bad of ['Mars/Olympus_Mons', '+02:00', 'EST', 'GMT+2', '', 'America/', 'x'.repeat(80), 'Europe/Berlin ']) {
      expect(isTimeZone(bad)).toBe(false);
    }
  });

  it('calls 09:00–17:00 in Los Angeles at 09:00 Pacific, not at 09:00 UTC (01:00 there)', () => {
    // Tuesday 2026-12-01 08:00 UTC is Tuesday 00:00 in Los Angeles.
    expect(iso(nextTimeInZones(at('2026-12-01T08:00:00Z'), WEEKDAYS, ['America/Los_Angeles']))).toBe('2026-12-01T17:00:00.000Z');
    expect(iso(nextTimeInZones(at('2026-12-01T08:00:00Z'), WEEKDAYS, ['UTC']))).toBe('2026-12-01T09:00:00.000Z');
    // Inside the shift: the moment itself.
    expect(iso(nextTimeInZones(at('2026-12-01T18:30:00Z'), WEEKDAYS, ['America/Los_Angeles']))).toBe('2026-12-01T18:30:00.000Z');
  });

  it('keeps 09:00–17:00 in New York on both sides of 2027-03-14 and 2027-11-07', () => {
    const ny = ['America/New_York'];
    // Friday evening before spring forward: Monday 09:00 EDT is 13:00 UTC (it was 14:00 UTC the Friday before).
    expect(iso(nextTimeInZones(at('2027-03-12T09:00:00Z'), WEEKDAYS, ny))).toBe('2027-03-12T14:00:00.000Z');
    expect(iso(nextTimeInZones(at('2027-03-12T23:00:00Z'), WEEKDAYS, ny))).toBe('2027-03-15T13:00:00.000Z');
    // Fall back: Friday 09:00 EDT is 13:00 UTC, Monday 09:00 EST is 14:00 UTC.
    expect(iso(nextTimeInZones(at('2027-11-05T03:00:00Z'), WEEKDAYS, ny))).toBe('2027-11-05T13:00:00.000Z');
    expect(iso(nextTimeInZones(at('2027-11-05T23:00:00Z'), WEEKDAYS, ny))).toBe('2027-11-08T14:00:00.000Z');
  });

  it('keeps 09:00–17:00 in Berlin on both sides of 2027-03-28 and 2027-10-31', () => {
    const berlin = ['Europe/Berlin'];
    const everyDay = windowHours({ start: '09:00', end: '17:00' });
    expect(iso(nextTimeInZones(at('2027-03-27T17:00:00Z'), everyDay, berlin))).toBe('2027-03-28T07:00:00.000Z');
    expect(iso(nextTimeInZones(at('2027-03-27T06:00:00Z'), everyDay, berlin))).toBe('2027-03-27T08:00:00.000Z');
    expect(iso(nextTimeInZones(at('2027-10-30T17:00:00Z'), everyDay, berlin))).toBe('2027-10-31T08:00:00.000Z');
    expect(iso(nextTimeInZones(at('2027-10-30T06:00:00Z'), everyDay, berlin))).toBe('2027-10-30T07:00:00.000Z');
  });

  it('moves a shift that starts in the hour a spring change skips to the end of the gap', () => {
    const early = windowHours({ start: '02:30', end: '04:00' });
    // 2027-03-14 02:30 does not exist in New York: the clock goes from 02:00 EST to 03:00 EDT (07:00 UTC).
    expect(iso(nextTimeInZones(at('2027-03-14T06:00:00Z'), early, ['America/New_York']))).toBe('2027-03-14T07:30:00.000Z');
  });

  it('with several zones, takes only moments inside the shift in every one of them', () => {
    // New York and Chicago, 09:00–17:00: from 10:00 New York time, when Chicago reaches 09:00.
    const both = ['America/New_York', 'America/Chicago'];
    expect(iso(nextTimeInZones(at('2026-12-01T12:00:00Z'), WEEKDAYS, both))).toBe('2026-12-01T15:00:00.000Z');
    // Los Angeles and Berlin share no moment of 09:00–17:00.
    expect(nextTimeInZones(at('2026-12-01T12:00:00Z'), WEEKDAYS, ['America/Los_Angeles', 'Europe/Berlin'])).toBeNull();
    // With no moment shared, working hours leave the time as it is rather than never calling.
    expect(intoWorkingHours(at('2026-12-01T12:00:00Z'), WEEKDAYS, ['America/Los_Angeles', 'Europe/Berlin'])).toBe(
      at('2026-12-01T12:00:00Z'),
    );
  });

  it('refuses empty and inverted calling windows, and takes 24:00 as the end of the day', () => {
    expect(callingWindowProblem({ start: '08:00', end: '21:00' })).toBeNull();
    expect(callingWindowProblem({ start: '00:00', end: '24:00' })).toBeNull();
    expect(callingWindowProblem({ start: '09:00', end: '09:00' })).toMatch(/empty or inverted/);
    expect(callingWindowProblem({ start: '21:00', end: '08:00' })).toMatch(/empty or inverted/);
    expect(callingWindowProblem({ start: '8:00', end: '21:00' })).toMatch(/start/);
    expect(callingWindowProblem({ start: '08:00', end: '25:00' })).toMatch(/end/);
    expect(callingWindowProblem({ start: '24:00', end: '24:00' })).toMatch(/start/);
  });
});
