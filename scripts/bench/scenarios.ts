import { newId } from '../../infra/ids';
import type { BenchStack } from './stack';
import { untilEach } from './stack';
import { jobFields } from '../../test/helpers/job';

/**
 * The scenarios the benchmark times, each from the client's side. Times are in milliseconds.
 */

const now = () => performance.now();

/**
 * The physical floor of a bulk request of n candidates on this stack: one unordered insertMany of n documents
 * of a call's size, then n concurrent StartWorkflowExecution calls (on a queue no worker polls, so nothing else
 * runs). No request can record n candidates and start their workflows in less.
 */
export async function floor(stack: BenchStack, n: number): Promise<number> {
  const docs = Array.from({ length: n }, () => ({ _id: newId('floor'), payload: 'x'.repeat(1_500), created_at: new Date() }));
  const t = now();
  await stack.store.db.collection<{ _id: string }>('bench_floor').insertMany(docs, { ordered: false });
  await Promise.all(
    docs.map((d) =>
      stack.temporal.workflow.start('benchFloor', { workflowId: d._id, taskQueue: `${stack.env.TEMPORAL_TASK_QUEUE}-floor` }),
    ),
  );
  return now() - t;
}

/** The reference's example job (test/helpers/job.ts), as interview/invite takes it. */
const JOB = jobFields();

/**
 * interview/invite of n candidates: the response, and until every invitation email is sent (from the request).
 * The candidates are new people (ids and emails no request has used) unless `prefix` names people to invite
 * again: `${prefix}${i}`, the same ids and emails in every request with that prefix.
 */
export async function invite(
  stack: BenchStack,
  job: string,
  n: number,
  prefix?: string,
): Promise<{ response: number; sent: number; ids: string[] }> {
  const who = prefix ?? newId('i');
  const candidates = Array.from({ length: n }, (_, i) => ({
    id: `${who}${i}`,
    name: `Bench Candidate ${'abcdefghij'[i % 10]}`,
    email: `${who}${i}@example.com`,
  }));
  const t = now();
  const res = await stack.post('/api/public/v1/interview/invite', { ats_job_id: job, ...JOB, candidates });
  const response = now() - t;
  const ids: string[] = res.data.interviews.map((r: { id?: string; message: string }) => {
    if (!r.id) throw new Error(`invitation failed: ${r.message}`);
    return r.id;
  });
  await untilEach(ids, async (id) => (await stack.store.interviews.findOne({ _id: id }))?.email.status === 'sent');
  return { response, sent: now() - t, ids };
}

/** n candidates with ids and emails after `prefix`, and phone numbers from `phones` on (7 digits, 2000000 up). */
export function callCandidates(n: number, prefix: string, phones = 5_550_000) {
  return Array.from({ length: n }, (_, i) => ({
    id: `${prefix}${i}`,
    name: 'Bench Candidate',
    email: `${prefix}${i}@example.com`,
    phone: `+1415${String(phones + i).slice(-7)}`,
  }));
}

/**
 * call/initiate of n candidates: the response, and until every call is completed, counted from the response.
 * The candidates are the same people in every request unless `opts` names others (see callCandidates);
 * `onAnswered` runs the moment the response is in.
 */
export async function initiate(
  stack: BenchStack,
  job: string,
  n: number,
  opts: { prefix?: string; phones?: number; onAnswered?: () => void } = {},
): Promise<{ response: number; completed: number; ids: string[] }> {
  await stack.post('/api/public/v1/campaigns', { ats_job_id: job, name: 'Bench calls' });
  const t = now();
  const res = await stack.post('/api/public/v1/call/initiate', {
    ats_job_id: job,
    instructions: 'Ask {{candidate_first_name}} about availability.',
    candidates: callCandidates(n, opts.prefix ?? 'k', opts.phones),
  });
  const answered = now();
  opts.onAnswered?.();
  const ids: string[] = res.data.calls.map((c: { id: string | null; message: string }) => {
    if (!c.id) throw new Error(`call failed: ${c.message}`);
    return c.id;
  });
  await untilEach(ids, async (id) => (await stack.store.calls.findOne({ _id: id }))?.status === 'completed');
  return { response: answered - t, completed: now() - answered, ids };
}

/**
 * 200 requests of 50 calls scheduled a week ahead, sent by 4 clients at once, held by the one worker: the time
 * to accept them all, the time until every workflow has run its first step (markScheduled) and sleeps, and the
 * worker's resident memory then and after SETTLE_MS idle.
 */
export async function scale(
  stack: BenchStack,
  total: number,
): Promise<{ accepted: number; sleeping: number; responses: number[]; workerRss: number; workerRssSettled: number }> {
  const per = 50;
  const job = 'bench-scale';
  await stack.post('/api/public/v1/campaigns', { ats_job_id: job, name: 'Bench scale' });
  const scheduleAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
  const responses: number[] = [];
  const ids: string[] = [];
  let next = 0;
  const t = now();
  const client = async () => {
    for (let r = next++; r < total / per; r = next++) {
      const started = now();
      const res = await stack.post('/api/public/v1/call/initiate', {
        ats_job_id: job,
        instructions: 'Ask {{candidate_first_name}} about availability.',
        schedule_at: scheduleAt,
        candidates: callCandidates(per, `s${r}-`),
      });
      responses.push(now() - started);
      for (const c of res.data.calls) {
        if (!c.id) throw new Error(`call failed: ${c.message}`);
        ids.push(c.id);
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, client));
  const accepted = now() - t;
  await untilEach(ids, async (id) => (await stack.store.calls.findOne({ _id: id }))?.scheduled_for != null, 1_800_000);
  const sleeping = now() - t;
  const workerRss = stack.worker.rss();
  // What the sleeping calls hold, once the worker has been idle a while: at the moment the last one sleeps, the
  // worker's heap still holds the garbage of the burst, which V8 collects (and gives back) only once idle.
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  return { accepted, sleeping, responses, workerRss, workerRssSettled: stack.worker.rss() };
}

/** How long the scale scenario leaves the worker idle before reading what its sleeping calls hold. */
export const SETTLE_MS = 90_000;
