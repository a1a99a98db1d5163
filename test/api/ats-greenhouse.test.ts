import { startStack, type Stack } from '../helpers/stack';
import { startGreenhouse, type GreenhouseStandIn } from '../helpers/ats-standins';
import { waitFor } from '../helpers/wait';
import { answerInWriting, createPartnerTest, orderedInterview, PHONE_SCREEN_TERMS, WRITTEN_TERMS } from '../helpers/partner-tests';
import { recordHistory } from '../helpers/histories';
import { openLive } from '../helpers/live-client';
import { postForm } from '../helpers/form-post';

/**
 * Greenhouse runs our tests as a stage of its hiring plan (docs/ats/greenhouse.md), on the real API, worker,
 * database and Temporal, with a stand-in that speaks Greenhouse's Assessment Partner API: it lists the
 * workspace's tests, sends a candidate to one, and, once our PATCH of its take-home test's URL says the test is
 * complete, asks test_status, as Greenhouse does.
 */
let stack: Stack;
let greenhouse: GreenhouseStandIn;
let workspace: { id: string; key: string };
let partnerKey = '';
const V1 = '/api/public/v1';
const person = (n: number, extra: Record<string, unknown> = {}) => ({
  first_name: 'Harry',
  last_name: `Potter ${'abcdefghij'[n % 10]}`,
  email: `harry.${n}@example.com`,
  greenhouse_profile_url: `https://app.greenhouse.io/people/1768${n}?application_id=2623${n}`,
  ...extra,
});

beforeAll(async () => {
  greenhouse = await startGreenhouse(
    () => stack.url,
    () => partnerKey,
  );
  stack = await startStack({ worker: true, env: { GREENHOUSE_CALLBACK_HOSTS: greenhouse.host, SIMULATOR_CALL_SECONDS: '1' } });
  workspace = await stack.newWorkspace('Greenhouse Co');
  const made = await stack.request('POST', `${V1}/partners/greenhouse/credentials`, { key: workspace.key, body: {} });
  expect(made.status).toBe(201);
  partnerKey = made.body.data.key;
});
afterAll(async () => {
  await stack?.stop();
  await greenhouse?.stop();
});

const createTest = (body: Record<string, unknown>) => createPartnerTest(stack, workspace.key, body);

