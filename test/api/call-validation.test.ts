import { startStack, type Stack } from '../helpers/stack';

const valid = () => ({
  ats_job_id: 'job-v',
  candidates: [{ id: 'c1', name: 'Ada Lovelace', email: 'ada@example.com', phone: '+14155550100' }],
  instructions: 'Ask about availability',
});
type Body = ReturnType<typeof valid> & Record<string, any>;
const shift = (start_minute: number, end_minute: number) => ({ start_minute, end_minute });

/** [name, mutate the valid body, expected errors (field → message fragment)] */
const cases: Array<[string, (b: Body) => void, Record<string, string>]> = [
  ['ats_job_id empty', (b) => (b.ats_job_id = ''), { ats_job_id: 'must not be empty' }],
  ['ats_job_id over 200', (b) => (b.ats_job_id = 'x'.repeat(201)), { ats_job_id: 'at most 200' }],
  ['ats_job_id missing', (b) => delete (b as any).ats_job_id, { ats_job_id: 'is required' }],
  ['no candidates', (b) => (b.candidates = []), { candidates: 'at least 1 item' }],
  [
    '51 candidates',
    (b) => (b.candidates = Array.from({ length: 51 }, (_, i) => ({ ...valid().candidates[0], id: `c${i}` }))),
    { candidates: 'at most 50' },
  ],
  ['candidate id empty', (b) => (b.candidates[0].id = ''), { 'candidates.0.id': 'must not be empty' }],
  ['candidate name empty', (b) => (b.candidates[0].name = ''), { 'candidates.0.name': 'must not be empty' }],
  ['candidate email invalid', (b) => (b.candidates[0].email = 'ada@'), { 'candidates.0.email': 'valid email' }],
  ['candidate phone not E.164', (b) => (b.candidates[0].phone = '0415 555 0100'), { 'candidates.0.phone': 'E.164' }],
  [
    'custom field of wrong type',
    (b) => ((b.candidates[0] as any).custom_fields = { tags: ['a'] }),
    { 'candidates.0.custom_fields.tags': 'string, number or boolean' },
  ],
  [
    'custom field key with a space',
    (b) => ((b.candidates[0] as any).custom_fields = { 'first name': 'Ada' }),
    { 'candidates.0.custom_fields.first name': 'letters, digits, _ or -' },
  ],
  [
    'custom field key over 100 characters',
    (b) => ((b.candidates[0] as any).custom_fields = { ['k'.repeat(101)]: 1 }),
    { [`candidates.0.custom_fields.${'k'.repeat(101)}`]: 'letters, digits, _ or -' },
  ],
  ['candidate name with a line break', (b) => (b.candidates[0].name = 'Ada\r\nBcc: x'), { 'candidates.0.name': 'one line of text' }],
  ['candidate name with a bidi override', (b) => (b.candidates[0].name = 'Ada \u202Egnp.exe'), { 'candidates.0.name': 'one line of text' }],
  ['candidate name with a NUL', (b) => (b.candidates[0].name = 'Ada\u0000'), { 'candidates.0.name': 'one line of text' }],
  ['candidate name blank', (b) => (b.candidates[0].name = '   '), { 'candidates.0.name': 'a name of at least 1 character' }],
  ['first_message empty', (b) => (b.first_message = ''), { first_message: 'must not be empty' }],
  ['instructions missing', (b) => delete (b as any).instructions, { instructions: 'is required' }],
  ['unknown template variable', (b) => (b.instructions = 'Hi {{candidate_nickname}}'), { instructions: '{{candidate_nickname}}' }],
  ['unknown top-level field', (b) => (b.callback_url = 'x'), { callback_url: 'not a recognised field' }],
  ['gender outside enum', (b) => (b.assistant_settings = { gender: 'Other' }), { 'assistant_settings.gender': 'one of: Male, Female' }],
  [
    'language without provider',
    (b) => (b.assistant_settings = { language: { code: 'en' } }),
    { 'assistant_settings.language.provider': 'is required' },
  ],
  [
    'llm incomplete',
    (b) => (b.assistant_settings = { llm: { provider: 'openai' } }),
    { 'assistant_settings.llm.model': 'is required', 'assistant_settings.llm.temperature': 'is required' },
  ],
  [
    'tts without voice id',
    (b) => (b.assistant_settings = { tts: { provider: 'p', model: 'm', name: 'n', gender: 'g', language: 'en' } }),
    { 'assistant_settings.tts.id': 'is required' },
  ],
  [
    'effect outside enum',
    (b) => (b.assistant_settings = { effect: { name: 'Cafe' } }),
    { 'assistant_settings.effect.name': 'Keyboard, Office, none' },
  ],
  [
    'endpointing delays reversed',
    (b) => (b.assistant_settings = { min_endpointing_delay: 2, max_endpointing_delay: 1 }),
    { 'assistant_settings.max_endpointing_delay': 'min_endpointing_delay' },
  ],
  [
    'extract type outside enum',
    (b) => (b.extract_variables = [{ label: 'a', type: 'text', description: 'd' }]),
    { 'extract_variables.0.type': 'one of: string, single_select' },
  ],
  [
    'single_select without choices',
    (b) => (b.extract_variables = [{ label: 'a', type: 'single_select', description: 'd' }]),
    { 'extract_variables.0.choices': 'at least one choice' },
  ],
  [
    'single_select with empty choices',
    (b) => (b.extract_variables = [{ label: 'a', type: 'single_select', description: 'd', choices: [] }]),
    { 'extract_variables.0.choices': 'at least one choice' },
  ],
  [
    'retry condition outside enum',
    (b) => (b.call_settings = { retry_policy: { conditions: ['busy'] } }),
    { 'call_settings.retry_policy.conditions.0': 'one of: missed' },
  ],
  [
    'delay without unit',
    (b) => (b.call_settings = { retry_policy: { conditions: ['missed'], intervals: [{ type: 'delay', duration: 5 }] } }),
    { 'call_settings.retry_policy.intervals.0.unit': 'required when type is delay' },
  ],
  [
    'delay of zero',
    (b) => (b.call_settings = { retry_policy: { conditions: ['missed'], intervals: [{ type: 'delay', duration: 0, unit: 'hours' }] } }),
    { 'call_settings.retry_policy.intervals.0.duration': 'greater than 0' },
  ],
  [
    'specific_datetime without datetime',
    (b) => (b.call_settings = { retry_policy: { conditions: ['missed'], intervals: [{ type: 'specific_datetime' }] } }),
    { 'call_settings.retry_policy.intervals.0.datetime': 'required when type is specific_datetime' },
  ],
  [
    'specific_datetime not ISO',
    (b) =>
      (b.call_settings = { retry_policy: { conditions: ['missed'], intervals: [{ type: 'specific_datetime', datetime: 'tomorrow' }] } }),
    { 'call_settings.retry_policy.intervals.0.datetime': 'ISO 8601' },
  ],
  [
    'start_minute below 0',
    (b) => (b.call_settings = { working_hours: { monday: [shift(-1, 60)] } }),
    { 'call_settings.working_hours.monday.0.start_minute': 'at least 0' },
  ],
  [
    'start_minute above 1439',
    (b) => (b.call_settings = { working_hours: { monday: [shift(1440, 1440)] } }),
    { 'call_settings.working_hours.monday.0.start_minute': 'at most 1439' },
  ],
  [
    'end_minute below 1',
    (b) => (b.call_settings = { working_hours: { monday: [shift(0, 0)] } }),
    { 'call_settings.working_hours.monday.0.end_minute': 'at least 1' },
  ],
  [
    'end_minute above 1440',
    (b) => (b.call_settings = { working_hours: { monday: [shift(0, 1441)] } }),
    { 'call_settings.working_hours.monday.0.end_minute': 'at most 1440' },
  ],
  [
    'start not before end',
    (b) => (b.call_settings = { working_hours: { friday: [shift(600, 600)] } }),
    { 'call_settings.working_hours.friday.0.end_minute': 'greater than start_minute' },
  ],
  [
    'working hours without any shift',
    (b) => (b.call_settings = { working_hours: { monday: [] } }),
    { 'call_settings.working_hours': 'at least one shift' },
  ],
  [
    'whatsapp template name empty',
    (b) => (b.call_settings = { whatsapp_notifications: { pre_call: { template_name: '' } } }),
    { 'call_settings.whatsapp_notifications.pre_call.template_name': 'must not be empty' },
  ],
  [
    'whatsapp variable not a string',
    (b) => (b.call_settings = { whatsapp_notifications: { fallback: { template_name: 't', template_variables: { body_1: 5 } } } }),
    { 'call_settings.whatsapp_notifications.fallback.template_variables.body_1': 'must be a string' },
  ],
  ['schedule_at not a date-time', (b) => (b.schedule_at = '2026-13-45'), { schedule_at: 'ISO 8601' }],
];

