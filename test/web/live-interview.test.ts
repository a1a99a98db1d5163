import type { Browser } from 'puppeteer-core';
import { startStack, type Stack } from '../helpers/stack';
import { LIVE_PAGE_QUESTIONS as questions, invitedLive, spokenWavFile } from '../helpers/live-client';
import { SPOKEN_ANSWER as SAID, adapterFor, startRealtimeStandIn, type RealtimeStandIn } from '../helpers/openai-realtime-wire';
import { registerWebhook, startReceiver, type Receiver } from '../helpers/webhook-receiver';
import { waitFor } from '../helpers/wait';
import { parseExposition } from '../helpers/prometheus';
import { PHONE, agreeAndStart, axeViolations, keepScreenshot, launchBrowser, openPage, scrollsSideways } from '../helpers/browser';

/**
 * A live interview in a real browser (docs/live-interviews.md): Chromium's fake microphone plays a spoken
 * answer made by espeak-ng and a pause, looped; the real OpenAI Realtime adapter relays it to a local stand-in
 * speaking OpenAI's wire protocol over TLS, which hears each loop as one of the candidate's turns. The page
 * checks the microphone, holds the conversation over its socket and shows both sides' captions.
 */
describe('the live interview page', () => {
  let stack: Stack;
  let browser: Browser;
  let key: string;
  let standIn: RealtimeStandIn;
  let hooks: Receiver;
  let hook: { secret: string; path: string };
  beforeAll(async () => {
    const wav = spokenWavFile(SAID);
    standIn = await startRealtimeStandIn(SAID);
    stack = await startStack({ worker: true, realtime: adapterFor(standIn) });
    browser = await launchBrowser({ microphoneFile: wav });
    ({ key } = await stack.newWorkspace('Live Pages'));
    hooks = await startReceiver();
    const path = hooks.newPath();
    const { secret } = await registerWebhook(stack, key, { url: hooks.stub.url + path });
    hook = { secret, path };
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await standIn?.stop();
    await hooks?.close();
  });

  it('checks the microphone, then holds the conversation with captions to the end, and the answers land in the interview', async () => {
    const live = await invitedLive(stack, key, 'live-page-whole', questions, { follow_ups_per_question: 0 });
    const count = async (name: string, part?: string) =>
      parseExposition(await stack.modules.metrics.registry.metrics()).find((s) => s.name === name && (!part || s.labels.part === part))
        ?.value ?? 0;
    const waited = {
      greeting: await count('hiring_live_first_audio_seconds_count'),
      reply: await count('hiring_live_response_latency_seconds_count', 'total'),
    };
    const { page, errors } = await openPage(browser, PHONE);
    await page.goto(stack.url + live.path);
    expect(await page.$eval('form[action$="/start"]', (f) => f.textContent)).toContain('your conversation with the AI interviewer');
    await agreeAndStart(page, stack.url + live.path);

    // Nothing is asked of the microphone, and no socket opened, until the candidate presses the button.
    expect(await page.$eval('[data-role=talk]', (s) => (s as HTMLElement).hidden)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
    await keepScreenshot(page, 'live-interview-check-phone');
    await page.click('[data-action=check]');
    await page.waitForSelector('[data-action=begin]:not([hidden])', { timeout: 15_000 });
    expect(await page.$eval('[data-role=level]', (m) => (m as HTMLMeterElement).value)).toBeGreaterThanOrEqual(0);
    await page.click('[data-action=begin]');
    const began = Date.now();

    // The greeting's caption says it is an AI. The looped microphone may start before it, and captions stand in the
    // order each side began, so it is the interviewer's caption, not the first.
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll('.captions li')).some(
          (li) => li.textContent?.startsWith('Interviewer: ') && li.textContent.includes('I am an AI interviewer for Live Pages'),
        ),
      { timeout: 15_000 },
    );
    await keepScreenshot(page, 'live-interview-conversation-phone');
    expect(await axeViolations(page)).toEqual([]);

    // The looped microphone answers each question; the last answer finishes the interview and the page shows so.
    const done = (await waitFor(live.get, (r) => r.body.data.status === 'completed', 45_000)).body.data;
    expect(done.answers).toHaveLength(2);
    for (const a of done.answers) {
      expect(a.text).toBe(SAID);
      expect(a.turns.map((t: { who: string }) => t.who)).toContain('candidate');
    }
    const lasted = (Date.now() - began) / 1000;
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Interview completed', { timeout: 15_000 });
    // The recording of both voices is about as long as the conversation the browser held in real time.
    const wav = await fetch(`${stack.url}/api/public/v1/interviews/${live.id}/recording`, { headers: { 'x-service-api-key': key } });
    const seconds = (Number(wav.headers.get('content-length')) - 44) / 48_000;
    expect(seconds).toBeGreaterThan(lasted * 0.6);
    expect(seconds).toBeLessThan(lasted * 1.2 + 2);
    expect(errors).toEqual([]);
    // The page measured what the candidate waited for: the greeting after Start, and the reply to an answer.
    expect(await count('hiring_live_first_audio_seconds_count')).toBe(waited.greeting + 1);
    expect(await count('hiring_live_response_latency_seconds_count', 'total')).toBeGreaterThan(waited.reply);

    // Each of the interview's events reached the ATS once, the last with the assessment made on the server.
    const mine = await waitFor(
      async () => hooks.verified(hook.path, hook.secret).filter((e) => e.data.id === live.id),
      (es) => es.some((e) => e.type === 'interview.completed'),
    );
    expect(mine.map((e) => e.type)).toEqual(['interview.invited', 'interview.started', 'interview.completed']);
    expect(new Set(mine.map((e) => e.id)).size).toBe(3);
    const completed = mine.find((e) => e.type === 'interview.completed')!.data;
    expect(completed.interview_mode).toBe('live');
    expect(completed.assessment.status).toBe('completed');
    expect(completed.answers[0].turns.length).toBeGreaterThanOrEqual(2);
  });
});
