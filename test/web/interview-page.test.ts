import { request } from 'node:http';
import type { Browser, Page } from 'puppeteer-core';
import { startStack, type Stack } from '../helpers/stack';
import { inviteBody, inviteCandidate } from '../helpers/invite';
import { waitFor } from '../helpers/wait';
import { DESKTOP, PHONE, axeViolations, keepScreenshot, launchBrowser, openPage, scrollsSideways } from '../helpers/browser';
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
  async function invited(job: string) {
    const res = await stack.request('POST', '/api/public/v1/interview/invite', {
      key,
      body: inviteBody([inviteCandidate(1)], { ats_job_id: job, questions }),
    });
    expect(res.status).toBe(200);
    const id = res.body.data.interviews[0].id as string;
    const get = () => stack.request('GET', `/api/public/v1/interviews/${id}`, { key });
    const interview = (await waitFor(get, (r) => r.body.data.status === 'invited')).body.data;
    return { id, path: new URL(interview.interview_url).pathname, get };
  }

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
    expect(res?.headers()['referrer-policy']).toBe('no-referrer');
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

    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
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

    // The spoken question, answered by typing on this page.
    expect(await heading(page)).toBe('How do you test a streaming job?');
    expect(await page.$eval('.hint', (h) => h.textContent)).toContain('type your answer');
    await submit(page, 'Replay a recorded topic into a test cluster.');

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
      [1, 'audio', 'Replay a recorded topic into a test cluster.', false],
      [2, 'text', null, true],
    ]);
  });

  it('refuses a form posted from another site, and shows an unknown link as a 404 page', async () => {
    const { path, get } = await invited('interview-refusals');
    // Posted as a browser posts from another site's page (fetch() may not set these headers itself).
    const forgeries: Array<Record<string, string>> = [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }];
    for (const headers of forgeries) {
      const forged = await post(stack.url + path + '/start', headers);
      expect(forged.status).toBe(403);
      expect(forged.type).toMatch(/^text\/html/);
    }
    expect((await get()).body.data.status).toBe('invited');
    // From its own page, the same post starts the interview.
    expect((await post(stack.url + path + '/start', { origin: stack.url, 'sec-fetch-site': 'same-origin' })).status).toBe(303);
    expect((await get()).body.data.status).toBe('started');

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

  it('passes axe-core on a desktop too', async () => {
    const { path } = await invited('interview-desktop');
    const { page } = await openPage(browser, DESKTOP);
    await page.goto(stack.url + path);
    expect(await axeViolations(page)).toEqual([]);
    await keepScreenshot(page, 'interview-welcome-desktop');
  });
});

/** A form post with exactly these headers, as node:http sends them. */
function post(url: string, headers: Record<string, string>): Promise<{ status: number; type: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']) }));
    });
    req.on('error', reject);
    req.end('');
  });
}
