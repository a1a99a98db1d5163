import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { LIVE_SAMPLE_RATE, type LiveMessage } from '../../shared/interviews/live';
import type { Stack } from './stack';
import { inviteBody, inviteCandidate } from './invite';
import { waitFor } from './wait';
import { scratchDir } from './scratch';

/** A live interview's page as a test drives it: the ticket after consent, then the conversation's socket. */

const form = (stack: Stack, path: string, body = '') =>
  fetch(stack.url + path, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: stack.url, 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });

/** The browser tests' live interview: one question written, one spoken. */
export const LIVE_PAGE_QUESTIONS = [
  { question: 'Tell us about a pipeline you built.', type: 'text', time_limit_seconds: 120 },
  { question: 'How do you test a data model?', type: 'audio', time_limit_seconds: 120 },
];

/** One invited candidate (`inviteCandidate(candidate)`) of a live interview of a job of its own: its id, link path and a reader of it. */
export async function invitedLive(
  stack: Stack,
  key: string,
  job: string,
  questions: unknown[],
  extra: Record<string, unknown> = {},
  candidate = 1,
) {
  const res = await stack.request('POST', '/api/public/v1/interview/invite', {
    key,
    body: inviteBody([inviteCandidate(candidate)], { ats_job_id: job, questions, interview_mode: 'live', ...extra }),
  });
  if (res.status !== 200) throw new Error(`invite answered ${res.status}: ${JSON.stringify(res.body)}`);
  const id = res.body.data.interviews[0].id as string;
  const get = () => stack.request('GET', `/api/public/v1/interviews/${id}`, { key });
  const interview = (await waitFor(get, (r) => r.body.data.status === 'invited')).body.data;
  const path = new URL(interview.interview_url).pathname;
  return {
    id,
    path,
    get,
    start: () => form(stack, `${path}/start`, 'consent=given'),
    ticket: async () => {
      const r = await form(stack, `${path}/live/ticket`);
      return { status: r.status, body: (await r.json()) as { ticket?: string; error?: string; socket_path?: string } };
    },
  };
}

/** A turn's final caption of `who` that says `has` (partial captions, the words of a turn under way, are not). */
export const caption = (who: string, has: string) => (m: LiveMessage) =>
  m.type === 'caption' && m.who === who && !m.partial && m.text.includes(has);

export interface LiveClient {
  messages: LiveMessage[];
  /** Bytes of the interviewer's audio received. */
  audioBytes(): number;
  closed: Promise<{ code: number; reason: string }>;
  /** Waits for a message that satisfies `ok` (among those after the first `from`). */
  next(ok: (m: LiveMessage) => boolean, from?: number, ms?: number): Promise<LiveMessage>;
  /** Sends a control, after the audio `speak` has queued. */
  send(control: unknown): void;
  /** Sends bytes as one binary message, as they are, at once. */
  sendRaw(bytes: Buffer): void;
  /**
   * `speechMs` of a loud tone, then `quietMs` of silence, in 100 ms frames: at once while the audio sent stays
   * within SPEAK_AHEAD_MS of the time since the socket opened, then no faster than it is spoken (the server
   * drops audio that runs 3 s ahead of the clock, as a browser's never does). Resolves once all of it is sent.
   */
  speak(speechMs: number, quietMs?: number): Promise<void>;
  close(): void;
  /** Stops reading the socket (a browser that takes none of the interviewer's voice), or reads it again. */
  reading(on: boolean): void;
}

