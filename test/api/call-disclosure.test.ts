import { startStack, type Stack } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { DEFAULT_CALL_DISCLOSURE } from '../../shared/contact/disclosure';

const V1 = '/api/public/v1';

/** What a call says first (docs/contact-rules.md): the workspace's disclosure, then the request's first_message. */
describe('the call disclosure on the real stack', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ worker: true, env: { SIMULATOR_CALL_SECONDS: '0' } });
  });
  afterAll(() => stack?.stop());

  /** The first words the simulator's candidate heard on a call of a new job. */
  async function firstWords(key: string, job: string): Promise<string> {
    await stack.request('POST', `${V1}/campaigns`, { key, body: { ats_job_id: job, name: job, company_name: 'Initech' } });
    const res = await stack.request('POST', `${V1}/call/initiate`, {
      key,
      body: {
        ats_job_id: job,
        candidates: [{ id: 'c1', name: 'Ada Lovelace', email: 'ada@example.com', phone: '+14155550142' }],
        first_message: 'Hi {{candidate_first_name}}, is now a good time?',
        instructions: 'Ask about availability.',
      },
    });
    const id = res.body.data.calls[0].id;
    const call = await waitFor(
      async () => (await stack.request('GET', `${V1}/calls/${id}`, { key })).body.data,
      (c) => c.status === 'completed',
      20_000,
    );
    return call.transcript[0].text;
  }

  it('says by default, before first_message, that an AI assistant is calling for the company and that the call is recorded', async () => {
    const { key } = await stack.newWorkspace('Disclosing');
    expect((await stack.request('GET', `${V1}/workspace`, { key })).body.data.settings.call_disclosure).toBe(DEFAULT_CALL_DISCLOSURE);
    expect(await firstWords(key, 'job-default')).toBe(
      'Hello, this is an automated AI assistant calling on behalf of Initech. This call is recorded. Hi Ada, is now a good time?',
    );
  }, 30_000);

  it("says the workspace's own wording once it is set, and nothing before first_message once it is turned off", async () => {
    const { key } = await stack.newWorkspace('Wording');
    const set = await stack.request('PATCH', `${V1}/workspace`, {
      key,
      body: { call_disclosure: 'You are speaking with an AI recruiter from {{company}}; we record this call.' },
    });
    expect(set.status).toBe(200);
    expect(await firstWords(key, 'job-own')).toBe(
      'You are speaking with an AI recruiter from Initech; we record this call. Hi Ada, is now a good time?',
    );
    expect((await stack.request('PATCH', `${V1}/workspace`, { key, body: { call_disclosure: null } })).status).toBe(200);
    expect(await firstWords(key, 'job-off')).toBe('Hi Ada, is now a good time?');
  }, 30_000);

  it.each([
    ['an empty text', ''],
    ['a blank text', '   '],
    ['a text too long', 'x'.repeat(501)],
  ])('refuses %s with a 400 naming call_disclosure, and keeps the default', async (_name, text) => {
    const { key } = await stack.newWorkspace('Refused');
    const res = await stack.request('PATCH', `${V1}/workspace`, { key, body: { call_disclosure: text } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'call_disclosure', message: expect.stringMatching(/1 to 500/) }]);
    expect((await stack.request('GET', `${V1}/workspace`, { key })).body.data.settings.call_disclosure).toBe(DEFAULT_CALL_DISCLOSURE);
  });
});
