import type { Stack } from './stack';
import { waitFor } from './wait';

const V1 = '/api/public/v1';
const DAY = 86_400_000;

/** Each test's candidate has a phone of their own: an opt-out in one reaches no other. */
export const phoneOf = (job: string) =>
  `+1415555${String([...job].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 10_000, 7)).padStart(4, '0')}`;

/** The call's questions, which its written form asks. */
export const LINK_QUESTIONS = [
  { label: 'years', type: 'integer', description: 'How many years have you worked with data pipelines?' },
  { label: 'remote', type: 'boolean', description: 'Would you work remotely?' },
];

/**
 * One call of a campaign of its own, made through the API with `key`, waiting for `schedule_at` (two days
 * ahead unless `extra` says otherwise), or for the written answers once its attempts are spent: its id, a GET
 * of it, and its link's path (docs/call-links.md).
 */
export async function calledWithLink(stack: Stack, key: string, job: string, extra: Record<string, unknown> = {}) {
  const campaign = await stack.request('POST', `${V1}/campaigns`, {
    key,
    body: { ats_job_id: job, name: `Screening ${job}`, job_title: 'Data Engineer' },
  });
  expect(campaign.status).toBe(201);
  const res = await stack.request('POST', `${V1}/call/initiate`, {
    key,
    body: {
      ats_job_id: job,
      candidates: [
        {
          id: `${job}-c`,
          name: 'Grace Hopper',
          email: `${job}@example.com`,
          phone: phoneOf(job),
          custom_fields: { simulated_outcomes: 'completed' },
        },
      ],
      instructions: 'Screen the candidate.',
      extract_variables: LINK_QUESTIONS,
      schedule_at: new Date(Date.now() + 2 * DAY).toISOString(),
      ...extra,
    },
  });
  expect({ status: res.status, body: res.status === 200 ? null : res.body }).toEqual({ status: 200, body: null });
  const id = res.body.data.calls[0].id as string;
  const get = async () => (await stack.request('GET', `${V1}/calls/${id}`, { key })).body.data;
  const view = await waitFor(get, (c) => c.status === 'scheduled' && (c.next_attempt_at !== null || c.form_until !== null));
  const path = new URL(view.candidate_url).pathname;
  return { id, get, path, view };
}
