import { nextRetryTime, DEFAULT_INTERVALS } from '../../../shared/calls/retry';
import type { RetryPolicy } from '../../../shared/calls/schema';

const failedAt = Date.parse('2026-11-23T10:00:00Z');
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe('nextRetryTime', () => {
  const policy: RetryPolicy = {
    conditions: ['missed', 'declined'],
    intervals: [
      { type: 'delay', duration: 30, unit: 'minutes' },
      { type: 'specific_datetime', datetime: '2026-11-25T08:00:00Z' },
      { type: 'delay', duration: 2, unit: 'days' },
    ],
  };

  it('uses intervals[n] for the (n+1)th retry', () => {
    expect(iso(nextRetryTime({ policy, failedAttempt: 1, reason: 'missed', failedAt }))).toBe('2026-11-23T10:30:00.000Z');
    expect(iso(nextRetryTime({ policy, failedAttempt: 2, reason: 'declined', failedAt }))).toBe('2026-11-25T08:00:00.000Z');
    expect(iso(nextRetryTime({ policy, failedAttempt: 3, reason: 'missed', failedAt }))).toBe('2026-11-25T10:00:00.000Z');
  });

  it('stops when the intervals are used up', () => {
    expect(nextRetryTime({ policy, failedAttempt: 4, reason: 'missed', failedAt })).toBeNull();
  });

  it('does not retry reasons outside the conditions, or without a policy', () => {
    expect(nextRetryTime({ policy, failedAttempt: 1, reason: 'silenced', failedAt })).toBeNull();
    expect(nextRetryTime({ policy, failedAttempt: 1, reason: 'provider_error', failedAt })).toBeNull();
    expect(nextRetryTime({ policy: undefined, failedAttempt: 1, reason: 'missed', failedAt })).toBeNull();
  });

  it('defaults to two retries an hour apart', () => {
    const p: RetryPolicy = { conditions: ['sent_to_voicemail'] };
    expect(DEFAULT_INTERVALS).toHaveLength(2);
    expect(iso(nextRetryTime({ policy: p, failedAttempt: 1, reason: 'sent_to_voicemail', failedAt }))).toBe('2026-11-23T11:00:00.000Z');
    expect(iso(nextRetryTime({ policy: p, failedAttempt: 2, reason: 'sent_to_voicemail', failedAt }))).toBe('2026-11-23T11:00:00.000Z');
    expect(nextRetryTime({ policy: p, failedAttempt: 3, reason: 'sent_to_voicemail', failedAt })).toBeNull();
  });

  it('moves a delay into working hours but uses a specific datetime as given', () => {
    const hours = { monday: [{ start_minute: 540, end_minute: 660 }], tuesday: [{ start_minute: 540, end_minute: 660 }] };
    const late = Date.parse('2026-11-23T10:45:00Z');
    expect(iso(nextRetryTime({ policy, failedAttempt: 1, reason: 'missed', failedAt: late, workingHours: hours }))).toBe(
      '2026-11-24T09:00:00.000Z',
    );
    expect(iso(nextRetryTime({ policy, failedAttempt: 2, reason: 'missed', failedAt: late, workingHours: hours }))).toBe(
      '2026-11-25T08:00:00.000Z',
    );
    expect(
      iso(nextRetryTime({ policy, failedAttempt: 1, reason: 'missed', failedAt: late, workingHours: { ...hours, enabled: false } })),
    ).toBe('2026-11-23T11:15:00.000Z');
  });

  it('treats a past specific datetime as now', () => {
    const p: RetryPolicy = { conditions: ['missed'], intervals: [{ type: 'specific_datetime', datetime: '2020-01-01T00:00:00Z' }] };
    expect(nextRetryTime({ policy: p, failedAttempt: 1, reason: 'missed', failedAt })).toBe(failedAt);
  });
});
