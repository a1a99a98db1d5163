import type { Browser } from 'puppeteer-core';
import { startStack, type Stack } from '../helpers/stack';
import { invitedLive, toneWav } from '../helpers/live-client';
import { adapterFor, startRealtimeStandIn, type RealtimeStandIn } from '../helpers/openai-realtime-wire';
import { waitFor } from '../helpers/wait';
import { parseExposition } from '../helpers/prometheus';
import { PHONE, agreeAndStart, launchBrowser, openPage } from '../helpers/browser';
import { CUT_IN } from '../../shared/interviews/live';

/**
 * Cutting in, in a real browser (docs/live-interviews.md#cutting-in): the candidate's microphone plays a WAV of
 * loud stretches, a cough of 120 ms and then held speech, both while the interviewer's long first reply plays;
 * the real OpenAI adapter relays it to the wire stand-in, whose voice is a tone the page's audio graph can hear.
 * A probe the test adds before the page's script taps the page's own graph: the interviewer's voice where the
 * page plays it, and the microphone where the page reads it.
 *
 * The microphone is the probe's: getUserMedia gives the page a stream of the probe's own audio graph, which
 * plays the check's WAV at once and the answer's WAV from the interviewer's first sound. Chromium's fake
 * microphone plays a file looped from the moment it opens, so its cough landed before the reply whenever a
 * loaded machine began the reply late (CI runs saw 2 s, 3 s, then past 5 s).
 */
/**
 * Loud stretches, ms: the microphone check's, looped from getUserMedia until the page has heard it (its capture
 * may start late on a loaded machine); the answer's, from the interviewer's first sound.
 */
const MIC = { check: [0, 400], cough: [1_000, 1_120], speech: [1_900, 3_400], answer: 4_000 } as const;
const LONG_QUESTION = `Tell us about a data pipeline you built: ${'what it read, what it wrote, how it failed, and how you knew. '.repeat(15)}`;

/**
 * Installed before the page's script: the microphone (`wavs`, base64; `__checked()` ends the check's loop), and
 * the RMS, in 5 ms blocks, of the first gain node made (the page's voice) and of the microphone as the page
 * reads it. Each look reads the last 680 ms the analysers hold and keeps the blocks not yet kept, so a timer
 * that a loaded machine runs late loses none: a 5 ms timer reading only its own moment missed a whole cough.
 */
function probe(wavs: { check: string; answer: string }): void {
  const samples: Array<{ t: number; voice: number; mic: number }> = [];
  (window as unknown as { __probe: typeof samples }).__probe = samples;
  const proto = AudioContext.prototype;
  const createGain = proto.createGain;
  const createSource = proto.createMediaStreamSource;
  let voice: AnalyserNode | null = null;
  let mic: AnalyserNode | null = null;
  let answer: (() => void) | null = null;
  const HELD = 32_768;
  const voiced = new Float32Array(HELD);
  const heard = new Float32Array(HELD);
  const rms = (data: Float32Array, from: number, to: number) => {
    let sum = 0;
    for (let i = from; i < to; i++) sum += data[i] * data[i];
    return Math.sqrt(sum / (to - from));
  };
  let keptUntil = -Infinity;
  /** The blocks the analysers hold that end after the last one kept, oldest first. */
  const look = (context: AudioContext) => {
    const now = context.currentTime;
    const block = Math.round(context.sampleRate * 0.005);
    voice!.getFloatTimeDomainData(voiced);
    if (mic) mic.getFloatTimeDomainData(heard);
    for (let from = HELD % block; from + block <= HELD; from += block) {
      const t = now - (HELD - from - block) / context.sampleRate;
      if (t <= keptUntil) continue;
      samples.push({ t, voice: rms(voiced, from, from + block), mic: mic ? rms(heard, from, from + block) : 0 });
      keptUntil = t;
    }
  };
  navigator.mediaDevices.getUserMedia = async () => {
    const own = new AudioContext();
    const out = own.createMediaStreamDestination();
    const decode = (b64: string) => own.decodeAudioData(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)).buffer);
    const [check, spoken] = await Promise.all([decode(wavs.check), decode(wavs.answer)]);
    const play = (buffer: AudioBuffer, loop = false) => {
      const source = own.createBufferSource();
      source.buffer = buffer;
      source.loop = loop;
      source.connect(out);
      source.start();
      return source;
    };
    const checking = play(check, true);
    (window as unknown as { __checked: () => void }).__checked = () => checking.stop();
    answer = () => play(spoken);
    return out.stream;
  };
  proto.createGain = function (this: AudioContext) {
    const gain = createGain.call(this);
    if (!voice) {
      voice = this.createAnalyser();
      voice.fftSize = HELD;
      gain.connect(voice);
      setInterval(() => {
        const kept = samples.length;
        look(this);
        // The interviewer is heard: the candidate starts their answer, once.
        if (answer && samples.slice(kept).some((s) => s.voice > 0.01)) {
          answer();
          answer = null;
        }
      }, 20);
    }
    return gain;
  };
  proto.createMediaStreamSource = function (this: AudioContext, stream: MediaStream) {
    const source = createSource.call(this, stream);
    mic = this.createAnalyser();
    mic.fftSize = HELD;
    source.connect(mic);
    return source;
  };
}