describe('Greenhouse runs a test as a stage', () => {
  it('lists the tests, sends a candidate once however often sent, and reports the completed result once, at the latest URL, which test_status then answers', async () => {
    const testId = await createTest({ name: 'Backend: written interview', kind: 'interview', interview: WRITTEN_TERMS });
    const listed = await greenhouse.listTests(partnerKey);
    expect(listed.status).toBe(200);
    expect(listed.body).toContainEqual({ partner_test_id: testId, partner_test_name: 'Backend: written interview' });

    const body = { partner_test_id: testId, candidate: person(1), url: greenhouse.takeHomeUrl(101) };
    const sent = await greenhouse.sendTest(partnerKey, body);
    expect(sent.status).toBe(200);
    const id = sent.body.partner_interview_id as string;
    // The same order again: the same id, and one interview.
    expect((await greenhouse.sendTest(partnerKey, body)).body).toEqual({ partner_interview_id: id });
    // Sent again with a new take-home test URL (a resend): the same order, its result reported at the new URL.
    const resent = await greenhouse.sendTest(partnerKey, { ...body, url: greenhouse.takeHomeUrl(201) });
    expect(resent.body).toEqual({ partner_interview_id: id });
    const order = await stack.db.partnerAssessments.findOne({ _id: id });
    expect(await stack.db.interviews.countDocuments({ project_id: order!.resource!.project_id })).toBe(1);
    expect((await greenhouse.testStatus(partnerKey, id)).body).toMatchObject({ partner_status: 'sent', partner_score: null });

    await answerInWriting(stack, id);
    // Reported once: our PATCH, then Greenhouse's own test_status.
    await waitFor(
      async () => greenhouse.statuses(201).length,
      (n) => n === 1,
      60_000,
    );
    expect(greenhouse.patches(101)).toEqual([]);
    expect(greenhouse.patches(201)).toHaveLength(1);
    expect(greenhouse.patches(201)[0].raw).toBe('');
    expect(greenhouse.statuses(201)[0]).toMatchObject({
      partner_status: 'complete',
      partner_score: expect.any(Number),
      partner_profile_url: expect.stringMatching(/^https:\/\/hiring\.test\/projects\/prj_.*#interview-/),
      metadata: expect.objectContaining({ 'Score range': '1 to 5', Recommendation: expect.any(String), Summary: expect.any(String) }),
    });
    expect((await greenhouse.testStatus(partnerKey, id)).body).toEqual(greenhouse.statuses(201)[0]);
    // Nothing more is reported: the order's workflow has ended.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(greenhouse.patches(201)).toHaveLength(1);
    await recordHistory(stack.temporal, `partner-push-${id}`, 'partner-push-reported');
  });

  it("answers a wrong, another ATS's or a revoked key 401, and starts nothing", async () => {
    const testId = await createTest({ name: 'Backend: written interview (keys)', kind: 'interview', interview: WRITTEN_TERMS });
    const body = { partner_test_id: testId, candidate: person(2), url: greenhouse.takeHomeUrl(102) };
    expect((await greenhouse.sendTest('ghk_not-a-key', body)).status).toBe(401);
    const ashby = await stack.request('POST', `${V1}/partners/ashby/credentials`, { key: workspace.key, body: {} });
    expect((await greenhouse.sendTest(ashby.body.data.key, body)).status).toBe(401);
    const extra = await stack.request('POST', `${V1}/partners/greenhouse/credentials`, { key: workspace.key, body: {} });
    expect((await greenhouse.listTests(extra.body.data.key)).status).toBe(200);
    expect(
      (await stack.request('DELETE', `${V1}/partners/greenhouse/credentials/${extra.body.data.id}`, { key: workspace.key })).status,
    ).toBe(204);
    const revoked = await greenhouse.sendTest(extra.body.data.key, body);
    expect(revoked).toMatchObject({ status: 401, body: { message: expect.any(String) } });
    expect(await stack.db.partnerAssessments.countDocuments({ test_id: testId })).toBe(0);
    // The keys are listed, never shown again.
    const listed = await stack.request('GET', `${V1}/partners/greenhouse/credentials`, { key: workspace.key });
    expect(JSON.stringify(listed.body)).not.toContain(extra.body.data.key);
    expect(listed.body.data.find((c: { id: string }) => c.id === extra.body.data.id)).toMatchObject({ revoked_at: expect.any(String) });
  });

  it("refuses a phone screen for a candidate without a phone (400, nothing started), and calls one with a phone, reporting the call's values", async () => {
    const testId = await createTest({
      name: 'Warehouse: phone screen',
      kind: 'phone_screen',
      phone_screen: PHONE_SCREEN_TERMS,
    });
    const refused = await greenhouse.sendTest(partnerKey, {
      partner_test_id: testId,
      candidate: person(3),
      url: greenhouse.takeHomeUrl(103),
    });
    expect(refused).toMatchObject({ status: 400, body: { message: expect.stringMatching(/phone/) } });
    expect(await stack.db.partnerAssessments.countDocuments({ test_id: testId })).toBe(0);

    const sent = await greenhouse.sendTest(partnerKey, {
      partner_test_id: testId,
      candidate: person(4, { phone_number: '+1 415 555 0144' }),
      url: greenhouse.takeHomeUrl(104),
    });
    expect(sent.status).toBe(200);
    await waitFor(
      async () => greenhouse.statuses(104).length,
      (n) => n === 1,
      60_000,
    );
    expect(greenhouse.patches(104)).toHaveLength(1);
    expect((await greenhouse.testStatus(partnerKey, sent.body.partner_interview_id)).body).toMatchObject({
      partner_status: 'complete',
      partner_score: null,
      metadata: { available: true },
    });
  });

  it('runs a live interview: the candidate talks it through with the interviewer, and its score is reported', async () => {
    const testId = await createTest({
      name: 'Backend: live interview',
      kind: 'interview',
      interview: {
        ...WRITTEN_TERMS,
        interview_mode: 'live',
        follow_ups_per_question: 0,
        questions: [{ question: 'Tell us about a pipeline you built.', type: 'audio', time_limit_seconds: 120 }],
      },
    });
    const sent = await greenhouse.sendTest(partnerKey, { partner_test_id: testId, candidate: person(7), url: greenhouse.takeHomeUrl(107) });
    expect(sent.status).toBe(200);
    const interview = await orderedInterview(stack, sent.body.partner_interview_id);
    expect(interview.interview_mode).toBe('live');
    // The candidate's page: consent, a ticket, the conversation's socket (as test/api/live-interviews.test.ts drives it).
    const path = `/interview/${interview.token}`;
    expect((await postForm(`${stack.url}${path}/start`, { origin: stack.url }, 'consent=given')).status).toBe(303);
    const ticket = await fetch(`${stack.url}${path}/live/ticket`, { method: 'POST', headers: { origin: stack.url } });
    const live = await openLive(stack, path, ((await ticket.json()) as { ticket: string }).ticket);
    await live.next((m) => m.type === 'state' && m.state === 'listening');
    await live.speak(1_000);
    await live.next((m) => m.type === 'ended');

    await waitFor(
      async () => greenhouse.statuses(107).length,
      (n) => n === 1,
      60_000,
    );
    expect(greenhouse.patches(107)).toHaveLength(1);
    expect(greenhouse.statuses(107)[0]).toMatchObject({
      partner_status: 'complete',
      partner_score: expect.any(Number),
      metadata: expect.objectContaining({ 'Score range': '1 to 5' }),
    });
  });

  it('never reports the result of a candidate erased meanwhile, and test_status reads the order as gone', async () => {
    const testId = await createTest({ name: 'Backend: written interview (erasure)', kind: 'interview', interview: WRITTEN_TERMS });
    const sent = await greenhouse.sendTest(partnerKey, { partner_test_id: testId, candidate: person(5), url: greenhouse.takeHomeUrl(105) });
    const id = sent.body.partner_interview_id as string;
    const erased = await stack.request('POST', `${V1}/candidates/erase`, { key: workspace.key, body: { email: person(5).email } });
    expect(erased.body.data).toMatchObject({ interviews: 1 });
    expect((await greenhouse.testStatus(partnerKey, id)).status).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(greenhouse.patches(105)).toEqual([]);
  });

  it("lists a test's new name once changed, and neither lists nor sends one deleted (404, nothing started)", async () => {
    const testId = await createTest({ name: 'Backend: to rename', kind: 'interview', interview: WRITTEN_TERMS });
    const renamed = await stack.request('PATCH', `${V1}/partner-tests/${testId}`, {
      key: workspace.key,
      body: { name: 'Backend: renamed' },
    });
    expect(renamed.body.data).toMatchObject({ id: testId, name: 'Backend: renamed', kind: 'interview' });
    expect((await greenhouse.listTests(partnerKey)).body).toContainEqual({
      partner_test_id: testId,
      partner_test_name: 'Backend: renamed',
    });
    // A test's terms are its kind's: an interview with a phone screen's is refused, naming the field.
    const mixed = await stack.request('POST', `${V1}/partner-tests`, {
      key: workspace.key,
      body: { name: 'Mixed', kind: 'interview', interview: WRITTEN_TERMS, phone_screen: PHONE_SCREEN_TERMS },
    });
    expect(mixed).toMatchObject({ status: 400, body: { success: false } });
    expect(JSON.stringify(mixed.body)).toContain('phone_screen');

    expect((await stack.request('DELETE', `${V1}/partner-tests/${testId}`, { key: workspace.key })).status).toBe(204);
    expect((await greenhouse.listTests(partnerKey)).body.map((t: { partner_test_id: string }) => t.partner_test_id)).not.toContain(testId);
    const sent = await greenhouse.sendTest(partnerKey, { partner_test_id: testId, candidate: person(6), url: greenhouse.takeHomeUrl(106) });
    expect(sent).toMatchObject({ status: 404, body: { message: expect.any(String) } });
    expect(await stack.db.partnerAssessments.countDocuments({ test_id: testId })).toBe(0);
  });
});
