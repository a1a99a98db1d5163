import type { Stack } from './stack';

const V1 = '/api/public/v1';

/** The calling-cap tests' calls (test/api/call-capacity*.test.ts): `n` candidates of a new campaign `job`, called at once; their ids. */
export async function callMany(stack: Stack, key: string, job: string, n: number): Promise<string[]> {
  await stack.request('POST', `${V1}/campaigns`, { key, body: { ats_job_id: job, name: job, company_name: 'Acme' } });
  const res = await stack.request('POST', `${V1}/call/initiate`, {
    key,
    body: {
      ats_job_id: job,
      first_message: 'Hi',
      instructions: 'Ask about availability.',
      candidates: Array.from({ length: n }, (_, i) => ({
        id: `c${i}`,
        name: 'Ada Lovelace',
        email: `c${i}@example.com`,
        phone: `+1415555${3000 + i}`,
      })),
    },
  });
  expect(res.status).toBe(200);
  return res.body.data.calls.map((c: { id: string }) => c.id);
}

/** Those calls as stored. */
export const storedCalls = (stack: Stack, ids: string[]) => stack.db.calls.find({ _id: { $in: ids } }).toArray();
