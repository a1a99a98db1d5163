import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { openAiRealtime, type OpenAiRealtimeOptions } from '../../providers/realtime/openai';

/**
 * A local stand-in for OpenAI's Realtime API, speaking its GA wire protocol over TLS (the official client
 * always connects with `wss://`), with a certificate made for the test that the adapter is told to trust.
 * It hears the candidate's audio by its loudness (speech_started, then speech_stopped and a completed
 * transcription after 0.7 s of quiet, transcribed as `transcript`), and answers `response.create` with audio
 * deltas and the transcript of the words it was told to say. It records every client event it got.
 */
export interface RealtimeStandIn {
  /** The API's base URL for the OpenAI client: `https://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  /** The certificate to trust. */
  ca: string;
  /** Every client event, with the socket it came on (sockets numbered from 0), and each socket's headers. */
  events: Array<{ socket: number; event: any }>;
  headers: Array<Record<string, string | string[] | undefined>>;
  /** With `stamp`: how long each appended frame took from the client's stamp to here, in ms. */
  inboundMs: number[];
  /** Closes every socket the stand-in holds (the provider drops the session). */
  dropSessions(): void;
  /** What the stand-in transcribes the candidate's turns as, from now on. */
  hears(transcript: string): void;
  /** From now on, each response stops streaming after `chunks` audio deltas until resumed (null: resumes them all). */
  pauseReplies(chunks: number | null): void;
  stop(): Promise<void>;
}

/** What the tests' candidate says, in the fake microphone's WAV and in the stand-in's transcript of it. */
export const SPOKEN_ANSWER = 'I built a streaming pipeline with Kafka and Flink.';

/** The shortest loud stretch the stand-in takes for speech (OpenAI's turn detection likewise ignores a click). */
const MIN_SPEECH_MS = 200;

/** A wall-clock time in ms, with a fraction, that two processes on one machine agree on. */
export const stampNow = () => performance.timeOrigin + performance.now();

/**
 * `stamp` (the bench's): each audio delta carries the time it was sent in its first 8 bytes (a float64), and
 * each appended frame is read as carrying the client's, so each direction's latency can be measured.
 */
