import type { Browser } from 'puppeteer-core';
import { startStack, type Stack } from '../helpers/stack';
import { startHttpStub, type HttpStub } from '../helpers/http-stub';
import { completion } from '../helpers/openai-wire';
import { registerWebhook, startReceiver, type Receiver } from '../helpers/webhook-receiver';
import { invitedInterview } from '../helpers/invite';
import { historyText } from '../helpers/histories';
import { waitFor } from '../helpers/wait';
import { PHONE, axeViolations, keepScreenshot, launchBrowser, openPage, scrollsSideways } from '../helpers/browser';
import { DECLINE_AI_LABEL } from '../../shared/interviews/consent';

const webm = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(996, 7)]);
const QUESTIONS = [
  { question: 'What did you build last?', type: 'text' },
  { question: 'Tell us about an outage.', type: 'audio' },
];

/**
 * A candidate may ask for a person instead of the AI (docs/assessments.md): on the real stack, with OpenAI's
 * transcription and assessment served by a local server in OpenAI's wire format, a declined interview sends
 * nothing to either, and its assessment says `declined`; one that was not declined is heard and assessed.
 */
describe('a candidate who asks for a person, not an AI', () => {
  let stub: HttpStub;
  let stack: Stack;
  let hooks: Receiver;
  let browser: Browser;
  beforeAll(async () => {
    stub = await startHttpStub((req) =>
      req.path === '/v1/audio/transcriptions'
        ? { status: 200, body: { text: 'We rolled the deploy back in ten minutes.', usage: { type: 'duration', seconds: 3 } } }
        : {
            status: 200,
            body: completion({
              content: JSON.stringify({
                answers: [0, 1].map((index) => ({ index, score: 3, skills: [], evidence: [] })),
                summary: 'Read by the model.',
              }),
            }),
          },
    );
    hooks = await startReceiver();
    stack = await startStack({
      worker: true,
      env: { OPENAI_API_KEY: 'sk-test-secret-value', OPENAI_BASE_URL: `${stub.url}/v1`, OPENAI_MAX_RETRIES: '0' },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await Promise.all([stub?.close(), hooks?.close()]);
  });

  /** Answers both questions on the page (consent given) and finishes; the interview once its assessment is stored. */
  async function answerAll(path: string, get: () => Promise<{ body: any }>) {
    const url = stack.url + path;
    const form = (to: string, body: string) =>
      fetch(url + to, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: stack.url, 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
    expect((await form('/start', 'consent=given')).status).toBe(303);
    expect((await form('/answers/0', 'answer=A billing API in TypeScript')).status).toBe(303);
    const upload = await fetch(`${url}/answers/1/recording?duration=3`, {
      method: 'POST',
      headers: { origin: stack.url, 'content-type': 'audio/webm' },
      body: webm,
    });
    expect(upload.status).toBe(200);
    expect((await form('/finish', '')).status).toBe(303);
    return (await waitFor(get, (r) => !['pending', undefined].includes(r.body.data.assessment?.status), 60_000)).body.data;
  }
  const sentToOpenAi = () => stub.requests.length;

  it('records the choice, and then nothing is transcribed or assessed by a machine; the webhook and GET say declined', async () => {
    const { key } = await stack.newWorkspace('Declineco');
    const path = hooks.newPath();
    const hook = await registerWebhook(stack, key, { url: `${hooks.stub.url}${path}`, events: ['interview.completed'] });
    const { id, path: link, get } = await invitedInterview(stack, key, 'decline-ai', QUESTIONS);
    const welcome = await (await fetch(stack.url + link)).text();
    expect(welcome).toContain(`action="${link}/no-ai-assessment"`);
    expect(welcome).toContain(DECLINE_AI_LABEL);
    expect((await get()).body.data).toMatchObject({ ai_assessment: 'allowed', ai_assessment_declined_at: null });

    const before = sentToOpenAi();
    const declined = await fetch(`${stack.url}${link}/no-ai-assessment`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: stack.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(declined.status).toBe(303);
    expect(declined.headers.get('location')).toBe(link);
    expect((await get()).body.data).toMatchObject({ ai_assessment: 'declined', ai_assessment_declined_at: expect.any(String) });
    const after = await (await fetch(stack.url + link)).text();
    expect(after).toContain('You asked for a person, not an AI, to assess your answers');
    expect(after).not.toContain('/no-ai-assessment');

    const done = await answerAll(link, get);
    expect(done.assessment).toMatchObject({ status: 'declined', provider: null, assessor: null, overall: null, error: null });
    expect(done.assessment.questions.map((q: { status: string; reason: string }) => [q.status, q.reason])).toEqual([
      ['not_assessed', 'The candidate asked for a person, not an AI, to assess their answers'],
      ['not_assessed', 'The candidate asked for a person, not an AI, to assess their answers'],
    ]);
    expect(sentToOpenAi()).toBe(before);
    const events = await waitFor(
      async () => hooks.verified(path, hook.secret),
      (e) => e.length === 1,
      30_000,
    );
    expect(events[0]).toMatchObject({
      type: 'interview.completed',
      data: { id, ai_assessment: 'declined', assessment: { status: 'declined' } },
    });
  });

  it('hears and assesses an interview whose candidate did not decline, on the same stack', async () => {
    const { key } = await stack.newWorkspace('Allowco');
    const { path: link, get } = await invitedInterview(stack, key, 'allow-ai', QUESTIONS);
    const before = stub.requests.map((r) => r.path);
    const done = await answerAll(link, get);
    expect(done.assessment.status).toBe('completed');
    expect(done.assessment.questions[1].transcript).toBe('We rolled the deploy back in ten minutes.');
    const sent = stub.requests.map((r) => r.path).slice(before.length);
    expect(sent.sort()).toEqual(['/v1/audio/transcriptions', '/v1/chat/completions']);
    // The transcript stays in the database: no workflow history of the stack carries it (docs/erasure.md).
    const histories: string[] = [];
    for await (const wf of stack.temporal.workflow.list({ query: `TaskQueue = '${stack.config.TEMPORAL_TASK_QUEUE}'` })) {
      histories.push(historyText(await stack.temporal.workflow.getHandle(wf.workflowId, wf.runId).fetchHistory()));
    }
    expect(histories.length).toBeGreaterThan(0);
    expect(histories.filter((h) => h.includes('rolled the deploy back'))).toEqual([]);
  });

  it('names the workspace’s contact address, and shows the consent box beside its label on a phone', async () => {
    const { key } = await stack.newWorkspace('Contactco');
    const { path: link } = await invitedInterview(stack, key, 'contact-address', QUESTIONS);
    expect(await (await fetch(stack.url + link)).text()).toContain(`at Contactco Inc, ${stack.config.EMAIL_FROM}.`);
    const set = await stack.request('PATCH', '/api/public/v1/workspace', { key, body: { contact_email: 'privacy@contactco.example' } });
    expect(set.body.data.settings.contact_email).toBe('privacy@contactco.example');
    const { page, errors } = await openPage(browser, PHONE);
    await page.goto(stack.url + link);
    expect(await page.content()).toContain('at Contactco Inc, privacy@contactco.example.');
    const [box, label] = await Promise.all(
      ['#consent', 'label[for=consent]'].map((s) => page.$eval(s, (e) => e.getBoundingClientRect().toJSON())),
    );
    // Beside it: the box ends before the label begins, and their lines overlap.
    expect(box.right).toBeLessThanOrEqual(label.left);
    expect(box.top).toBeLessThan(label.bottom);
    expect(label.top).toBeLessThan(box.bottom);
    expect(await scrollsSideways(page)).toBe(false);
    expect(await axeViolations(page)).toEqual([]);
    await keepScreenshot(page, 'interview-welcome-choice-phone');
    expect(errors).toEqual([]);
  });
});