/** Opens the conversation's socket as the page does: from its own origin, with a ticket. */
export function openLive(
  stack: Stack,
  path: string,
  ticket: string,
  origin = stack.url,
  headers: Record<string, string> = {},
): Promise<LiveClient> {
  const ws = new WebSocket(`${stack.url.replace(/^http/, 'ws')}${path}/live?ticket=${encodeURIComponent(ticket)}`, { origin, headers });
  const messages: LiveMessage[] = [];
  let audio = 0;
  const waiters = new Set<() => void>();
  ws.on('message', (data, binary) => {
    if (binary) audio += (data as Buffer).length;
    else messages.push(JSON.parse(String(data)) as LiveMessage);
    for (const w of waiters) w();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  const frame = (ms: number, loud: boolean) => {
    const n = Math.round((LIVE_SAMPLE_RATE * ms) / 1000);
    const out = Buffer.alloc(n * 2);
    if (loud) for (let i = 0; i < n; i++) out.writeInt16LE(Math.round(8_000 * Math.sin((2 * Math.PI * 220 * i) / LIVE_SAMPLE_RATE)), i * 2);
    return out;
  };
  // What the test sends, in order: a frame waits until it is no further ahead of the clock than SPEAK_AHEAD_MS.
  const queue: Array<{ data: Buffer | string; ms: number }> = [];
  let openedAt = 0;
  let sentMs = 0;
  let pumping: Promise<void> = Promise.resolve();
  const pump = () =>
    (pumping = pumping.then(async () => {
      while (queue.length > 0) {
        const { data, ms } = queue[0];
        const wait = sentMs + ms - (Date.now() - openedAt) - SPEAK_AHEAD_MS;
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        queue.shift();
        sentMs += ms;
        if (ws.readyState === ws.OPEN) ws.send(data, { binary: typeof data !== 'string' });
      }
    }));
  return new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => reject(new Error(`socket refused: ${res.statusCode}`)));
    ws.once('error', reject);
    ws.once('open', () => {
      openedAt = Date.now();
      resolve({
        messages,
        audioBytes: () => audio,
        closed,
        next(ok, from = 0, ms = 20_000) {
          return new Promise((done, fail) => {
            const check = () => {
              const found = messages.slice(from).find(ok);
              if (!found) return;
              waiters.delete(check);
              clearTimeout(timer);
              done(found);
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`no such message; got ${JSON.stringify(messages.slice(from))}`));
            }, ms);
            waiters.add(check);
            check();
          });
        },
        send(control) {
          queue.push({ data: JSON.stringify(control), ms: 0 });
          void pump();
        },
        sendRaw: (bytes) => ws.send(bytes, { binary: true }),
        speak(speechMs, quietMs = 800) {
          for (let t = 0; t < speechMs; t += 100) queue.push({ data: frame(100, true), ms: 100 });
          for (let t = 0; t < quietMs; t += 100) queue.push({ data: frame(100, false), ms: 100 });
          return pump();
        },
        // After what was queued before it, as a browser's socket closes after what it sent.
        close: () => void pump().then(() => ws.close()),
        reading(on) {
          const socket = (ws as unknown as { _socket: import('node:net').Socket })._socket;
          if (on) socket.resume();
          else socket.pause();
        },
      });
    });
  });
}

/** How far ahead of the clock the test client's audio may go at once: under the server's 3 s (LIVE_LIMITS.audioAheadMs), with a second to spare for a loaded machine. */
const SPEAK_AHEAD_MS = 2_000;

/** The status code a refused socket answered with. */
export function refusedWith(
  stack: Stack,
  path: string,
  ticket: string,
  origin = stack.url,
  headers: Record<string, string> = {},
): Promise<number> {
  const ws = new WebSocket(`${stack.url.replace(/^http/, 'ws')}${path}/live?ticket=${encodeURIComponent(ticket)}`, { origin, headers });
  return new Promise((resolve, reject) => {
    ws.on('error', () => undefined);
    ws.once('unexpected-response', (req, res) => {
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    ws.once('open', () => reject(new Error('the socket opened')));
  });
}

/**
 * A spoken answer for Chromium's fake microphone (which loops it): `text` said by espeak-ng (Debian's
 * package, scripts/provision.sh), then `quietMs` of silence, so each loop is one turn of the candidate's.
 */
export function spokenWav(text: string, dir: string, quietMs = 1_500): Buffer {
  const file = join(dir, 'espeak.wav');
  execFileSync('espeak-ng', ['-w', file, text]);
  const wav = readFileSync(file);
  const rate = wav.readUInt32LE(24);
  const data = wav.subarray(wav.indexOf('data') + 8);
  const quiet = Buffer.alloc(Math.round((rate * quietMs) / 1000) * 2);
  return withWavHeader(Buffer.concat([data, quiet]), rate);
}

/** `toneWav` written to a file of its own, for Chromium's `--use-file-for-fake-audio-capture`, which loops it: its path. */
export function toneWavFile(loud: Array<[number, number]>, totalMs: number): string {
  const file = join(scratchDir('live-mic'), 'tones.wav');
  writeFileSync(file, toneWav(loud, totalMs));
  return file;
}

/** A WAV of loud stretches (a 220 Hz tone) and silence: `[fromMs, toMs]` pairs, loud, within `totalMs`. */
export function toneWav(loud: Array<[number, number]>, totalMs: number): Buffer {
  const rate = 48_000;
  const pcm = Buffer.alloc(Math.round((rate * totalMs) / 1000) * 2);
  for (const [from, to] of loud)
    for (let i = Math.round((rate * from) / 1000); i < Math.round((rate * to) / 1000); i++)
      pcm.writeInt16LE(Math.round(8_000 * Math.sin((2 * Math.PI * 220 * i) / rate)), i * 2);
  return withWavHeader(pcm, rate);
}

/** `spokenWav` written to a file of its own, for Chromium's `--use-file-for-fake-audio-capture`: its path. */
export function spokenWavFile(text: string): string {
  const dir = scratchDir('live-mic');
  const file = join(dir, 'answer.wav');
  writeFileSync(file, spokenWav(text, dir));
  return file;
}

function withWavHeader(pcm: Buffer, rate: number): Buffer {
  const head = Buffer.alloc(44);
  head.write('RIFF', 0);
  head.writeUInt32LE(36 + pcm.length, 4);
  head.write('WAVEfmt ', 8);
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20); // PCM
  head.writeUInt16LE(1, 22); // mono
  head.writeUInt32LE(rate, 24);
  head.writeUInt32LE(rate * 2, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write('data', 36);
  head.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([head, pcm]);
}
