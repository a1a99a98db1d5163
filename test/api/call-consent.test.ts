import { startStack, type Stack } from '../helpers/stack';

const V1 = '/api/public/v1';
const CONSENT = { basis: 'prior_express_written', captured_at: '2026-11-20T16:41:09.000Z', source: 'Application form, consent box v3' };
const person = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Ada ${id}`,
  email: `${id}@consent.example`,
  phone: '+14155550177',
  ...extra,
});

/**
 * Consent to AI voice calls on record (docs/contact-rules.md): call/initiate's `consent` is kept with the call,
 * shown on GET /calls/{id}, refused when malformed, required where the workspace says so, and erased with the
 * person, on the real stack.
 */
describe('consent to AI voice calls', () => {
  let stack: Stack;
  beforeAll(async () => {
    // A worker, for the erasure's workflow.
    stack = await startStack({ worker: true });
  });
  afterAll(() => stack?.stop());

  async function campaign(key: string, job: string) {
    expect((await stack.request('POST', `${V1}/campaigns`, { key, body: { ats_job_id: job, name: job } })).status).toBe(201);
  }
  const initiate = (key: string, job: string, candidates: unknown[]) =>
    stack.request('POST', `${V1}/call/initiate`, {
      key,
      body: { ats_job_id: job, candidates, first_message: 'Hi {{candidate_first_name}}', instructions: 'Ask about availability.' },
    });
  const callsOf = async (key: string, job: string) =>
    (await stack.request('GET', `${V1}/calls?ats_job_id=${job}`, { key })).body.data as Array<{ candidate_id: string }>;

  it('keeps the consent with the call, shows it, and erases it with the person', async () => {
    const { key } = await stack.newWorkspace('Consentco');
    await campaign(key, 'consent-kept');
    const res = await initiate(key, 'consent-kept', [
      person('with', { consent: { ...CONSENT, source: '  Application form, consent box v3 ' } }),
      person('without', { phone: '+14155550178' }),
    ]);
    expect(res.body.data.calls.map((c: { status: string }) => c.status)).toEqual(['success', 'success']);
    const [withId, withoutId] = res.body.data.calls.map((c: { id: string }) => c.id);
    expect((await stack.request('GET', `${V1}/calls/${withId}`, { key })).body.data.consent).toEqual(CONSENT);
    expect((await stack.request('GET', `${V1}/calls/${withoutId}`, { key })).body.data.consent).toBeNull();

    const erased = await stack.request('POST', `${V1}/candidates/erase`, { key, body: { email: 'with@consent.example' } });
    expect(erased.body.data.calls).toBe(1);
    const after = (await stack.request('GET', `${V1}/calls/${withId}`, { key })).body.data;
    expect(after).toMatchObject({ consent: null, erased_at: expect.any(String) });
    expect(JSON.stringify(await stack.db.calls.findOne({ _id: withId }))).not.toContain('consent box v3');
  });

  it.each([
    ['an unknown basis', { ...CONSENT, basis: 'verbal' }, 'candidates.0.consent.basis'],
    ['no source', { basis: 'prior_express', captured_at: CONSENT.captured_at }, 'candidates.0.consent.source'],
    ['a blank source', { ...CONSENT, source: '   ' }, 'candidates.0.consent.source'],
    ['a source over 200 characters', { ...CONSENT, source: 'x'.repeat(201) }, 'candidates.0.consent.source'],
    ['a time that is no date-time', { ...CONSENT, captured_at: 'yesterday' }, 'candidates.0.consent.captured_at'],
    [
      'a time in the future',
      { ...CONSENT, captured_at: new Date(Date.now() + 86_400_000).toISOString() },
      'candidates.0.consent.captured_at',
    ],
    ['an unknown field', { ...CONSENT, ip: '192.0.2.1' }, 'candidates.0.consent.ip'],
    ['a string', 'yes', 'candidates.0.consent'],
  ])('refuses %s with 400 naming the field, and writes nothing', async (_, consent, field) => {
    const { key } = await stack.newWorkspace('Malformed');
    await campaign(key, 'consent-bad');
    const res = await initiate(key, 'consent-bad', [person('bad', { consent })]);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    expect(await callsOf(key, 'consent-bad')).toEqual([]);
  });

  it('fails a candidate without consent where the workspace requires it, and writes nothing for them', async () => {
    const { key } = await stack.newWorkspace('Requiring');
    expect((await stack.request('GET', `${V1}/workspace`, { key })).body.data.settings.voice_consent_required).toBe(false);
    const set = await stack.request('PATCH', `${V1}/workspace`, { key, body: { voice_consent_required: true } });
    expect(set.body.data.settings.voice_consent_required).toBe(true);
    expect((await stack.request('PATCH', `${V1}/workspace`, { key, body: { voice_consent_required: 'yes' } })).status).toBe(400);
    await campaign(key, 'consent-required');
    const res = await initiate(key, 'consent-required', [
      person('given', { consent: CONSENT }),
      person('missing', { phone: '+14155550179' }),
    ]);
    expect(res.status).toBe(200);
    expect(
      res.body.data.calls.map((c: { status: string; id: string | null; message: string }) => [c.status, c.id === null, c.message]),
    ).toEqual([
      ['success', false, 'Call scheduled'],
      ['failed', true, expect.stringContaining('consent to AI voice calls')],
    ]);
    expect((await callsOf(key, 'consent-required')).map((c) => c.candidate_id)).toEqual(['given']);
    expect(
      await stack.db.candidates.countDocuments({
        workspace_id: (await stack.request('GET', `${V1}/workspace`, { key })).body.data.workspace_id,
        candidate_id: 'missing',
      }),
    ).toBe(0);
  });
});
