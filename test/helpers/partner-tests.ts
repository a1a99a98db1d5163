import type { Stack } from './stack';
import { waitFor } from './wait';
import { postForm } from './form-post';
import { EXAMPLES } from '../../api/openapi/examples';

/** A written interview's terms, as a workspace sets up a test for its ATS (POST /partner-tests): the reference's job, two questions. */
const { ats_job_id: _job, candidates: _candidates, ...JOB } = EXAMPLES.invite;
export const WRITTEN_TERMS = {
  ...JOB,
  questions: [
    { question: 'Tell us about an API you designed.', type: 'text' },
    { question: 'How do you test a data model?', type: 'text' },
  ],
};

/** A phone screen's terms: one yes-or-no value the call extracts (the simulator answers true). */
export const PHONE_SCREEN_TERMS = {
  instructions: 'Ask {{candidate_first_name}} whether they can start next week.',
  extract_variables: [{ label: 'available', type: 'boolean', description: 'Can start next week' }],
};

/** A test of the workspace's for its ATS; its id. */
export async function createPartnerTest(stack: Stack, key: string, body: Record<string, unknown>): Promise<string> {
  const res = await stack.request('POST', '/api/public/v1/partner-tests', { key, body });
  if (res.status !== 201) throw new Error(`POST /partner-tests answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

/** The interview an order started, once it is invited. */
export async function orderedInterview(stack: Stack, orderId: string) {
  const order = await stack.db.partnerAssessments.findOne({ _id: orderId });
  return (await waitFor(
    () => stack.db.interviews.findOne({ _id: order!.resource!.id }),
    (i) => i?.status === 'invited',
    30_000,
  ))!;
}

/** The candidate of an order's written interview (WRITTEN_TERMS) answers every question through its page, and finishes. */
export async function answerInWriting(stack: Stack, orderId: string): Promise<void> {
  const interview = await orderedInterview(stack, orderId);
  const page = `${stack.url}/interview/${interview.token}`;
  const headers = { origin: stack.url };
  const expect303 = async (res: Promise<{ status: number }>, step: string) => {
    const { status } = await res;
    if (status !== 303) throw new Error(`${step} answered ${status}`);
  };
  await expect303(postForm(`${page}/start`, headers), 'start');
  for (let i = 0; i < WRITTEN_TERMS.questions.length; i++) {
    await postForm(`${page}/next`, headers, '');
    const answer = 'I designed a REST API for parcel tracking, versioned and tested with contracts.';
    await expect303(postForm(`${page}/answers/${i}`, headers, `answer=${encodeURIComponent(answer)}`), `answer ${i}`);
  }
  await expect303(postForm(`${page}/finish`, headers, ''), 'finish');
}
