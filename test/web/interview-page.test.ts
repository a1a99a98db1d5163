import { RUBRIC_VERSION } from '../../shared/interviews/assessment';
import { CONSENT_TEXT_VERSION } from '../../shared/interviews/consent';
import type { Browser, Page } from 'puppeteer-core';
import { startStack, type Stack } from '../helpers/stack';
import { invitedInterview } from '../helpers/invite';
import { waitFor } from '../helpers/wait';
import { postForm as post } from '../helpers/form-post';
import { DESKTOP, PHONE, agreeAndStart, axeViolations, keepScreenshot, launchBrowser, openPage, scrollsSideways } from '../helpers/browser';
import { ANSWER_GRACE_SECONDS } from '../../shared/interviews/session';

/**
 * The candidate's interview at interview_url, in a real browser on a phone-sized screen, against the real API,
 * worker, database and Temporal. The pages' clock is the test's, so a late answer takes no real waiting.
 */
describe('the interview page', () => {
  let stack: Stack;
  let browser: Browser;
  let key: string;
  let skew = 0;
  const questions = [
    { question: 'Tell us about a pipeline you <b>own</b>.', type: 'text', time_limit_seconds: 120 },
    { question: 'How do you test a streaming job?', type: 'audio', time_limit_seconds: 60 },
    { question: 'What would you change first here?', type: 'text', time_limit_seconds: 30 },
  ];
  beforeAll(async () => {
    stack = await startStack({ worker: true, now: () => new Date(Date.now() + skew) });
    browser = await launchBrowser();
    ({ key } = await stack.newWorkspace('Interviewco'));
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  /** One invited candidate of a job of its own; its interview once the link is sent. */
  const invited = (job: string) => invitedInterview(stack, key, job, questions);

  const heading = (page: Page) => page.$eval('h1', (h) => h.textContent);
  async function submit(page: Page, answer: string) {
    await page.type('#answer', answer);
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
  }

  it('takes a candidate from the emailed link through every question, across a reload, to the end', async () => {
    const { path, get } = await invited('interview-flow');
    const { page, errors } = await openPage(browser, PHONE);

    const res = await page.goto(stack.url + path);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['referrer-policy']).toBe('same-origin');
    expect(res?.headers()['cache-control']).toBe('no-store');
    expect(await heading(page)).toBe('Senior Data Engineer');
    expect(await page.$$eval('.questions li', (li) => li.map((l) => l.textContent))).toEqual([
      'Written answer, 2 min',
      'Spoken answer, 1 min',
      'Written answer, 30 s',
    ]);
    expect(await axeViolations(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
    await keepScreenshot(page, 'interview-welcome-phone');

    await agreeAndStart(page);
    expect(await heading(page)).toBe('Tell us about a pipeline you <b>own</b>.');
    expect(await page.$eval('[data-seconds-left]', (s) => Number(s.getAttribute('data-seconds-left')))).toBeGreaterThan(110);
    expect(await page.$eval('label[for=answer]', (l) => l.textContent)).toBe('Your answer');
    expect(await axeViolations(page)).toEqual([]);
    await keepScreenshot(page, 'interview-question-phone');
    expect((await get()).body.data).toMatchObject({ status: 'started', started_at: expect.any(String), answers: [] });

    // An empty answer is refused on the page, and nothing is saved.
    await page.$eval('#answer', (t) => t.removeAttribute('required'));
    const [empty] = await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    expect(empty?.status()).toBe(422);
    expect(await page.$eval('#answer-error', (e) => e.textContent)).toBe('Please write an answer before you submit it.');
    expect(await axeViolations(page)).toEqual([]);
    // Chromium logs the 422 of the refused form; it is the one error this walk expects.
    expect(errors.splice(0)).toEqual([expect.stringContaining('status of 422')]);
    await submit(page, 'Nightly batch of 2 TB, then streaming with Flink.');

    // The spoken question: recorded from the browser's (fake) microphone, played back, and submitted.
    expect(await heading(page)).toBe('How do you test a streaming job?');
    await page.waitForSelector('.recorder:not([hidden])');
    expect(await axeViolations(page)).toEqual([]);
    await page.click('[data-action=record]');
    await page.waitForSelector('[data-action=stop]:not([hidden])');
    await new Promise((r) => setTimeout(r, 1_500));
    await page.click('[data-action=stop]');
    await page.waitForSelector('[data-action=upload]:not([hidden])');
    expect(await page.$eval('[data-role=preview]', (a) => (a as HTMLMediaElement).src)).toMatch(/^blob:/);
    await keepScreenshot(page, 'interview-recorded-phone');
    await Promise.all([page.waitForNavigation(), page.click('[data-action=upload]')]);

    // A reload comes back to the same question, with its clock running from when it was first shown.
    expect(await heading(page)).toBe('What would you change first here?');
    await page.reload();
    expect(await heading(page)).toBe('What would you change first here?');

    // Past its 30 s and the grace: refused, recorded as timed out, and said so.
    skew += (30 + ANSWER_GRACE_SECONDS + 1) * 1_000;
    await submit(page, 'Too late.');
    expect(await heading(page)).toBe('You have answered every question');
    expect(await page.$eval('.notice', (n) => n.textContent)).toBe(
      'Your answer to question 3 arrived after its time limit, so it was not saved.',
    );
    await keepScreenshot(page, 'interview-finish-phone');

    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    expect(await heading(page)).toBe('Interview completed');
    expect(await axeViolations(page)).toEqual([]);
    await keepScreenshot(page, 'interview-completed-phone');
    // Opened again: still completed, nothing to answer.
    await page.goto(stack.url + path);
    expect(await heading(page)).toBe('Interview completed');
    expect(errors).toEqual([]);

    const done = (await get()).body.data;
    expect(done).toMatchObject({ status: 'completed', started_at: expect.any(String), completed_at: expect.any(String) });
    expect(done.answers.map((a: any) => [a.index, a.type, a.text, a.timed_out])).toEqual([
      [0, 'text', 'Nightly batch of 2 TB, then streaming with Flink.', false],
      [1, 'audio', null, false],
      [2, 'text', null, true],
    ]);
    expect(done.answers[1].duration_seconds).toBeGreaterThan(1);

    // The finish told the interview's workflow, which assessed the answers: offline here, so the recording,
    // with no transcriber, is not assessed, and says why.
    const { assessment } = (await waitFor(get, (r) => r.body.data.assessment?.status === 'completed')).body.data;
    expect(assessment).toMatchObject({ provider: 'offline', error: null, overall: { score: expect.any(Number) } });
    // Who assessed, in full: the offline rules have no model, and the rubric's version is the service's.
    expect(assessment.assessor).toEqual({
      kind: 'offline',
      model: null,
      prompt_version: expect.any(String),
      rubric_version: RUBRIC_VERSION,
    });
    // The recording (no transcriber) was answered but not read: a person is asked to listen.
    expect(assessment.overall).toMatchObject({ answered: 2, needs_human_review: true });
    expect(assessment.questions.map((q: any) => [q.index, q.status, q.reason])).toEqual([
      [0, 'assessed', null],
      [1, 'not_assessed', 'The recording was not transcribed: no transcription service is configured'],
      [2, 'not_assessed', 'The answer arrived after the time limit'],
    ]);

    // The recording, downloaded with the workspace's key: a WebM file, and any byte range of it.
    const url = done.answers[1].recording_url as string;
    expect(url).toBe(`https://hiring.test/api/public/v1/interviews/${done.id}/answers/1/recording`);
    const local = stack.url + new URL(url).pathname;
    const whole = await fetch(local, { headers: { 'x-service-api-key': key } });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toMatch(/^audio\/webm/);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    // A candidate's upload is saved, not shown, never sniffed into another type, and sandboxed if rendered.
    const served = (r: Response) =>
      ['x-content-type-options', 'content-disposition', 'content-security-policy'].map((h) => r.headers.get(h));
    expect(served(whole)).toEqual(['nosniff', 'attachment; filename="answer-1.webm"', 'sandbox']);
    const bytes = Buffer.from(await whole.arrayBuffer());
    expect(bytes.subarray(0, 4)).toEqual(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]));
    expect(bytes.length).toBe(Number(whole.headers.get('content-length')));
    const part = await fetch(local, { headers: { 'x-service-api-key': key, range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(100, 200));
    const outside = await fetch(local, { headers: { 'x-service-api-key': key, range: `bytes=${bytes.length}-` } });
    expect(outside.status).toBe(416);
    // An invalid range is ignored, as RFC 9110 says: the whole file.
    const backwards = await fetch(local, { headers: { 'x-service-api-key': key, range: 'bytes=5-3' } });
    expect([backwards.status, backwards.headers.get('content-range'), (await backwards.arrayBuffer()).byteLength]).toEqual([
      200,
      null,
      bytes.length,
    ]);
    // Another workspace's key finds nothing.
    const other = await stack.newWorkspace('Elsewhere');
    expect((await fetch(local, { headers: { 'x-service-api-key': other.key } })).status).toBe(404);

    // On the project's dashboard, the answers show, the recording in a player that can seek.
    await page.goto(`${stack.url}/sign-in?next=/projects/${done.project_id}`);
    await page.type('#key', key);
    await Promise.all([page.waitForNavigation(), page.click('main button[type=submit]')]);
    await page.click('.rows details summary');
    const src = await page.$eval('.answers audio', (a) => (a as HTMLAudioElement).src);
    const seek = await page.evaluate(async (u) => {
      const res = await fetch(u, { headers: { range: 'bytes=4-7' } });
      const kept = ['x-content-type-options', 'content-disposition', 'content-security-policy'].map((h) => res.headers.get(h));
      return [res.status, res.headers.get('content-range'), new Uint8Array(await res.arrayBuffer()).length, ...kept];
    }, src);
    expect(seek).toEqual([206, `bytes 4-7/${bytes.length}`, 4, 'nosniff', 'attachment; filename="answer-1.webm"', 'sandbox']);
    expect(await page.$$eval('.answers li p', (p) => p.map((x) => x.textContent))).toContain(
      'Nightly batch of 2 TB, then streaming with Flink.',
    );
    expect(await page.$eval('.assessment', (d) => d.textContent)).toBe(
      `${assessment.overall.score} of 5, ${assessment.overall.recommendation} (offline)`,
    );
    expect(await page.$$eval('.answers .score p', (p) => p.map((x) => x.textContent))).toEqual([
      `${assessment.questions[0].score} of 5`,
      'Not assessed: The recording was not transcribed: no transcription service is configured',
    ]);
    expect(await axeViolations(page)).toEqual([]);
    await keepScreenshot(page, 'dashboard-interview-phone');
  });

  it('refuses a form posted from another site, and shows an unknown link as a 404 page', async () => {
    const { path, get } = await invited('interview-refusals');
    // Posted as a browser posts from another site's page (fetch() may not set these headers itself).
    // "null" is what a sandboxed frame or a data: page sends; our pages' own forms name our origin.
    const forgeries: Array<Record<string, string>> = [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'null' },
      { origin: 'null', 'sec-fetch-site': 'same-origin' },
    ];
    for (const headers of forgeries) {
      const forged = await post(stack.url + path + '/start', headers);
      expect(forged.status).toBe(403);
      expect(forged.type).toMatch(/^text\/html/);
    }
    expect((await get()).body.data.status).toBe('invited');
    // From its own page without the consent box ticked: the page again, saying why, and nothing started.
    const unticked = await post(stack.url + path + '/start', { origin: stack.url, 'sec-fetch-site': 'same-origin' }, '');
    expect(unticked).toEqual({ status: 422, type: expect.stringMatching(/^text\/html/) });
    expect((await get()).body.data).toMatchObject({ status: 'invited', consent: null });
    // From its own page, the same post with consent starts the interview, and keeps the consent.
    expect((await post(stack.url + path + '/start', { origin: stack.url, 'sec-fetch-site': 'same-origin' })).status).toBe(303);
    expect((await get()).body.data).toMatchObject({
      status: 'started',
      consent: { given_at: expect.any(String), text_version: CONSENT_TEXT_VERSION },
    });

    for (const bad of [
      path.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
      '/interview/nothing',
      '/interview/int_000000000000000000000000.x',
    ]) {
      const { page } = await openPage(browser, DESKTOP);
      const res = await page.goto(stack.url + bad);
      expect(res?.status()).toBe(404);
      expect(await heading(page)).toBe('Page not found');
    }
  });

  it('records a question whose time ran out while the page was closed as timed out, once the candidate goes on', async () => {
    const { path, get } = await invited('interview-closed');
    const { page } = await openPage(browser, DESKTOP);
    await page.goto(stack.url + path);
    await agreeAndStart(page);
    expect(await page.$eval('h1', (h) => h.textContent)).toBe('Tell us about a pipeline you <b>own</b>.');
    skew += (120 + ANSWER_GRACE_SECONDS + 1) * 1_000;
    // Opening the link again says so, and records nothing until the candidate goes on.
    await page.goto(stack.url + path);
    expect(await page.$eval('h1', (h) => h.textContent)).toBe('The time for question 1 has run out');
    expect((await get()).body.data.answers).toEqual([]);
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    expect(await page.$eval('h1', (h) => h.textContent)).toBe('How do you test a streaming job?');
    expect(await page.$eval('.notice', (n) => n.textContent)).toBe(
      'Your answer to question 1 arrived after its time limit, so it was not saved.',
    );
    expect((await get()).body.data.answers.map((a: any) => [a.index, a.timed_out])).toEqual([[0, true]]);
  });

  it('keeps an answer of the longest length in any script', async () => {
    const { path, get } = await invited('interview-long');
    const { page } = await openPage(browser, DESKTOP);
    await page.goto(stack.url + path);
    await agreeAndStart(page);
    const long = '数据管道'.repeat(2_500);
    await page.$eval('#answer', (t, v) => ((t as HTMLTextAreaElement).value = v), long);
    await Promise.all([page.waitForNavigation(), page.click('form.typed button[type=submit]')]);
    expect(await page.$eval('h1', (h) => h.textContent)).toBe('How do you test a streaming job?');
    expect((await get()).body.data.answers[0].text).toBe(long);
  });

  it('shows an expired link as expired, with whom to ask for a new one, and takes no start from it', async () => {
    const { id, path, get } = await invited('interview-expired');
    // The link's deadline has passed (the workflow would mark it so at the deadline; the page need not wait).
    await stack.db.interviews.updateOne({ _id: id }, { $set: { expires_at: new Date(Date.now() + skew - 1_000) } });
    const { page } = await openPage(browser, PHONE);
    await page.goto(stack.url + path);
    expect(await page.$eval('h1', (h) => h.textContent)).toBe('This interview link has expired');
    expect(await page.$eval('main', (m) => m.textContent)).toContain(
      `please contact Ada Lovelace at Interviewco Inc, ${stack.config.EMAIL_FROM}, who can send you a new link`,
    );
    expect(await axeViolations(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
    await keepScreenshot(page, 'interview-expired-phone');
    // A workspace with a sender of its own is named by it, as its invitations came from it.
    const { workspace_id } = (await stack.request('GET', '/api/public/v1/workspace', { key })).body.data;
    await stack.stores.workspaces.setNumbers(workspace_id, { email_from: { email: 'people@interviewco.example', name: 'Interviewco' } });
    try {
      await page.goto(stack.url + path);
      expect(await page.$eval('main', (m) => m.textContent)).toContain(
        'please contact Ada Lovelace at Interviewco Inc, people@interviewco.example, who can',
      );
    } finally {
      await stack.stores.workspaces.setNumbers(workspace_id, { email_from: null });
    }
    const start = await post(`${stack.url}${path}/start`, { origin: stack.url });
    expect(start.status).toBe(303);
    expect((await get()).body.data).toMatchObject({ status: 'invited', started_at: null });
  });

  it('passes axe-core on a desktop too', async () => {
    const { path } = await invited('interview-desktop');
    const { page } = await openPage(browser, DESKTOP);
    await page.goto(stack.url + path);
    expect(await axeViolations(page)).toEqual([]);
    await keepScreenshot(page, 'interview-welcome-desktop');
  });
});
