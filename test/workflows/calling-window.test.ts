import { DateTime } from 'luxon';
import type { CallingWindow } from '../../shared/contact/zones';
import type { WorkingHours } from '../../shared/calls/schema';
import { DAYS } from '../../shared/calls/working-hours';
import { workspaceDoc } from '../helpers/interview-doc';
import { uniqueName } from '../helpers/stack';
import { callWorkflowBench, HOUR } from '../helpers/call-workflow-bench';
import { recordHistory } from '../helpers/histories';
import type { VoiceProvider } from '../../providers/voice/port';

const MINUTE = 60_000;
/** Within the time a workflow task, its local activities and the server's skipping take. */
const NEAR = 5_000;

/**
 * The workspace's calling window, decided inside the call workflow at the moment of each dial and message,
 * with the workflow's clock, in every one of the candidate's zones (docs/contact-rules.md).
 */
describe('call workflow: the calling window and local working hours (time-skipping server)', () => {
  const bench = callWorkflowBench();
  const { newCall, run } = bench;

  /** A workspace of the test's own, with this calling window. */
  async function workspaceWith(window: CallingWindow | null): Promise<string> {
    const id = uniqueName('ws');
    await bench.db.workspaces.insertOne({ ...workspaceDoc(id), settings: { calling_window: window } });
    return id;
  }
  /** The next `hour`:00 in `zone` after the server's now, at least a day ahead. */
  async function nextLocal(zone: string, hour: number): Promise<DateTime> {
    const now = DateTime.fromMillis(await bench.env.currentTimeMs(), { zone });
    return now.plus({ days: 1 }).set({ hour, minute: 0, second: 0, millisecond: 0 });
  }

  it('moves a schedule_at that falls at night in the candidate’s zone to the window’s opening, and says why', async () => {
    const workspaceId = await workspaceWith({ start: '08:00', end: '21:00' });
    const call = await newCall({ workspaceId, timezones: ['America/Los_Angeles'], preCall: true });
    const night = await nextLocal('America/Los_Angeles', 3);
    const opening = night.set({ hour: 8 }).toMillis();
    const { progress, stored, dials } = await run(call, { scheduleAt: night.toMillis() });
    expect(progress.status).toBe('completed');
    expect(dials).toHaveLength(1);
    expect(Math.abs(dials[0].at.getTime() - opening)).toBeLessThan(NEAR);
    // The pre-call message waited for the window too, and went out before the dial.
    expect(stored.messages[0].sent_at!.getTime()).toBeGreaterThanOrEqual(opening - NEAR);
    // `from`: the workflow's clock when the dial fell due, a timer's firing after schedule_at.
    expect(stored.deferrals).toEqual([{ from: expect.any(Date), to: new Date(opening), reason: 'calling_window' }]);
    const from = stored.deferrals![0].from.getTime();
    expect(from - night.toMillis()).toBeGreaterThanOrEqual(0);
    expect(from - night.toMillis()).toBeLessThan(NEAR);
    expect(stored.scheduled_for?.getTime()).toBe(night.toMillis());
    const scheduled = stored.events?.filter((e) => e.startsWith('call.scheduled/')) ?? [];
    expect(scheduled).toContain(`call.scheduled/deferred/${from}`);
    await recordHistory(bench.env.client, call.workflow_id, 'call-deferred-by-calling-window');
  });

  it('holds a night-time dial in Berlin until 08:00, and sends the fallback of its failed attempt at once, inside the window', async () => {
    const workspaceId = await workspaceWith({ start: '08:00', end: '21:00' });
    const call = await newCall({ workspaceId, timezones: ['Europe/Berlin'], outcomes: 'missed', fallback: true });
    const lateEvening = await nextLocal('Europe/Berlin', 22);
    const { progress, stored, dials } = await run(call, { scheduleAt: lateEvening.toMillis() });
    expect(progress.status).toBe('failed');
    // The dial itself was held until 08:00, and the fallback, due after it, went out in the window.
    const opening = lateEvening.plus({ days: 1 }).set({ hour: 8 }).toMillis();
    expect(Math.abs(dials[0].at.getTime() - opening)).toBeLessThan(NEAR);
    expect(stored.status).toBe('failed');
    expect(stored.messages).toHaveLength(1);
    expect(stored.messages[0]).toMatchObject({ kind: 'fallback', status: 'sent' });
    expect(stored.deferrals?.map((d) => d.reason)).toEqual(['calling_window']);
    await recordHistory(bench.env.client, call.workflow_id, 'call-dial-held-by-calling-window');
  });

  it('fails a call on time when its fallback falls outside the window, and sends the fallback when the window opens', async () => {
    const workspaceId = await workspaceWith({ start: '08:00', end: '21:00' });
    // Berlin and New York share 14:00–21:00 Berlin time (08:00–15:00 in New York), an hour more or less while
    // only one of them is on summer time.
    const call = await newCall({ workspaceId, timezones: ['Europe/Berlin', 'America/New_York'], fallback: true });
    // A provider that never reports: the attempt ends as no_outcome 45 minutes after the dial at 20:30.
    const silent: VoiceProvider = { name: 'silent', dial: async () => ({ accepted: true, providerCallId: 'quiet' }) };
    const dialAt = (await nextLocal('Europe/Berlin', 20)).set({ minute: 30 });
    const { progress, stored } = await run(call, { scheduleAt: dialAt.toMillis(), outcomeTimeoutMs: 45 * MINUTE }, silent);
    expect(progress.status).toBe('failed');
    expect(stored).toMatchObject({ status: 'failed', failure_reason: 'no_outcome' });
    expect(stored.attempts).toHaveLength(1);
    const failedAt = stored.attempts[0].ended_at!.getTime();
    expect(Math.abs(failedAt - dialAt.plus({ minutes: 45 }).toMillis())).toBeLessThan(NEAR);
    // Berlin closes at 21:00; the next moment open in both is 08:00 in New York the next day (14:00 in Berlin,
    // or 13:00 in the weeks one zone has changed its clocks and the other not).
    const nextOpening = dialAt.setZone('America/New_York').plus({ days: 1 }).set({ hour: 8, minute: 0 }).toMillis();
    expect(stored.deferrals).toEqual([{ from: expect.any(Date), to: new Date(nextOpening), reason: 'calling_window' }]);
    expect(Math.abs(stored.deferrals![0].from.getTime() - failedAt)).toBeLessThan(NEAR);
    expect(stored.messages).toHaveLength(1);
    expect(stored.messages[0]).toMatchObject({ kind: 'fallback', status: 'sent' });
    expect(Math.abs(stored.messages[0].sent_at!.getTime() - nextOpening)).toBeLessThan(NEAR);
    // The call's end was announced when it failed, before the message.
    const events = stored.events ?? [];
    expect(events.indexOf('call.failed/final')).toBeLessThan(events.indexOf('whatsapp.message.updated/fallback/sent'));
    await recordHistory(bench.env.client, call.workflow_id, 'call-failed-then-fallback-held-by-calling-window');
  });

  it('cancels a call whose zones share no moment of the window, without a dial', async () => {
    const workspaceId = await workspaceWith({ start: '09:00', end: '17:00' });
    const call = await newCall({ workspaceId, timezones: ['America/Los_Angeles', 'Europe/Berlin'] });
    const { progress, stored, dials } = await run(call);
    expect(progress.status).toBe('cancelled');
    expect(dials).toHaveLength(0);
    expect(stored).toMatchObject({ status: 'cancelled', cancel_reason: 'outside_calling_window' });
  });

  it('dials in working hours of the candidate’s own zone (`candidate`), keeping the local clock', async () => {
    const workspaceId = await workspaceWith(null);
    const call = await newCall({ workspaceId, timezones: ['America/Chicago'] });
    const now = DateTime.fromMillis(await bench.env.currentTimeMs(), { zone: 'America/Chicago' });
    const tomorrow = now.plus({ days: 1 });
    const hours: WorkingHours = { timezone: 'candidate', [DAYS[tomorrow.weekday % 7]]: [{ start_minute: 600, end_minute: 660 }] };
    const expected = tomorrow.set({ hour: 10, minute: 0, second: 0, millisecond: 0 }).toMillis();
    const { stored, dials } = await run({ ...call, call_settings: { working_hours: hours } });
    expect(stored.scheduled_for?.getTime()).toBe(expected);
    expect(Math.abs(dials[0].at.getTime() - expected)).toBeLessThan(NEAR);
  });

  it('dials at 08:00 New York time on the morning the clocks spring forward, an hour earlier in UTC than the day before', async () => {
    // The time-skipping server's clock only moves forward: the next spring change in New York after it.
    const ny = 'America/New_York';
    let day = DateTime.fromMillis(await bench.env.currentTimeMs(), { zone: ny })
      .startOf('day')
      .plus({ days: 1 });
    const noonOffset = (d: DateTime) => d.set({ hour: 12 }).offset;
    while (noonOffset(day.plus({ days: 1 })) <= noonOffset(day)) day = day.plus({ days: 1 });
    // `day` is the Saturday before the change: 23:30 EST, and the clocks go from 02:00 EST to 03:00 EDT that night.
    const workspaceId = await workspaceWith({ start: '08:00', end: '21:00' });
    const call = await newCall({ workspaceId, timezones: [ny] });
    const scheduleAt = day.set({ hour: 23, minute: 30 }).toMillis();
    const opening = day.plus({ days: 1 }).set({ hour: 8 }).toMillis();
    const { stored, dials } = await run(call, { scheduleAt });
    expect(Math.abs(dials[0].at.getTime() - opening)).toBeLessThan(NEAR);
    expect(stored.deferrals?.map((d) => d.to)).toEqual([new Date(opening)]);
    // Eight and a half hours of wall clock, seven and a half of time: 08:00 EDT is 12:00 UTC, not 13:00.
    expect(opening - scheduleAt).toBe(7 * HOUR + 30 * MINUTE);
    expect(new Date(opening).getUTCHours()).toBe(12);
    expect(new Date(day.set({ hour: 8 }).toMillis()).getUTCHours()).toBe(13);
  });
});
