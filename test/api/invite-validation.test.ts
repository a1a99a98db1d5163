import { startStack, type Stack } from '../helpers/stack';
import { inviteBody, inviteCandidate } from '../helpers/invite';

const INVITE = '/api/public/v1/interview/invite';
const valid = () => inviteBody([inviteCandidate(0)]) as Record<string, any>;
const fields = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`field_${i}`, i % 2 ? i : `v${i}`]));
const questions = (n: number) => Array.from({ length: n }, (_, i) => ({ question: `Question ${i}?` }));
const candidates = (n: number) => Array.from({ length: n }, (_, i) => inviteCandidate(i));

/** [name, mutate a valid body, expected errors (bracket path → message fragment)] */
const cases: Array<[string, (b: Record<string, any>) => void, Record<string, string>]> = [
  ['ats_job_id empty', (b) => (b.ats_job_id = ''), { ats_job_id: 'must not be empty' }],
  ['ats_job_id over 200', (b) => (b.ats_job_id = 'j'.repeat(201)), { ats_job_id: 'at most 200' }],
  ['job_title missing', (b) => delete b.job_title, { job_title: 'is required' }],
  ['job_title blank', (b) => (b.job_title = '   '), { job_title: 'must not be blank' }],
  ['job_title over 200', (b) => (b.job_title = 't'.repeat(201)), { job_title: 'at most 200' }],
  [
    'job_title with an https URL',
    (b) => (b.job_title = 'Engineer https://acme.io/jobs'),
    { job_title: 'must not contain hyperlinks (found a URL)' },
  ],
  ['job_description missing', (b) => delete b.job_description, { job_description: 'is required' }],
  ['job_description empty', (b) => (b.job_description = ''), { job_description: 'must not be empty' }],
  ['job_description not a string', (b) => (b.job_description = 42), { job_description: 'must be a string' }],
  ['job_description with an http URL', (b) => (b.job_description = 'Apply at http://acme.io now'), { job_description: 'found a URL' }],
  [
    'job_description with a www. address',
    (b) => (b.job_description = 'See www.acme.com for more'),
    { job_description: 'found a www. address' },
  ],
  [
    'job_description with a markdown link',
    (b) => (b.job_description = 'Read [our values](acme-values) first'),
    { job_description: 'found a markdown link' },
  ],
  [
    'job_description with an HTML link',
    (b) => (b.job_description = 'Read <a href="/values">our values</a>'),
    { job_description: 'found a HTML link' },
  ],
  ['min_experience negative', (b) => (b.min_experience = -1), { min_experience: 'at least 0' }],
  ['min_experience a string', (b) => (b.min_experience = '5'), { min_experience: 'must be a number' }],
  [
    'max_experience equal to min',
    (b) => (b.max_experience = b.min_experience),
    { max_experience: 'must be greater than min_experience (5)' },
  ],
  ['max_experience below min', (b) => (b.max_experience = 4), { max_experience: 'must be greater than min_experience' }],
  ['max_experience missing', (b) => delete b.max_experience, { max_experience: 'is required' }],
  [
    'seniority_level outside enum',
    (b) => (b.seniority_level = 'Junior'),
    { seniority_level: 'one of: Entry, Mid, Senior, Lead, Principal, Staff' },
  ],
  ['work_type outside enum', (b) => (b.work_type = 'Onsite'), { work_type: 'one of: Remote, On Site, Hybrid' }],
  [
    'employment_type outside enum',
    (b) => (b.employment_type = 'Internship'),
    { employment_type: 'one of: Full Time, Part Time, Contract, Freelance' },
  ],
  ['location missing', (b) => delete b.location, { location: 'is required' }],
  ['two required skills', (b) => (b.skills_required = ['Python', 'SQL']), { skills_required: 'at least 3 items' }],
  ['two good-to-have skills', (b) => (b.skills_good_to_have = ['dbt', 'Kafka']), { skills_good_to_have: 'at least 3 items' }],
  ['a blank skill', (b) => (b.skills_required = ['Python', ' ', 'SQL']), { 'skills_required[1]': 'must not be blank' }],
  ['an empty skill', (b) => (b.skills_good_to_have = ['dbt', 'Kafka', '']), { 'skills_good_to_have[2]': 'must not be empty' }],
  ['a repeated skill', (b) => (b.skills_required = ['Python', 'SQL', 'python ']), { 'skills_required[2]': 'repeats skills_required[0]' }],
  ['no candidates', (b) => (b.candidates = []), { candidates: 'at least 1 item' }],
  ['201 candidates', (b) => (b.candidates = candidates(201)), { candidates: 'at most 200 items' }],
  ['candidate id missing', (b) => delete b.candidates[0].id, { 'candidates[0].id': 'is required' }],
  ['candidate name of 2 characters', (b) => (b.candidates[0].name = 'Al'), { 'candidates[0].name': 'at least 3 characters' }],
  ['candidate name with digits', (b) => (b.candidates[0].name = 'R2 D2 Unit'), { 'candidates[0].name': 'only letters, dots and spaces' }],
  [
    'candidate name with an apostrophe',
    (b) => (b.candidates[0].name = "Shaquille O'Neal"),
    { 'candidates[0].name': 'only letters, dots and spaces' },
  ],
  ['candidate name of 3 spaces', (b) => (b.candidates[0].name = '   '), { 'candidates[0].name': 'only letters, dots and spaces' }],
  ['candidate email invalid', (b) => (b.candidates[0].email = 'grace@'), { 'candidates[0].email': 'valid email' }],
  ['candidate phone not E.164', (b) => (b.candidates[0].phone = '020 7946 0000'), { 'candidates[0].phone': 'E.164' }],
  ['51 custom_fields keys', (b) => (b.candidates[0].custom_fields = fields(51)), { 'candidates[0].custom_fields': 'at most 50 keys' }],
  [
    'custom field of wrong type',
    (b) => (b.candidates[0].custom_fields = { tags: ['a'] }),
    { 'candidates[0].custom_fields.tags': 'string, number or boolean' },
  ],
  [
    'custom field key with a space',
    (b) => (b.candidates[0].custom_fields = { 'first name': 'x' }),
    { 'candidates[0].custom_fields.first name': 'letters, digits, _ or -' },
  ],
  ['job_title with a line break', (b) => (b.job_title = 'Nurse\nApply now'), { job_title: 'one line of text' }],
  ['job_title with a bidi isolate', (b) => (b.job_title = 'Nurse \u2067x'), { job_title: 'one line of text' }],
  ['job_title with a tab', (b) => (b.job_title = 'Nurse\tNights'), { job_title: 'one line of text' }],
  [
    'candidate name with a line break',
    (b) => (b.candidates[0].name = 'Ada\nLovelace'),
    { 'candidates[0].name': 'only letters, dots and spaces' },
  ],
  ['questions empty', (b) => (b.questions = []), { questions: 'at least 1 item' }],
  ['expires_in_days 0', (b) => (b.expires_in_days = 0), { expires_in_days: 'must be at least 1' }],
  ['expires_in_days 61', (b) => (b.expires_in_days = 61), { expires_in_days: 'must be at most 60' }],
  ['expires_in_days 1.5', (b) => (b.expires_in_days = 1.5), { expires_in_days: 'must be an integer' }],
  ['expires_in_days a string', (b) => (b.expires_in_days = '14'), { expires_in_days: 'must be an integer' }],
  ['21 questions', (b) => (b.questions = questions(21)), { questions: 'at most 20 items' }],
  ['question empty', (b) => (b.questions = [{ question: '' }]), { 'questions[0].question': 'must not be empty' }],
  ['question over 1000 characters', (b) => (b.questions = [{ question: 'q'.repeat(1001) }]), { 'questions[0].question': 'at most 1000' }],
  [
    'question type outside enum',
    (b) => (b.questions = [{ question: 'Why?', type: 'image' }]),
    { 'questions[0].type': 'one of: text, video, audio' },
  ],
  [
    'time limit below 10 s',
    (b) => (b.questions = [{ question: 'Why?', time_limit_seconds: 9 }]),
    { 'questions[0].time_limit_seconds': 'at least 10' },
  ],
  [
    'time limit above 1800 s',
    (b) => (b.questions = [{ question: 'Why?', time_limit_seconds: 1801 }]),
    { 'questions[0].time_limit_seconds': 'at most 1800' },
  ],
  [
    'time limit not whole',
    (b) => (b.questions = [{ question: 'Why?', time_limit_seconds: 30.5 }]),
    { 'questions[0].time_limit_seconds': 'must be an integer' },
  ],
  ['unknown field', (b) => (b.company = 'Acme'), { company: 'not a recognised field' }],
  ['unknown candidate field', (b) => (b.candidates[0].linkedin = 'x'), { 'candidates[0].linkedin': 'not a recognised field' }],
];