export async function startRealtimeStandIn(
  transcript = SPOKEN_ANSWER,
  opts: { stamp?: boolean; audible?: boolean; wordsPerDelta?: number } = {},
): Promise<RealtimeStandIn> {
  const { key, cert: ca } = testCertificate();
  const server: Server = createServer({ key, cert: ca });
  const wss = new WebSocketServer({ server, path: '/v1/realtime' });
  const events: RealtimeStandIn['events'] = [];
  const headers: RealtimeStandIn['headers'] = [];
  const inboundMs: number[] = [];
  const skip = opts.stamp ? 8 : 0;
  const sockets: WebSocket[] = [];
  let seq = 0;
  const id = (p: string) => `${p}_${++seq}`;
  let pauseAfter: number | null = null;
  const paused: Array<() => void> = [];

  wss.on('connection', (ws, req) => {
    const n = sockets.push(ws) - 1;
    headers.push(req.headers);
    const send = (event: Record<string, unknown>) => ws.send(JSON.stringify({ event_id: id('event'), ...event }));
    let speaking = false;
    let quietMs = 0;
    let loudMs = 0;
    /** The session's `interrupt_response`: the candidate's speech stops a response under way. */
    let interrupts = true;
    let response: { id: string; cancelled: boolean; item?: string } | null = null;
    /** Each assistant audio item's length in ms, as sent: a truncate past it is the provider's error. */
    const audioItems = new Map<string, number>();
    send({ type: 'session.created', session: { type: 'realtime', id: id('sess') } });
    ws.on('message', (data) => {
      const event = JSON.parse(String(data));
      // The bench's thousands of frames are not kept, only their latency.
      if (!opts.stamp || event.type !== 'input_audio_buffer.append') events.push({ socket: n, event });
      if (event.type === 'session.update') {
        interrupts = event.session?.audio?.input?.turn_detection?.interrupt_response ?? true;
        send({ type: 'session.updated', session: event.session });
      } else if (event.type === 'input_audio_buffer.append') {
        const pcm = Buffer.from(event.audio, 'base64');
        if (opts.stamp && pcm.length >= 8) inboundMs.push(stampNow() - pcm.readDoubleLE(0));
        const ms = (pcm.length / 2 / 24_000) * 1000;
        let sum = 0;
        for (let i = skip; i + 1 < pcm.length; i += 2) sum += pcm.readInt16LE(i) ** 2;
        const loud = Math.sqrt(sum / Math.max(1, (pcm.length - skip) / 2)) >= 1_000;
        // Speech starts after MIN_SPEECH_MS of it, as a provider's turn detection does: a cough is no turn.
        loudMs = loud ? loudMs + ms : 0;
        if (loud && (speaking || loudMs >= MIN_SPEECH_MS)) {
          quietMs = 0;
          if (!speaking) {
            speaking = true;
            send({ type: 'input_audio_buffer.speech_started', audio_start_ms: 0, item_id: id('item') });
            if (interrupts && response && !response.cancelled) finish(true); // interrupt_response
          }
        } else if (speaking && (quietMs += ms) >= 700) {
          speaking = false;
          quietMs = 0;
          const item = id('item');
          send({ type: 'input_audio_buffer.speech_stopped', audio_end_ms: 0, item_id: item });
          // The transcript in two deltas, then whole, as the GA transcription streams it.
          const half = transcript
            .split(' ')
            .slice(0, Math.ceil(transcript.split(' ').length / 2))
            .join(' ');
          for (const delta of [half, transcript.slice(half.length)])
            send({ type: 'conversation.item.input_audio_transcription.delta', item_id: item, content_index: 0, delta });
          send({ type: 'conversation.item.input_audio_transcription.completed', item_id: item, content_index: 0, transcript });
        }
      } else if (event.type === 'response.create') {
        const words =
          /^Say exactly: "([\s\S]*)"$/.exec(event.response?.instructions ?? '')?.[1] ?? 'Could you say more about how you tested it?';
        const item = id('item');
        response = { id: id('resp'), cancelled: false, item };
        const current = response;
        send({ type: 'response.created', response: { id: current.id, status: 'in_progress' } });
        // 100 ms of 24 kHz audio a delta: silence, or with `audible` a 440 Hz tone a page's audio graph can hear.
        const tone = Buffer.alloc(4_800);
        if (opts.audible)
          for (let i = 0; i < 2_400; i++) tone.writeInt16LE(Math.round(6_000 * Math.sin((2 * Math.PI * 440 * i) / 24_000)), i * 2);
        const spoken = words.split(/\s+/);
        // 100 ms of audio a delta, with its words (four by default: a brisk speaker).
        const perDelta = opts.wordsPerDelta ?? 4;
        let chunks = Math.max(1, Math.ceil(spoken.length / perDelta));
        let sent = 0;
        let deltas = 0;
        const next = () => {
          if (current.cancelled || ws.readyState !== ws.OPEN) return;
          if (pauseAfter !== null && deltas >= pauseAfter) return void paused.push(next);
          if (chunks-- > 0) {
            deltas++;
            if (opts.stamp) tone.writeDoubleLE(stampNow(), 0);
            audioItems.set(item, (audioItems.get(item) ?? 0) + 100);
            send({
              type: 'response.output_audio.delta',
              response_id: current.id,
              item_id: item,
              output_index: 0,
              content_index: 0,
              delta: tone.toString('base64'),
            });
            // Its words, as the audio's transcript streams beside it.
            const nextWords = spoken.slice(sent, sent + perDelta);
            sent += nextWords.length;
            if (nextWords.length > 0)
              send({
                type: 'response.output_audio_transcript.delta',
                response_id: current.id,
                item_id: item,
                output_index: 0,
                content_index: 0,
                delta: (sent > nextWords.length ? ' ' : '') + nextWords.join(' '),
              });
            setTimeout(next, 5);
            return;
          }
          send({
            type: 'response.output_audio_transcript.done',
            response_id: current.id,
            item_id: item,
            output_index: 0,
            content_index: 0,
            transcript: words,
          });
          finish(false);
        };
        setTimeout(next, 5);
        (current as { words?: string }).words = words;
      } else if (event.type === 'conversation.item.truncate') {
        const length = audioItems.get(event.item_id);
        if (length === undefined || event.content_index !== 0 || !(event.audio_end_ms <= length))
          send({
            type: 'error',
            error: {
              type: 'invalid_request_error',
              code: length === undefined ? 'item_not_found' : 'invalid_value',
              message: length === undefined ? `Item ${event.item_id} not found` : `audio_end_ms is greater than the audio (${length} ms)`,
            },
          });
        else send({ type: 'conversation.item.truncated', item_id: event.item_id, content_index: 0, audio_end_ms: event.audio_end_ms });
      } else if (event.type === 'response.cancel') {
        if (response && !response.cancelled) finish(true);
        else
          send({
            type: 'error',
            error: {
              type: 'invalid_request_error',
              code: 'response_cancel_not_active',
              message: 'Cancellation failed: no active response found',
            },
          });
      }
    });
    function finish(cancelled: boolean): void {
      const r = response!;
      r.cancelled = true;
      response = null;
      if (cancelled) {
        const words = (r as { words?: string }).words ?? '';
        send({
          type: 'response.output_audio_transcript.done',
          response_id: r.id,
          item_id: r.item ?? id('item'),
          output_index: 0,
          content_index: 0,
          transcript: words,
        });
      }
      send({ type: 'response.done', response: { id: r.id, status: cancelled ? 'cancelled' : 'completed' } });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `https://127.0.0.1:${port}/v1`,
    ca,
    events,
    headers,
    inboundMs,
    dropSessions: () => sockets.forEach((s) => s.terminate()),
    hears: (text) => void (transcript = text),
    pauseReplies(chunks) {
      pauseAfter = chunks;
      if (chunks === null) for (const next of paused.splice(0)) next();
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.terminate();
        wss.close();
        server.close(() => resolve());
      }),
  };
}

/**
 * A key and a self-signed certificate for 127.0.0.1, made for a test with openssl: only in memory once made,
 * nothing of them stays on disk.
 */
export function testCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'realtime-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The real OpenAI Realtime adapter pointed at the stand-in, trusting its certificate; `opts` as a test needs them. */
export function adapterFor(standIn: RealtimeStandIn, opts: Partial<OpenAiRealtimeOptions> = {}) {
  return openAiRealtime({
    apiKey: 'sk-test-realtime',
    baseUrl: standIn.baseUrl,
    model: 'gpt-realtime',
    transcribeModel: 'gpt-4o-mini-transcribe',
    ca: standIn.ca,
    ...opts,
  });
}