describe('call/initiate validation', () => {
  let stack: Stack;
  let key: string;
  // The refused requests go to a workspace of their own, whose calls the test counts.
  let refusing: { id: string; key: string };
  beforeAll(async () => {
    stack = await startStack();
    key = (await stack.newWorkspace()).key;
    refusing = await stack.newWorkspace('Refusing');
    for (const k of [key, refusing.key])
      await stack.request('POST', '/api/public/v1/campaigns', { key: k, body: { ats_job_id: 'job-v', name: 'V' } });
  });
  afterAll(() => stack?.stop());

  it.each(cases)('%s → 400 listing the field', async (_name, mutate, expected) => {
    const body = valid() as Body;
    mutate(body);
    const res = await stack.request('POST', '/api/public/v1/call/initiate', { key: refusing.key, body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR', message: 'Request validation failed' });
    for (const [field, fragment] of Object.entries(expected)) {
      expect(res.body.errors).toContainEqual({ field, message: expect.stringContaining(fragment) });
    }
    expect(await stack.db.calls.countDocuments({ workspace_id: refusing.id })).toBe(0);
  });

  it('lists every violation of one request', async () => {
    const res = await stack.request('POST', '/api/public/v1/call/initiate', {
      key,
      body: { ats_job_id: '', candidates: [{ id: '', name: '', email: 'x', phone: '1' }] },
    });
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(
      ['ats_job_id', 'candidates.0.email', 'candidates.0.id', 'candidates.0.name', 'candidates.0.phone', 'instructions'].sort(),
    );
  });

  it('refuses a campaign whose name, job title or company is not one line, and stores nothing', async () => {
    for (const [field, value] of [
      ['name', 'Nurses\r\nX-Injected: 1'],
      ['job_title', 'Nurse \u202Enruter'],
      ['company_name', 'Acme\u0007'],
    ]) {
      const body = { ats_job_id: `job-line-${field}`, name: 'Nurses', [field]: value };
      const res = await stack.request('POST', '/api/public/v1/campaigns', { key: refusing.key, body });
      expect({ field, status: res.status, errors: res.body.errors }).toEqual({
        field,
        status: 400,
        errors: [{ field, message: expect.stringContaining('one line of text') }],
      });
    }
    expect(await stack.db.projects.countDocuments({ workspace_id: refusing.id })).toBe(1); // job-v, from beforeAll
  });

  it('accepts the bounds themselves', async () => {
    const body: Body = {
      ...valid(),
      ats_job_id: 'job-v',
      call_settings: {
        working_hours: { enabled: false, monday: [] },
        retry_policy: { conditions: ['missed'], intervals: [{ type: 'specific_datetime', datetime: '2030-01-01T09:00:00+02:00' }] },
      },
      extract_variables: [{ label: 'a', type: 'single_select', description: 'd', choices: ['x'] }],
    };
    body.candidates[0].name = 'A';
    (body.candidates[0] as any).custom_fields = { ['k'.repeat(100)]: 1, 'first_name-2': 'Zoë', ATS_ID: true };
    const edge = { ...body, call_settings: { working_hours: { sunday: [shift(0, 1440)], monday: [shift(1439, 1440)] } } };
    const [a, b] = [
      await stack.request('POST', '/api/public/v1/call/initiate', { key, body }),
      await stack.request('POST', '/api/public/v1/call/initiate', {
        key,
        body: { ...edge, candidates: [{ ...body.candidates[0], id: 'c2' }] },
      }),
    ];
    expect([a.status, b.status]).toEqual([200, 200]);
  });
});