describe('interview/invite validation', () => {
  let stack: Stack;
  let key: string;
  // The refused requests go to a workspace of their own, whose records the test counts.
  let refusing: { id: string; key: string };
  beforeAll(async () => {
    stack = await startStack();
    key = (await stack.newWorkspace()).key;
    refusing = await stack.newWorkspace('Refusing');
  });
  afterAll(() => stack?.stop());

  const invite = (body: unknown) => stack.request('POST', INVITE, { key, body });

  it.each(cases)('%s → 422 with the path in bracket style', async (_name, mutate, expected) => {
    const body = valid();
    mutate(body);
    const res = await stack.request('POST', INVITE, { key: refusing.key, body });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ success: false, message: expect.stringMatching(/^Validation error: /), errors: expect.any(Array) });
    for (const [path, fragment] of Object.entries(expected)) {
      expect(res.body.errors).toContainEqual({ path, message: expect.stringContaining(fragment) });
      expect(res.body.message).toContain(`${path}: `);
    }
    expect(await stack.db.projects.countDocuments({ workspace_id: refusing.id })).toBe(0);
    expect(await stack.db.interviews.countDocuments({ workspace_id: refusing.id })).toBe(0);
  });

  it('lists every violation of one request', async () => {
    const res = await invite({
      ats_job_id: 'j',
      min_experience: 3,
      max_experience: 2,
      candidates: [{ id: 'c', name: 'X', email: 'x', phone: '1' }],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(
      [
        'job_title',
        'job_description',
        'seniority_level',
        'work_type',
        'employment_type',
        'location',
        'skills_required',
        'skills_good_to_have',
        'candidates[0].name',
        'candidates[0].email',
        'candidates[0].phone',
        'max_experience',
      ].sort(),
    );
    expect(res.body.message).toBe(`Validation error: ${res.body.errors.map((e: any) => `${e.path}: ${e.message}`).join('; ')}`);
  });

  it('answers 400 for a body that is not JSON, and for a JSON value that is not an object', async () => {
    const bad = await stack.request('POST', INVITE, { key, raw: '{"ats_job_id": "j",' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ success: false, message: 'Invalid JSON in request body' });
    const list = await stack.request('POST', INVITE, { key, raw: '[1,2]' });
    expect(list.status).toBe(422);
    expect(list.body.errors).toEqual([{ path: '', message: 'Request body must be a JSON object' }]);
  });

  it('accepts every bound itself', async () => {
    const body = valid();
    body.candidates = candidates(200);
    body.candidates[0] = { id: 'edge', name: 'Al.', email: 'a@b.io', custom_fields: fields(50) };
    body.candidates[1] = { ...body.candidates[1], name: 'José Núñez' };
    body.candidates[2] = { ...body.candidates[2], name: '李小龙' };
    body.min_experience = 0;
    body.max_experience = 0.5;
    body.questions = questions(20);
    body.questions[0] = { question: 'q'.repeat(1000), type: 'text', time_limit_seconds: 10 };
    body.questions[1] = { question: 'Last one?', type: 'audio', time_limit_seconds: 1800 };
    body.expires_in_days = 60;
    body.job_title = 'Node.js Engineer for acme.com';
    body.job_description = 'Work on Node.js services; email jobs@acme.com with questions. Brackets [like this] are fine.';
    const res = await invite(body);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.interviews).toHaveLength(200);
    expect(res.body.data.interviews.slice(0, 3).map((r: any) => r.name)).toEqual(['Al.', 'José Núñez', '李小龙']);
    // The project is cleaned up so the other cases can assert that nothing was recorded.
    await stack.db.projects.deleteMany({});
    await stack.db.interviews.deleteMany({});
  });
});
