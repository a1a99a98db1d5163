import { startStack, type Stack } from '../helpers/stack';
import { waitFor } from '../helpers/wait';

const V1 = '/api/public/v1';
const DAY = 86_400_000;

/**
 * The workspace's cap of dials to one phone in 24 hours (docs/contact-rules.md), on the real stack: across its
 * calls, a dial over the cap is held until the oldest dial is a day old, with a `daily_dial_cap` deferral.
 */
describe('max_dials_per_phone_per_day', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ worker: true, env: { SIMULATOR_CALL_SECONDS: '0' } });
  });
  afterAll(() => stack?.stop());

  async function callsTo(key: string, job: string, phone: string, n: number): Promise<string[]> {
    expect((await stack.request('POST', `${V1}/campaigns`, { key, body: { ats_job_id: job, name: job } })).status).toBe(201);
    const res = await stack.request('POST', `${V1}/call/initiate`, {
      key,
      body: {
        ats_job_id: job,
        candidates: Array.from({ length: n }, (_, i) => ({ id: `c${i}`, name: `Ada ${i}`, email: `ada${i}@cap.example`, phone })),
        first_message: 'Hi {{candidate_first_name}}',
        instructions: 'Ask about availability.',
      },
    });
    expect(res.status).toBe(200);
    return res.body.data.calls.map((c: { id: string }) => c.id);
  }
  const view = async (key: string, id: string) => (await stack.request('GET', `${V1}/calls/${id}`, { key })).body.data;

  it('dials a phone at most the cap in a day across calls, holds the others a day with daily_dial_cap, and leaves other phones alone', async () => {
    const { key } = await stack.newWorkspace('Capco');
    expect((await stack.request('GET', `${V1}/workspace`, { key })).body.data.settings.max_dials_per_phone_per_day).toBeNull();
    for (const bad of [0, 21, 2.5, '3']) {
      const res = await stack.request('PATCH', `${V1}/workspace`, { key, body: { max_dials_per_phone_per_day: bad } });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].field).toBe('max_dials_per_phone_per_day');
    }
    const set = await stack.request('PATCH', `${V1}/workspace`, { key, body: { max_dials_per_phone_per_day: 2 } });
    expect(set.body.data.settings.max_dials_per_phone_per_day).toBe(2);

    // Five calls to one phone at once, and one to another phone.
    const ids = await callsTo(key, 'cap-one-phone', '+14155550190', 5);
    const [other] = await callsTo(key, 'cap-other-phone', '+14155550191', 1);
    const settled = await Promise.all(
      ids.map((id) =>
        waitFor(
          () => view(key, id),
          (c) => c.status === 'completed' || c.deferrals.length > 0,
          30_000,
        ),
      ),
    );
    const dialled = settled.filter((c) => c.status === 'completed');
    const held = settled.filter((c) => c.status !== 'completed');
    expect(dialled).toHaveLength(2);
    expect(held).toHaveLength(3);
    const firstDials = dialled.map((c) => Date.parse(c.attempts[0].started_at));
    for (const c of held) {
      expect(c.status).toBe('scheduled');
      expect(c.attempts).toEqual([]);
      expect(c.deferrals).toEqual([{ from: expect.any(String), to: c.next_attempt_at, reason: 'daily_dial_cap' }]);
      // Until the oldest dial of the phone is a day old.
      expect(Date.parse(c.next_attempt_at)).toBeGreaterThanOrEqual(Math.min(...firstDials) + DAY - 5_000);
      expect(Date.parse(c.next_attempt_at)).toBeLessThanOrEqual(Math.max(...firstDials) + DAY + 5_000);
    }
    expect(
      (
        await waitFor(
          () => view(key, other),
          (c) => c.status === 'completed',
          30_000,
        )
      ).deferrals,
    ).toEqual([]);
  });
});
