import { startStack, type Stack } from '../helpers/stack';
import { inviteBody, inviteCandidate } from '../helpers/invite';
import { hubSignature, inboundTextWebhook } from '../helpers/provider-wire';

const V1 = '/api/public/v1';
const APP_SECRET = 'lifting-app-secret';
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString();

/**
 * A suppression list that keeps its word, from the black box: the person's own entries cannot be taken out by
 * the workspace, an API entry taken out is lifted, a STOP is heard through its punctuation, and filings at the
 * same moment are all kept (on the embedded database too).
 */
describe('the suppression list keeps its word', () => {
  let stack: Stack;
  const req = (method: string, path: string, key: string, body?: unknown) => stack.request(method, `${V1}${path}`, { key, body });
  const list = async (key: string) => (await req('GET', '/suppressions', key)).body.data as Array<{ id: string; source: string }>;
  const person = (n: number) => ({ id: `l${n}`, name: `Lin ${n}`, email: `lin${n}@example.com`, phone: `+1415555${String(3000 + n)}` });
  async function initiate(key: string, job: string, candidates: unknown[]) {
    await req('POST', '/campaigns', key, { ats_job_id: job, name: job, company_name: 'Acme' });
    const res = await req('POST', '/call/initiate', key, { ats_job_id: job, candidates, instructions: 'Ask.', schedule_at: tomorrow() });
    expect(res.status).toBe(200);
    return res.body.data.calls as Array<{ id: string | null; status: string; message: string }>;
  }
  /** A WhatsApp text from the phone, as Meta's webhook sends it, signed. */
  const whatsApp = (phone: string, id: string, text: string) => {
    const raw = JSON.stringify(inboundTextWebhook(phone, id, text, 'Lin'));
    return stack.request('POST', `${V1}/providers/whatsapp/events`, { raw, headers: hubSignature(raw, APP_SECRET) });
  };

  beforeAll(async () => {
    stack = await startStack({ worker: true, env: { WHATSAPP_APP_SECRET: APP_SECRET } });
  });
  afterAll(() => stack?.stop());

  it("hears a STOP through punctuation and spaces, and refuses to take the person's own entry out (409)", async () => {
    const { key } = await stack.newWorkspace('Lifting STOP');
    const people = [person(1), person(2), person(3), person(4)];
    await initiate(key, 'job-stops', people);
    const replies = ['Stop.', 'STOP!', ' stop ', 'please do not stop'];
    for (const [n, text] of replies.entries()) expect((await whatsApp(people[n].phone, `wamid.lift-${n}`, text)).status).toBe(200);
    const entries = await list(key);
    expect(entries.map((e) => e.source)).toEqual(['whatsapp', 'whatsapp', 'whatsapp']);

    const refused = await req('DELETE', `/suppressions/${entries[0].id}`, key);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      success: false,
      code: 'CONFLICT',
      message: expect.stringMatching(/filed by the person .*only they can undo it/),
    });
    expect((await list(key)).map((e) => e.id)).toEqual(entries.map((e) => e.id));
    const again = await initiate(key, 'job-stops-again', [people[0]]);
    expect(again[0]).toMatchObject({ status: 'failed', message: expect.stringMatching(/opted out/) });
  }, 60_000);

  it.each([
    ['Mexico', '+525512345678', '5215512345678'],
    ['Argentina', '+541123456789', '5491123456789'],
  ])(
    "files a STOP from %s's WhatsApp form of the number under the candidate's stored one",
    async (_country, stored, waId) => {
      const { key } = await stack.newWorkspace('Lifting forms');
      const candidate = { ...person(7), phone: stored };
      await initiate(key, 'job-forms', [candidate]);
      expect((await whatsApp(`+${waId}`, `wamid.form-${waId}`, 'STOP')).status).toBe(200);
      expect(await list(key)).toEqual([expect.objectContaining({ phone: stored, source: 'whatsapp', channels: ['voice', 'whatsapp'] })]);
      const again = await initiate(key, 'job-forms-again', [candidate]);
      expect(again[0]).toMatchObject({ status: 'failed', message: expect.stringMatching(/opted out/) });
    },
    60_000,
  );

  it('lifts an API entry taken out, and keeps refusing what another entry still covers', async () => {
    const { key } = await stack.newWorkspace('Lifting API');
    const lin = person(5);
    const voiceOnly = (await req('POST', '/suppressions', key, { phone: lin.phone, channels: ['voice'] })).body.data;
    const everything = (await req('POST', '/suppressions', key, { phone: lin.phone })).body.data;
    expect((await req('DELETE', `/suppressions/${everything.id}`, key)).status).toBe(204);
    // Still refused for voice by the other entry.
    expect((await initiate(key, 'job-lift-1', [lin]))[0]).toMatchObject({ status: 'failed', message: expect.stringMatching(/opted out/) });
    expect((await req('DELETE', `/suppressions/${voiceOnly.id}`, key)).status).toBe(204);
    expect(await list(key)).toEqual([]);
    expect((await initiate(key, 'job-lift-2', [lin]))[0]).toMatchObject({ status: 'success' });
  }, 60_000);

  it('keeps every one of 20 entries filed on one phone and email at once', async () => {
    const { key } = await stack.newWorkspace('Lifting concurrent');
    const lin = person(6);
    // Only the 8th refuses voice and only the 14th email; the rest WhatsApp: losing either shows.
    const channels = (n: number) => (n === 7 ? ['voice'] : n === 13 ? ['email'] : ['whatsapp']);
    const filed = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        req('POST', '/suppressions', key, { phone: lin.phone, email: lin.email, channels: channels(n) }),
      ),
    );
    expect(filed.map((r) => r.status)).toEqual(filed.map(() => 201));
    // Listed by phone or by email, the list reads the entries filed under its key: all 20 are there.
    for (const query of [`phone=${encodeURIComponent(lin.phone)}`, `email=${encodeURIComponent(lin.email)}`]) {
      expect((await req('GET', `/suppressions?${query}&limit=100`, key)).body.data).toHaveLength(20);
    }
    expect((await initiate(key, 'job-many', [lin]))[0]).toMatchObject({ status: 'failed', message: expect.stringMatching(/opted out/) });
    const invite = await req(
      'POST',
      '/interview/invite',
      key,
      inviteBody([{ ...inviteCandidate(6), email: lin.email }], { ats_job_id: 'job-many-2' }),
    );
    expect(invite.body.data.interviews[0]).toMatchObject({ status: 'failed', message: expect.stringMatching(/opted out/) });
  }, 60_000);
});
