import { join } from 'node:path';
import { processBeside, startStack, type Stack } from '../helpers/stack';
import { startAshby, type AshbyStandIn } from '../helpers/ats-standins';
import { waitFor } from '../helpers/wait';
import { scratchDir } from '../helpers/scratch';
import { answerInWriting, createPartnerTest, orderedInterview, PHONE_SCREEN_TERMS, WRITTEN_TERMS } from '../helpers/partner-tests';
import type { ServiceProcess } from '../../scripts/bench/processes';

/**
 * Ashby runs our tests as an assessment of its hiring plan (docs/ats/ashby.md), on the real API, database and
 * Temporal, with the worker a process of its own (killed in one test), and a stand-in that speaks Ashby's
 * assessments framework: it lists the workspace's assessment types, starts and cancels assessments through our
 * door, and takes our assessment.update (and a phone screen's candidate.info) with the customer's Ashby API key.
 */
const CUSTOMER_KEY = 'ashby-customer-key-0123456789';
const V1 = '/api/public/v1';
let stack: Stack;
let ashby: AshbyStandIn;
let worker: ServiceProcess;
let workspace: { id: string; key: string };
let doorKey = '';
const logDir = scratchDir('ats-ashby');
const workerEnv = () => ({ ASHBY_API_URL: ashby.url, SIMULATOR_CALL_SECONDS: '1', METRICS_PORT: '0' });
let workers = 0;
const startWorker = async () => (worker = await processBeside('worker', stack, workerEnv(), join(logDir, `worker-${workers++}.log`)));

beforeAll(async () => {
  ashby = await startAshby(() => stack.url, CUSTOMER_KEY);
  stack = await startStack({ env: { ASHBY_API_URL: ashby.url } });
  await startWorker();
  workspace = await stack.newWorkspace('Ashby Co');
  const made = await stack.request('POST', `${V1}/partners/ashby/credentials`, { key: workspace.key, body: {} });
  doorKey = made.body.data.key;
  const kept = await stack.request('PUT', `${V1}/partners/ashby/api-key`, { key: workspace.key, body: { api_key: CUSTOMER_KEY } });
  expect(kept.body.data).toMatchObject({ set: true, last4: '6789' });
}, 60_000);
afterAll(async () => {
  await worker?.kill();
  await stack?.stop();
  await ashby?.stop();
});

let people = 0;
/** Ashby's assessment.start for a new application of one candidate. */
function startBody(testId: string, extra: { candidate?: Record<string, unknown> } = {}) {
  const n = ++people;
  return {
    assessment_type_id: testId,
    candidate: {
      ashby_id: `cand-${n}-${Date.now()}`,
      first_name: 'Ada',
      last_name: `Byron ${'abcdefghij'[n % 10]}`,
      email: `ada.${n}.${Date.now()}@example.com`,
      ashby_profile_url: `https://app.ashbyhq.com/candidates/cand-${n}`,
      ...extra.candidate,
    },
    application: { ashby_id: `app-${n}-${Date.now()}`, status: 'Active' },
    job: { ashby_id: 'job-backend', name: 'Backend Engineer', req_id: null, ashby_job_url: 'https://app.ashbyhq.com/jobs/job-backend' },
  };
}
const attempts = (id: string) => ashby.stub.requests.filter((r) => r.path === '/assessment.update' && r.body?.assessment_id === id);
const lastUpdate = (id: string) => ashby.updates(id).at(-1);

