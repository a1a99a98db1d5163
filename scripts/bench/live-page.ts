import { startRealtimeStandIn } from '../../test/helpers/openai-realtime-wire';
import { toneWavFile } from '../../test/helpers/live-client';
import { launchBrowser, PHONE, openPage, agreeAndStart } from '../../test/helpers/browser';
import { parseExposition } from '../../test/helpers/prometheus';
import type { BenchStack } from './stack';
import { invitedLive, realtimeApi } from './live';

export interface LivePageResult {
  conversations: number;
  /** From the end of each answer to the reply's first sound, as each page measured it, ms. */
  responseMs: number[];
  /** From "Start the conversation" to the greeting's first sound, ms. */
  firstAudioMs: number[];
  /** The mean of the response time less the provider's own, as the API counted it (hiring_live_response_latency_seconds{part="ours"}), ms. */
  oursMeanMs: number;
}

/** The microphone: the check's stretch, then three answers of 1.2 s, each after the reply to the last has had time to play. */
const MIC: Array<[number, number]> = [
  [0, 400],
  [3_500, 4_700],
  [8_000, 9_200],
  [12_500, 13_700],
];

/** Hands the page's `first_sound` reports to the bench as it sends them (the page reloads once the interview ends). */
function tapReports(): void {
  const report = (window as unknown as { __benchReport(r: unknown): void }).__benchReport;
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (this: WebSocket, data: Parameters<WebSocket['send']>[0]) {
    if (typeof data === 'string' && data.includes('first_sound')) report(JSON.parse(data));
    return send.call(this, data);
  };
}

/**
 * What a candidate waits for, in Chromium (docs/live-interviews.md#latency): `count` conversations one after
 * the other on an API process of their own, through the OpenAI adapter and its wire stand-in, each page's fake
 * microphone answering three times. Each page reports the greeting's first sound after Start and each reply's
 * after the end of an answer; the API's histogram gives our share.
 */
export async function livePage(stack: BenchStack, count: number): Promise<LivePageResult> {
  const standIn = await startRealtimeStandIn(undefined, { audible: true });
  const { api, url } = await realtimeApi(stack, standIn, 'live-page');
  const browser = await launchBrowser({ microphoneFile: toneWavFile(MIC, 16_000) });
  const responseMs: number[] = [];
  const firstAudioMs: number[] = [];
  try {
    // 500 at once: holds the relay's conversations left behind, if their process stopped first, refuse none of these.
    const paths = await invitedLive(stack, count, 500, 'live-page', 0);
    const ids = [...paths.keys()];
    for (const id of ids) {
      const { page } = await openPage(browser, PHONE);
      await page.exposeFunction('__benchReport', (r: { after: string; ms: number }) =>
        (r.after === 'start' ? firstAudioMs : responseMs).push(r.ms),
      );
      await page.evaluateOnNewDocument(tapReports);
      await agreeAndStart(page, url + paths.get(id)!);
      await page.click('[data-action=check]');
      await page.waitForSelector('[data-action=begin]:not([hidden])', { timeout: 15_000 });
      // The check's loud stretch over before the conversation hears the microphone.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await page.click('[data-action=begin]');
      await page
        .waitForFunction(() => document.querySelector('h1')?.textContent === 'Interview completed', { timeout: 60_000 })
        .catch(async (err: unknown) => {
          throw new Error(`a conversation did not end: ${await page.evaluate(() => document.body.innerText)}`, { cause: err });
        });
      await page.close();
    }
  } finally {
    await browser.close();
  }
  const metrics = parseExposition(await (await fetch(api.metricsUrl!)).text());
  const value = (name: string, part?: string) => metrics.find((s) => s.name === name && (!part || s.labels.part === part))?.value ?? 0;
  const oursMeanMs =
    (1000 * value('hiring_live_response_latency_seconds_sum', 'ours')) /
    Math.max(1, value('hiring_live_response_latency_seconds_count', 'ours'));
  await api.stop();
  await standIn.stop();
  return { conversations: count, responseMs, firstAudioMs, oursMeanMs };
}
