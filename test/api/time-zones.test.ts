import { startStack, type Stack } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { inviteBody, inviteCandidate } from '../helpers/invite';

const V1 = '/api/public/v1';
const FAR = new Date(Date.now() + 30 * 86_400_000).toISOString();
const callBody = (job: string, candidates: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}) => ({
  ats_job_id: job,
  candidates: candidates.map((c, i) => ({ id: `tz-${i}`, name: `Ada ${i}`, email: `tz${i}@example.com`, phone: '+14155550100', ...c })),
  instructions: 'Ask about availability.',
  schedule_at: FAR,
  ...extra,
});

/** Time zones and the calling window from the black box: the workspace's settings, and each call's zones. */
describe('time zones and the calling window on the real stack', () => {
  let stack: Stack;
  let key: string;
  const get = (path: string, k = key) => stack.request('GET', `${V1}${path}`, { key: k });
  const patch = (body: unknown, k = key) => stack.request('PATCH', `${V1}/workspace`, { key: k, body });
  const initiate = async (job: string, candidates: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}) => {
    await stack.request('POST', `${V1}/campaigns`, { key, body: { ats_job_id: job, name: job } });
    return stack.request('POST', `${V1}/call/initiate`, { key, body: callBody(job, candidates, extra) });
  };

  beforeAll(async () => {
    stack = await startStack({ worker: true });
    key = (await stack.newWorkspace('Zoned')).key;
  });
  afterAll(() => stack?.stop());

  it('sets the default zone and the calling window with PATCH /workspace, shows them on GET, and turns the window off with null', async () => {
    const { key: own } = await stack.newWorkspace('Settings');
    expect((await get('/workspace', own)).body.data.settings).toMatchObject({ default_timezone: 'UTC', calling_window: null });
    const set = await patch({ default_timezone: 'Europe/Berlin', calling_window: { start: '08:00', end: '21:00' } }, own);
    expect(set.status).toBe(200);
    expect(set.body.data.settings).toMatchObject({ default_timezone: 'Europe/Berlin', calling_window: { start: '08:00', end: '21:00' } });
    expect((await get('/workspace', own)).body.data.settings).toEqual(set.body.data.settings);
    // A field left out stays as it was.
    const off = await patch({ calling_window: null }, own);
    expect(off.body.data.settings).toMatchObject({ default_timezone: 'Europe/Berlin', calling_window: null });
    expect((await get('/workspace', own)).body.data.settings).toMatchObject({ default_timezone: 'Europe/Berlin', calling_window: null });
  });

  it.each([
    ['an inverted window', { calling_window: { start: '21:00', end: '08:00' } }, 'calling_window', /empty or inverted/],
    ['an empty window', { calling_window: { start: '09:00', end: '09:00' } }, 'calling_window', /empty or inverted/],
    ['a time that is not HH:MM', { calling_window: { start: '8am', end: '21:00' } }, 'calling_window', /HH:MM/],
    ['an unknown zone', { default_timezone: 'Mars/Olympus_Mons' }, 'default_timezone', /IANA/],
    ['an offset for a zone', { default_timezone: '+02:00' }, 'default_timezone', /IANA/],
    ['nothing to set', {}, '', /at least one/],
    ['an unknown setting', { max_concurrent_calls: 100 }, 'max_concurrent_calls', /not a recognised field/],
  ])('refuses %s with a 400 naming the field, and changes nothing', async (_name, body, field, message) => {
    const { key: own } = await stack.newWorkspace('Refused');
    const res = await patch(body, own);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, errors: [{ field, message: expect.stringMatching(message) }] });
    expect((await get('/workspace', own)).body.data.settings).toMatchObject({ default_timezone: 'UTC', calling_window: null });
  });

  it('refuses an unknown candidate zone or working-hours zone with a 400 naming the field, and makes no call', async () => {
    const res = await initiate('tz-bad', [{ timezone: 'America/Springfield' }], {
      call_settings: { working_hours: { timezone: 'Local', monday: [{ start_minute: 540, end_minute: 1020 }] } },
    });
    expect(res.status).toBe(400);
    const fields = Object.fromEntries(res.body.errors.map((e: any) => [e.field, e.message]));
    // The call family's path style (candidates.0.name in the contract); the interview family's is candidates[0].phone.
    expect(fields['candidates.0.timezone']).toMatch(/IANA time zone/);
    expect(fields['call_settings.working_hours.timezone']).toMatch(/candidate/);
    expect((await get('/calls?ats_job_id=tz-bad')).body.data).toEqual([]);
    const invite = await stack.request('POST', `${V1}/interview/invite`, {
      key,
      body: inviteBody([inviteCandidate(1, { timezone: 'EST' })], { ats_job_id: 'tz-invite' }),
    });
    expect(invite.status).toBe(422);
    expect(invite.body.errors).toEqual([{ path: 'candidates[0].timezone', message: expect.stringMatching(/IANA time zone/) }]);
  });

  it("gives each call the candidate's zones: the request's, else the phone region's, else the workspace default", async () => {
    const { key: own } = await stack.newWorkspace('Defaults');
    await patch({ default_timezone: 'Asia/Tokyo' }, own);
    await stack.request('POST', `${V1}/campaigns`, { key: own, body: { ats_job_id: 'tz-zones', name: 'Zones' } });
    const res = await stack.request('POST', `${V1}/call/initiate`, {
      key: own,
      body: callBody('tz-zones', [
        { timezone: 'America/Argentina/Buenos_Aires' },
        { phone: '+13105550100' },
        { phone: '+4930901820' },
        { phone: '+447700900123' },
        // +888 is a network code with no region, so no zone: the workspace's default.
        { phone: '+88812345678' },
      ]),
    });
    expect(res.status).toBe(200);
    const ids = res.body.data.calls.map((c: any) => c.id);
    const zones = await Promise.all(ids.map(async (id: string) => (await get(`/calls/${id}`, own)).body.data.timezones));
    expect(zones).toEqual([
      ['America/Argentina/Buenos_Aires'],
      ['America/Los_Angeles'],
      ['Europe/Berlin'],
      ['Europe/Guernsey', 'Europe/Isle_of_Man', 'Europe/London'],
      ['Asia/Tokyo'],
    ]);
    // The list items carry them too, and no deferral yet.
    const listed = (await get('/calls?ats_job_id=tz-zones&limit=100', own)).body.data;
    expect(Object.fromEntries(listed.map((c: any) => [c.id, c.timezones]))[ids[1]]).toEqual(['America/Los_Angeles']);
    expect(listed.every((c: any) => Array.isArray(c.deferrals) && c.deferrals.length === 0 && c.cancel_reason === null)).toBe(true);
  });

  it('holds a call due now until the window opens in its zone, and says so on GET', async () => {
    const { key: own } = await stack.newWorkspace('Held');
    // A window that is closed now in the candidate's zone: the hour after the current one, there.
    const zone = 'Pacific/Kiritimati';
    const hour = Number(new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).format(new Date()));
    const start = `${String((hour + 1) % 24).padStart(2, '0')}:00`;
    const end = `${String(((hour + 1) % 24) + 1).padStart(2, '0')}:00`;
    expect((await patch({ calling_window: { start, end } }, own)).status).toBe(200);
    await stack.request('POST', `${V1}/campaigns`, { key: own, body: { ats_job_id: 'tz-held', name: 'Held' } });
    const res = await stack.request('POST', `${V1}/call/initiate`, {
      key: own,
      body: callBody('tz-held', [{ timezone: zone }], { schedule_at: undefined }),
    });
    const id = res.body.data.calls[0].id;
    const held = await waitFor(
      async () => (await get(`/calls/${id}`, own)).body.data,
      (c) => c.deferrals.length > 0,
      20_000,
    );
    expect(held.status).toBe('scheduled');
    expect(held.attempts).toEqual([]);
    expect(held.deferrals[0].reason).toBe('calling_window');
    const opensAt = Date.parse(held.deferrals[0].to);
    expect(opensAt).toBeGreaterThan(Date.now());
    expect(opensAt - Date.now()).toBeLessThanOrEqual(3_600_000);
    expect(new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(opensAt)).toBe(
      start === '24:00' ? '00:00' : start,
    );
    expect(held.next_attempt_at).toBe(held.deferrals[0].to);
    await stack.request('POST', `${V1}/calls/${id}/cancel`, { key: own });
  });
});
