import { request } from 'node:http';
import type { Browser, Page } from 'puppeteer-core';
import { startStack, type Stack } from '../helpers/stack';
import { invitedInterview } from '../helpers/invite';
import { PHONE, agreeAndStart, axeViolations, launchBrowser, openPage } from '../helpers/browser';

/**
 * Recorded answers that are refused, with a limit of 1 KB so a real recording is over it: the page explains
 * each refusal and keeps the typed answer, and the server takes no bytes it should not.
 */
describe('recorded answers that are refused', () => {
  let stack: Stack;
  let browser: Browser;
  let key: string;
  beforeAll(async () => {
    stack = await startStack({ worker: true, env: { RECORDING_MAX_BYTES: '1000' } });
    browser = await launchBrowser();
    ({ key } = await stack.newWorkspace('Refusals'));
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  async function startedInterview(job: string, page: Page) {
    const questions = [1, 2].map((n) => ({ question: `Spoken question ${n}?`, type: 'audio', time_limit_seconds: 120 }));
    const { path, get } = await invitedInterview(stack, key, job, questions);
    await page.goto(stack.url + path);
    await agreeAndStart(page);
    return { path, get };
  }
  const statusText = (page: Page) => page.$eval('[data-role=status]', (s) => s.textContent);

  it('explains a recording over the limit and a refused microphone, and takes the typed answer instead', async () => {
    const { page, errors } = await openPage(browser, PHONE);
    const { path, get } = await startedInterview('refusals-browser', page);
    await page.waitForSelector('.recorder:not([hidden])');
    await page.click('[data-action=record]');
    await new Promise((r) => setTimeout(r, 1_500));
    await page.click('[data-action=stop]');
    await page.waitForSelector('[data-action=upload]:not([hidden])');
    await page.click('[data-action=upload]');
    await page.waitForFunction(() => document.querySelector('[data-role=status]')?.textContent?.includes('larger than'));
    expect(await statusText(page)).toBe('The recording is larger than 1 KB. Record a shorter answer, or type it instead.');
    expect(errors.splice(0)).toEqual([expect.stringContaining('answered 413'), expect.stringContaining('status of 413')]);
    expect((await get()).body.data.answers).toEqual([]);

    // Typed instead; then on the next question the browser refuses the microphone.
    await page.evaluateOnNewDocument(() => {
      navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
    });
    await page.type('#answer', 'I replay a recorded topic.');
    await Promise.all([page.waitForNavigation(), page.click('form.typed button[type=submit]')]);
    expect(await page.$eval('h1', (h) => h.textContent)).toBe('Spoken question 2?');
    await page.click('[data-action=record]');
    await page.waitForFunction(() => document.querySelector('[data-role=status]')?.textContent?.includes('not allowed'));
    expect(await statusText(page)).toBe('This page was not allowed to use your microphone. Type your answer below instead.');
    expect(await page.$eval('[data-action=record]', (b) => (b as HTMLElement).hidden)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await page.type('#answer', 'Typed, as the page offered.');
    await Promise.all([page.waitForNavigation(), page.click('form.typed button[type=submit]')]);
    expect(await page.$eval('h1', (h) => h.textContent)).toBe('You have answered every question');
    expect((await get()).body.data.answers.map((a: any) => a.text)).toEqual(['I replay a recorded topic.', 'Typed, as the page offered.']);
    expect(errors).toEqual([]);
    expect(path).toMatch(/^\/interview\//);
  });

  it('refuses a file whose bytes are not the declared type, and a type it does not take, storing nothing', async () => {
    const { page } = await openPage(browser, PHONE);
    const { path } = await startedInterview('refusals-types', page);
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
    const notWebm = await upload(`${stack.url}${path}/answers/0/recording`, 'audio/webm', png);
    expect(notWebm.status).toBe(415);
    expect(JSON.parse(notWebm.body).message).toBe(
      'The file is not audio/webm: its first bytes are not that kind of recording. Record again, or type your answer instead.',
    );
    const text = await upload(`${stack.url}${path}/answers/0/recording`, 'text/plain', Buffer.from('hello'));
    expect(text.status).toBe(415);
    // From another site: refused, in the same {message} shape the page's script shows.
    const forged = await upload(
      `${stack.url}${path}/answers/0/recording`,
      'audio/webm',
      Buffer.from([0x1a, 0x45, 0xdf, 0xa3]),
      false,
      'cross-site',
    );
    expect(forged.status).toBe(403);
    expect(JSON.parse(forged.body).message).toBe('This form can only be sent from its own page.');
    const webmHead = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(5_000)]);
    const tooLarge = await upload(`${stack.url}${path}/answers/0/recording`, 'audio/webm', webmHead);
    expect(tooLarge.status).toBe(413);
    // Sent in chunks with no length declared: refused once past the limit, and still a 413 the page can show.
    const streamed = await upload(`${stack.url}${path}/answers/0/recording`, 'audio/webm', webmHead.subarray(0, 1_500), true);
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body).message).toBe('The recording is larger than 1 KB. Record a shorter answer, or type it instead.');
    expect(await stack.db.recordings.countDocuments({ interview_id: path.split('/').pop()!.split('.')[0] })).toBe(0);
  });
});

/** A recording upload as the page's script makes it (same-origin), its body written in one piece. */
function upload(url: string, type: string, body: Buffer, chunked = false, site = 'same-origin'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': type, 'sec-fetch-site': site, ...(chunked ? { 'transfer-encoding': 'chunked' } : {}) };
    const req = request(url, { method: 'POST', headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(parts).toString('utf8') }));
    });
    req.on('error', reject);
    if (!chunked) return void req.end(body);
    // Written in pieces, as a client streams a file whose length it does not know.
    for (let at = 0; at < body.length; at += 256) req.write(body.subarray(at, at + 256));
    req.end();
  });
}
