import type { Stack } from './stack';
import { waitFor } from './wait';

/** Builders for interview/invite bodies: a valid request that each test bends in one place. */
export const inviteCandidate = (i: number, extra: Record<string, unknown> = {}) => ({
  id: `cand-${i}`,
  name: `grace HOPPER ${'abcdefghijklmnopqrstuvwxyz'[i % 26]}. ${'x'.repeat(1 + (i % 3))}`,
  email: `Grace.${i}@Example.COM`,
  phone: `+4420790${String(10000 + i).padStart(5, '0')}`,
  ...extra,
});

export const inviteBody = (candidates: unknown[], extra: Record<string, unknown> = {}) => ({
  ats_job_id: 'job-ml-7',
  job_title: 'Senior Data Engineer',
  job_description: 'Own our batch and streaming pipelines end to end, mentor two engineers and work with analysts on data models.',
  min_experience: 5,
  max_experience: 8,
  seniority_level: 'Senior',
  work_type: 'Hybrid',
  employment_type: 'Full Time',
  location: 'London, UK',
  skills_required: ['Python', 'Apache Spark', 'SQL'],
  skills_good_to_have: ['Kafka', 'dbt', 'Airflow'],
  candidates,
  ...extra,
});

/**
 * One invited candidate of a job of its own, with these questions: the interview's id, its link's path once
 * the email is sent, and a reader of the interview through the API.
 */
export async function invitedInterview(stack: Stack, key: string, job: string, questions: unknown[]) {
  const res = await stack.request('POST', '/api/public/v1/interview/invite', {
    key,
    body: inviteBody([inviteCandidate(1)], { ats_job_id: job, questions }),
  });
  if (res.status !== 200) throw new Error(`invite answered ${res.status}: ${JSON.stringify(res.body)}`);
  const id = res.body.data.interviews[0].id as string;
  const get = () => stack.request('GET', `/api/public/v1/interviews/${id}`, { key });
  const interview = (await waitFor(get, (r) => r.body.data.status === 'invited')).body.data;
  return { id, path: new URL(interview.interview_url).pathname, get };
}

/** An invited interview started on its page (consent given): its first question is open; `url` is its link. */
export async function startedInterview(stack: Stack, key: string, job: string, questions: unknown[]) {
  const { id, path } = await invitedInterview(stack, key, job, questions);
  const res = await fetch(`${stack.url}${path}/start`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: stack.url, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'consent=given',
  });
  if (res.status !== 303) throw new Error(`start answered ${res.status}`);
  return { id, url: `${stack.url}${path}` };
}

/**
 * One invited candidate of a job of its own who answered each typed question with `answers` through the
 * interview page (consent given at Start), once the assessment is stored: as invitedInterview.
 */
export async function finishedInterview(stack: Stack, key: string, job: string, answers: string[]) {
  const questions = answers.map((_, i) => ({ question: `Question ${i + 1}?`, type: 'text' }));
  const invited = await invitedInterview(stack, key, job, questions);
  const post = async (path: string, body: string) => {
    const res = await fetch(stack.url + invited.path + path, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: stack.url, 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    if (res.status !== 303) throw new Error(`POST ${path} answered ${res.status}`);
  };
  await post('/start', 'consent=given');
  for (const [i, text] of answers.entries()) await post(`/answers/${i}`, `answer=${encodeURIComponent(text)}`);
  await post('/finish', '');
  await waitFor(invited.get, (r) => r.body.data.assessment?.status === 'completed', 60_000);
  return invited;
}
