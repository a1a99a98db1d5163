import type { Browser, Page } from 'puppeteer-core';
import { startStack, type Stack } from '../helpers/stack';
import { LIVE_PAGE_QUESTIONS as questions, invitedLive, spokenWavFile } from '../helpers/live-client';
import { SPOKEN_ANSWER as SAID, adapterFor, startRealtimeStandIn, type RealtimeStandIn } from '../helpers/openai-realtime-wire';
import { waitFor } from '../helpers/wait';
import { PHONE, agreeAndStart, launchBrowser, openPage } from '../helpers/browser';

/**
 * A live interview in a real browser (docs/live-interviews.md): Chromium's fake microphone plays a spoken
 * answer made by espeak-ng and a pause, looped; the real OpenAI Realtime adapter relays it to a local stand-in
 * speaking OpenAI's wire protocol over TLS, which hears each loop as one of the candidate's turns. The page
 * checks the microphone, holds the conversation over its socket and shows both sides' captions.
 */
describe('the live interview page, resumed or written instead', () => {
  let stack: Stack;
  let browser: Browser;
  let denied: Browser;
  let key: string;
  let standIn: RealtimeStandIn;
  beforeAll(async () => {
    const wav = spokenWavFile(SAID);
    standIn = await startRealtimeStandIn(SAID);
    stack = await startStack({ worker: true, realtime: adapterFor(standIn) });
    [browser, denied] = await Promise.all([launchBrowser({ microphoneFile: wav }), launchBrowser({ denyMicrophone: true })]);
    ({ key } = await stack.newWorkspace('Live Pages'));
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), denied?.close()]);
    await stack?.stop();
    await standIn?.stop();
  });

  /** Records every WebSocket the page opens (test instrumentation, through the DevTools protocol): the test can drop one. */
  const watchSockets = (page: Page) =>
    page.evaluateOnNewDocument(() => {
      const Native = window.WebSocket;
      const opened: WebSocket[] = ((window as any).openedSockets = []);
      window.WebSocket = class extends Native {
        constructor(url: string | URL, protocols?: string | string[]) {
          super(url, protocols);
          opened.push(this);
        }
      } as typeof WebSocket;
    });
  const talk = async (page: Page) => {
    await page.click('[data-action=check]');
    await page.waitForSelector('[data-action=begin]:not([hidden])', { timeout: 15_000 });
    await page.click('[data-action=begin]');
  };
  const captions = (page: Page) => page.$$eval('.captions li', (li) => li.map((l) => l.textContent ?? ''));

  const status = (page: Page) => page.$eval('[data-role=status]', (p) => p.textContent);

  it('shows "Reconnecting…" when its socket drops mid-answer, and resumes at that question', async () => {
    const live = await invitedLive(stack, key, 'live-page-drop', questions, { follow_ups_per_question: 3 });
    const { page, errors } = await openPage(browser, PHONE);
    await watchSockets(page);
    await agreeAndStart(page, stack.url + live.path);
    await talk(page);
    await page.waitForFunction(() => Array.from(document.querySelectorAll('.captions li')).some((l) => l.textContent?.startsWith('You:')), {
      timeout: 20_000,
    });
    await page.evaluate(() => (window as any).openedSockets.at(-1).close());
    await page.waitForFunction(() => document.querySelector('[data-role=status]')?.textContent === 'Reconnecting…', { timeout: 5_000 });
    await page.waitForFunction(
      () => Array.from(document.querySelectorAll('.captions li')).some((l) => l.textContent?.includes('Here is the question again')),
      { timeout: 20_000 },
    );
    expect((await captions(page)).filter((c) => c.includes('Here is the question again'))[0]).toContain(
      'Tell us about a pipeline you built.',
    );
    expect(await page.evaluate(() => (window as any).openedSockets.length)).toBe(2);
    expect((await live.get()).body.data.answers).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('resumes from the link after the tab was closed, at the first unanswered question', async () => {
    const three = [...questions, { question: 'What would you change first?', type: 'text', time_limit_seconds: 120 }];
    const live = await invitedLive(stack, key, 'live-page-tab', three, { follow_ups_per_question: 0 });
    const first = await openPage(browser, PHONE);
    await agreeAndStart(first.page, stack.url + live.path);
    await talk(first.page);
    // An answer lands, then the tab is closed (the looped microphone may have answered one more meanwhile).
    await waitFor(live.get, (r) => r.body.data.answers.length >= 1, 30_000);
    await first.page.close();
    const answered = (await live.get()).body.data.answers.length;
    expect(answered).toBeLessThan(3);
    const again = await openPage(browser, PHONE);
    await again.page.goto(stack.url + live.path);
    expect(await again.page.$eval('h1', (h) => h.textContent)).toBe(`Question ${answered + 1} of 3`);
    await talk(again.page);
    await waitFor(live.get, (r) => r.body.data.status === 'completed', 45_000);
    const done = (await live.get()).body.data;
    expect(done.answers.map((a: { index: number }) => a.index)).toEqual([0, 1, 2]);
    expect(again.errors).toEqual([]);
  });

  it('offers written answers when the microphone is denied, and takes them on the page', async () => {
    const live = await invitedLive(stack, key, 'live-page-denied', questions);
    const { page, errors } = await openPage(denied, PHONE);
    await agreeAndStart(page, stack.url + live.path);
    await page.click('[data-action=check]');
    await page.waitForFunction(() => document.querySelector('[data-role=status]')?.textContent?.includes('not allowed'), {
      timeout: 10_000,
    });
    expect(await status(page)).toContain('answer in writing instead');
    await Promise.all([page.waitForNavigation(), page.click('form[action$="/live/switch"] button')]);
    // The rest as an async interview: the first question's time starts when it is opened, then its typed answer.
    expect(await page.$eval('h1', (h) => h.textContent)).toBe('Question 1 of 2');
    await Promise.all([page.waitForNavigation(), page.click('form[action$="/next"] button')]);
    expect(await page.$eval('h1', (h) => h.textContent)).toBe('Tell us about a pipeline you built.');
    await page.type('#answer', 'A nightly batch into a warehouse.');
    await Promise.all([page.waitForNavigation(), page.click('form[action$="/answers/0"] button[type=submit]')]);
    const now = (await live.get()).body.data;
    expect(now.answers[0]).toMatchObject({ text: 'A nightly batch into a warehouse.', turns: [] });
    expect(errors).toEqual([]);
  });
});