describe('cutting in on the live interview page', () => {
  let stack: Stack;
  let browser: Browser;
  let key: string;
  let standIn: RealtimeStandIn;
  beforeAll(async () => {
    // Two words a delta: a slow reader, so the long question plays about 11 s.
    standIn = await startRealtimeStandIn(undefined, { audible: true, wordsPerDelta: 2 });
    stack = await startStack({ worker: true, realtime: adapterFor(standIn) });
    browser = await launchBrowser();
    ({ key } = await stack.newWorkspace('Cut In Co'));
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await standIn?.stop();
  });
  const count = async (outcome: string) =>
    parseExposition(await stack.modules.metrics.registry.metrics()).find(
      (s) => s.name === 'hiring_live_cut_ins_total' && s.labels.outcome === outcome,
    )?.value ?? 0;

  it('lowers the interviewer at a cough and lets it back up, stops it at held speech, and keeps of the reply only what played', async () => {
    const questions = [
      { question: LONG_QUESTION, type: 'text', time_limit_seconds: 300 },
      { question: 'How do you test a data model?', type: 'text', time_limit_seconds: 300 },
    ];
    const live = await invitedLive(stack, key, 'live-cut-in', questions, { follow_ups_per_question: 0 });
    const [stopped, ignored] = [await count('stopped'), await count('ignored')];
    const { page, errors } = await openPage(browser, PHONE);
    const wavs = {
      check: toneWav([[...MIC.check]], MIC.check[1]).toString('base64'),
      answer: toneWav([[...MIC.cough], [...MIC.speech]], MIC.answer).toString('base64'),
    };
    await page.evaluateOnNewDocument(probe, wavs);
    await agreeAndStart(page, stack.url + live.path);
    await page.click('[data-action=check]');
    await page.waitForSelector('[data-action=begin]:not([hidden])', { timeout: 15_000 });
    // The check's tone over before the conversation hears the microphone: it would be an answer.
    await page.evaluate(() => (window as unknown as { __checked: () => void }).__checked());
    await new Promise((resolve) => setTimeout(resolve, 300));
    await page.click('[data-action=begin]');

    // The stand-in gets the truncate once the page stopped the reply.
    const truncate = await waitFor(
      async () => standIn.events.find((e) => e.event.type === 'conversation.item.truncate')?.event,
      (e) => e !== undefined,
      20_000,
    );
    const samples = (await page.evaluate(() => (window as unknown as { __probe: unknown }).__probe)) as Array<{
      t: number;
      voice: number;
      mic: number;
    }>;
    const loud = (s: { mic: number }) => s.mic >= CUT_IN.rms;
    // The reply began where its voice was first heard; the held speech where the microphone was loud for 240 ms on end.
    const began = samples.find((s) => s.voice > 0.01)!;
    const runs: Array<{ from: number; to: number }> = [];
    for (const s of samples)
      if (!loud(s)) continue;
      // One run across a late probe or two (the page's timers slow under load): its frames are 20 ms apart.
      else if (runs.length && s.t - runs.at(-1)!.to < 0.1) runs.at(-1)!.to = s.t;
      else runs.push({ from: s.t, to: s.t });
    const during = runs.filter((r) => r.from > began.t);
    // The held speech is the longest loud run; the cough, the short one before it (of 120 ms: not a block's click,
    // which the probe's whole record catches as the answer's source starts).
    const speech = during.reduce<(typeof during)[number] | undefined>((a, r) => (!a || r.to - r.from > a.to - a.from ? r : a), undefined)!;
    const cough = during.find((r) => r.from < speech?.from && r.to - r.from >= 0.05 && r.to - r.from < 0.2)!;
    // What the probe heard, when it did not hear both: the loud runs, and the longest gap in its record.
    const gaps = samples.slice(1).map((s, i) => s.t - samples[i].t);
    expect({ cough: cough !== undefined, speech: speech !== undefined }).toEqual({
      cough: true,
      speech: true,
      ...(cough && speech ? {} : { runs: during, began: began.t, longestGap: Math.max(...gaps) }),
    });
    expect(cough.from).toBeLessThan(speech.from);
    const level = (from: number, to: number) => {
      const within = samples.filter((s) => s.t >= from && s.t < to);
      if (within.length === 0) throw new Error(`no sample of the page's voice from ${from} to ${to} s`);
      return Math.max(...within.map((s) => s.voice));
    };
    const full = level(began.t + 0.1, cough.from - 0.05);
    // The cough brought the voice down, and it came back up: the reply went on.
    expect(level(cough.from + 0.04, cough.to + 0.08)).toBeLessThan(full * 0.5);
    expect(level(cough.to + 0.15, speech.from - 0.05)).toBeGreaterThan(full * 0.8);
    // Held speech: down, then silent for good.
    const quietAfter = (limit: number) => samples.find((s) => s.t > speech.from && s.voice < limit)!;
    const ducked = quietAfter(full * 0.1);
    // Silent from there on, for as long as the reply could have gone on: through the held speech and half a second
    // after it, before which no next turn of the interviewer can begin (a turn ends after 0.7 s of quiet). The
    // record may hold that next turn: a loaded machine reads it after the truncate reached the stand-in late.
    const until = (i: number) => Math.max(samples[i].t + 0.3, speech.to + 0.5);
    const quietFrom = (i: number) =>
      samples
        .slice(i)
        .filter((x) => x.t < until(i))
        .every((x) => x.voice < 0.001);
    const silent = samples.find((s, i) => s.t > speech.from && quietFrom(i))!;
    expect(ducked).toBeDefined();
    expect(silent).toBeDefined();
    // The truncate is at what the page played, as its own graph shows it, within 40 ms and the probe's own step.
    const playedMs = (silent.t - began.t) * 1000;
    const step = (silent.t - samples[samples.indexOf(silent) - 1].t) * 1000;
    expect(Math.abs(truncate.audio_end_ms - playedMs)).toBeLessThanOrEqual(40 + step);
    if (process.env.LIVE_CUT_IN_REPORT)
      process.stdout.write(
        `cut-in: down ${Math.round((ducked.t - speech.from) * 1000)} ms and silent ${Math.round((silent.t - speech.from) * 1000)} ms after the speech began; truncated at ${truncate.audio_end_ms} ms, the graph's ${Math.round(playedMs)} ms\n`,
      );

    // The kept turn and the caption end there.
    await page.waitForFunction(() => (document.querySelector('.captions li')?.textContent ?? '').endsWith('…'), { timeout: 10_000 });
    const turns = await waitFor(
      () => stack.db.interviewTurns.find({ interview_id: live.id, who: 'interviewer' }).toArray(),
      (t) => t.length >= 1 && t[0].text.endsWith('…'),
    );
    expect(turns[0].ended_at.getTime() - turns[0].started_at.getTime()).toBe(truncate.audio_end_ms);
    expect(await page.$eval('.captions li', (li) => li.textContent)).toBe(`Interviewer: ${turns[0].text}`);
    expect(await count('stopped')).toBe(stopped + 1);
    expect(await count('ignored')).toBeGreaterThanOrEqual(ignored + 1);
    expect(errors).toEqual([]);
  });
});