describe('Ashby runs a test as an assessment', () => {
  it('lists the tests, starts one assessment however often started, and reports its progress, then its score once', async () => {
    const testId = await createPartnerTest(stack, workspace.key, {
      name: 'Backend: written interview',
      description: 'Two questions, in writing.',
      kind: 'interview',
      interview: WRITTEN_TERMS,
    });
    const listed = await ashby.list(doorKey);
    expect(listed.body.results).toContainEqual({
      assessment_type_id: testId,
      name: 'Backend: written interview',
      description: 'Two questions, in writing.',
    });
    const body = startBody(testId);
    const [started, again] = await Promise.all([ashby.start(doorKey, body), ashby.start(doorKey, body)]);
    expect(started.status).toBe(200);
    const id = started.body.results.assessment_id as string;
    expect(again.body).toEqual({ success: true, results: { assessment_id: id } });
    const order = await stack.db.partnerAssessments.findOne({ _id: id });
    expect(await stack.db.interviews.countDocuments({ project_id: order!.resource!.project_id })).toBe(1);
    await waitFor(
      async () => lastUpdate(id)?.assessment_status?.value,
      (v) => v === 'Sent',
      30_000,
    );

    await answerInWriting(stack, id);
    const done = await waitFor(
      async () => lastUpdate(id),
      (u) => u?.assessment_status?.value === 'Completed',
      60_000,
    );
    expect(done).toMatchObject({
      assessment_id: id,
      timestamp: expect.any(Number),
      assessment_profile_url: { type: 'url', value: expect.stringMatching(/^https:\/\/hiring\.test\/projects\/prj_.*#interview-/) },
      assessment_result: { identifier: 'score', type: 'numeric_score', value: expect.any(Number), description: 'From 1 to 5' },
      metadata: expect.arrayContaining([expect.objectContaining({ identifier: 'summary', type: 'string' })]),
    });
    // In order, each once, and nothing after the end.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const states = ashby.updates(id).map((u) => u.assessment_status?.value);
    expect(states.filter((s) => s === 'Completed')).toHaveLength(1);
    expect(states.at(-1)).toBe('Completed');
    const times = ashby.updates(id).map((u) => u.timestamp as number);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it("calls a phone screen's candidate on the phone Ashby keeps, and refuses one Ashby keeps none for (422, nothing started)", async () => {
    const testId = await createPartnerTest(stack, workspace.key, {
      name: 'Warehouse: phone screen',
      kind: 'phone_screen',
      phone_screen: PHONE_SCREEN_TERMS,
    });
    const without = startBody(testId);
    const refused = await ashby.start(doorKey, without);
    expect(refused).toMatchObject({ status: 422, body: { success: false, message: expect.stringMatching(/phone/) } });
    expect(await stack.db.partnerAssessments.countDocuments({ test_id: testId })).toBe(0);

    const body = startBody(testId);
    ashby.phones.set(body.candidate.ashby_id, '+1 415 555 0177');
    const started = await ashby.start(doorKey, body);
    expect(started.status).toBe(200);
    const id = started.body.results.assessment_id as string;
    const call = await stack.db.calls.findOne({ partner_assessment_id: id });
    expect(call).toMatchObject({ candidate: { phone: '+14155550177' } });
    const done = await waitFor(
      async () => lastUpdate(id),
      (u) => u?.assessment_status?.value === 'Completed',
      60_000,
    );
    expect(done.assessment_result).toMatchObject({ type: 'boolean_success', value: true });
    expect(done.metadata).toContainEqual(expect.objectContaining({ identifier: 'value-available', value: 'true' }));
  });

  it('cancels an assessment under way: its link closes, Ashby is told why, and a second cancel changes nothing', async () => {
    const testId = await createPartnerTest(stack, workspace.key, {
      name: 'Backend: to cancel',
      kind: 'interview',
      interview: WRITTEN_TERMS,
    });
    const id = (await ashby.start(doorKey, startBody(testId))).body.results.assessment_id as string;
    const interview = await orderedInterview(stack, id);
    expect((await ashby.cancel(doorKey, id)).body).toEqual({ success: true, results: { assessment_id: id } });
    const told = await waitFor(
      async () => lastUpdate(id),
      (u) => u?.cancelled_reason !== undefined,
      30_000,
    );
    expect(told.cancelled_reason).toMatchObject({ type: 'string', value: 'Cancelled' });
    expect(await stack.db.interviews.findOne({ _id: interview._id })).toMatchObject({ status: 'expired' });
    const page = await fetch(`${stack.url}/interview/${interview.token}`);
    expect(await page.text()).toContain('This interview link has expired');
    expect((await ashby.cancel(doorKey, id)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(ashby.updates(id).filter((u) => u.cancelled_reason)).toHaveLength(1);
    expect((await ashby.cancel(doorKey, 'pa_not-one')).status).toBe(404);
  });

  it('reports through an Ashby outage and a killed worker, once it answers again, and once', async () => {
    const testId = await createPartnerTest(stack, workspace.key, { name: 'Backend: outage', kind: 'interview', interview: WRITTEN_TERMS });
    ashby.failFirst = Number.MAX_SAFE_INTEGER;
    const id = (await ashby.start(doorKey, startBody(testId))).body.results.assessment_id as string;
    await waitFor(
      async () => attempts(id).length,
      (n) => n >= 2,
      30_000,
    );
    // Between two tries: the worker dies, Ashby comes back, another worker takes the next try.
    await worker.kill();
    ashby.failFirst = 0;
    await startWorker();
    await waitFor(
      async () => ashby.updates(id).length,
      (n) => n === 1,
      60_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(ashby.updates(id)).toEqual([expect.objectContaining({ assessment_status: expect.objectContaining({ value: 'Sent' }) })]);
  });

  it('never tells Ashby anything of a candidate erased before it could be told', async () => {
    const testId = await createPartnerTest(stack, workspace.key, { name: 'Backend: erasure', kind: 'interview', interview: WRITTEN_TERMS });
    ashby.failFirst = Number.MAX_SAFE_INTEGER;
    const body = startBody(testId);
    const id = (await ashby.start(doorKey, body)).body.results.assessment_id as string;
    await waitFor(
      async () => attempts(id).length,
      (n) => n >= 1,
      30_000,
    );
    const erased = await stack.request('POST', `${V1}/candidates/erase`, { key: workspace.key, body: { email: body.candidate.email } });
    expect(erased.body.data).toMatchObject({ interviews: 1 });
    ashby.failFirst = 0;
    // The order's reports end without a word: the next try finds the candidate erased.
    await stack.temporal.workflow.getHandle(`partner-push-${id}`).result();
    expect(ashby.updates(id)).toEqual([]);
    expect((await ashby.cancel(doorKey, id)).status).toBe(404);
  });

  it("answers a wrong, another ATS's or a revoked key 401, and keeps the customer's Ashby key write-only", async () => {
    const testId = await createPartnerTest(stack, workspace.key, { name: 'Backend: keys', kind: 'interview', interview: WRITTEN_TERMS });
    expect((await ashby.start('abk_not-a-key', startBody(testId))).status).toBe(401);
    const greenhouse = await stack.request('POST', `${V1}/partners/greenhouse/credentials`, { key: workspace.key, body: {} });
    expect((await ashby.list(greenhouse.body.data.key)).status).toBe(401);
    const extra = await stack.request('POST', `${V1}/partners/ashby/credentials`, { key: workspace.key, body: {} });
    expect((await ashby.list(extra.body.data.key)).status).toBe(200);
    await stack.request('DELETE', `${V1}/partners/ashby/credentials/${extra.body.data.id}`, { key: workspace.key });
    expect(await ashby.start(extra.body.data.key, startBody(testId))).toMatchObject({ status: 401, body: { success: false } });
    expect(await stack.db.partnerAssessments.countDocuments({ test_id: testId })).toBe(0);

    const shown = await stack.request('GET', `${V1}/partners/ashby/api-key`, { key: workspace.key });
    expect(shown.body.data).toEqual({ set: true, last4: '6789', updated_at: expect.any(String) });
    expect(JSON.stringify(shown.body)).not.toContain(CUSTOMER_KEY);
    expect(JSON.stringify(await stack.db.partnerSecrets.find({ workspace_id: workspace.id }).toArray())).not.toContain(CUSTOMER_KEY);
  });
});
