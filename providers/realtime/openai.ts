import OpenAI from 'openai';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import { LIVE_SAMPLE_RATE } from '../../shared/interviews/live';
import type { RealtimeEvents, RealtimeSession, RealtimeVoice } from './port';

export interface OpenAiRealtimeOptions {
  apiKey: string;
  /** OpenAI's API, or a compatible server's; the realtime socket is its `wss://…/realtime`. */
  baseUrl?: string;
  model: string;
  transcribeModel: string;
  voice?: string;
  /** Certificates to trust beyond the system's (a TLS-inspecting proxy's, or a test's). */
  ca?: string;
  /** How long the socket may take to open. */
  connectTimeoutMs?: number;
  /** When a session is replaced: OpenAI ends a Realtime session at 60 minutes. */
  maxSessionMs?: number;
}

/**
 * OpenAI Realtime through the official package's WebSocket client, with the GA event names. The session is
 * set by the server alone: our instructions, 24 kHz PCM both ways, the candidate transcribed, and semantic
 * turn detection with low eagerness, so a slow speaker is not cut off. The model never answers on its own
 * (`create_response: false`): the conversation decides when it speaks and what it is told to say. Nor does
 * the candidate's voice stop it on its own (`interrupt_response: false`): the page judges a cut-in, and the
 * response is then cancelled and its item truncated where the page stopped playing it.
 */
export function openAiRealtime(opts: OpenAiRealtimeOptions): RealtimeVoice {
  const client = new OpenAI({ apiKey: opts.apiKey, baseURL: opts.baseUrl });
  return {
    name: 'openai',
    maxSessionMs: opts.maxSessionMs ?? 55 * 60_000,
    async open({ instructions, history = [] }, events: RealtimeEvents): Promise<RealtimeSession> {
      const rt = new OpenAIRealtimeWS({ model: opts.model, options: opts.ca ? { ca: opts.ca } : undefined }, client);
      let closing = false;
      let opened = false;
      // Listened to from the first moment: the package turns a socket error with no `error` listener into a
      // rejected promise nobody holds, which ended the process (a closed port, a refused upgrade, a handshake
      // that never ends). Before the socket opens an error fails the opening; after, the session goes on.
      let failOpening: (err: Error) => void = () => undefined;
      rt.on('error', (err) => (opened ? events.providerError(err.message) : failOpening(err)));
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          failOpening(new Error('the realtime socket did not open in time'));
          rt.socket.terminate();
        }, opts.connectTimeoutMs ?? 10_000);
        failOpening = (err) => {
          clearTimeout(timer);
          failOpening = () => undefined;
          reject(err);
        };
        rt.socket.once('open', () => {
          clearTimeout(timer);
          opened = true;
          resolve();
        });
      });
      let responding = false;
      // An error event (an event refused, a rate limit) leaves the session open: the conversation logs and counts
      // it (the listener above). Only a closed socket ends the session.
      rt.socket.on('close', () => {
        if (!closing) events.failed('the realtime socket closed');
      });
      rt.on('input_audio_buffer.speech_started', () => events.speechStarted());
      rt.on('input_audio_buffer.speech_stopped', () => events.speechStopped());
      // Each side's words as they come, by item: captions grow with them.
      const saying = new Map<string, string>();
      const said = (item: string, delta: string) => {
        const text = (saying.get(item) ?? '') + delta;
        saying.set(item, text);
        return text;
      };
      rt.on('conversation.item.input_audio_transcription.delta', (e) => events.candidateSaying?.(said(e.item_id, e.delta ?? '')));
      rt.on('response.output_audio_transcript.delta', (e) => events.interviewerSaying?.(said(e.item_id, e.delta)));
      rt.on('conversation.item.input_audio_transcription.completed', (e) => {
        saying.delete(e.item_id);
        events.candidateSaid(e.transcript);
      });
      // The latest response's audio item and how much of it came: a cut-in truncates it, never past what came.
      let audioItem: { id: string; ms: number } | null = null;
      rt.on('response.output_audio.delta', (e) => {
        const pcm = Buffer.from(e.delta, 'base64');
        if (audioItem?.id !== e.item_id) audioItem = { id: e.item_id, ms: 0 };
        audioItem.ms += (pcm.length / 2 / LIVE_SAMPLE_RATE) * 1000;
        events.interviewerAudio(pcm);
      });
      rt.on('response.output_audio_transcript.done', (e) => {
        saying.delete(e.item_id);
        events.interviewerSaid(e.transcript);
      });
      rt.on('response.done', () => {
        responding = false;
        events.responseDone();
      });
      const pcm = { type: 'audio/pcm', rate: LIVE_SAMPLE_RATE } as const;
      rt.send({
        type: 'session.update',
        session: {
          type: 'realtime',
          instructions,
          output_modalities: ['audio'],
          audio: {
            input: {
              format: pcm,
              transcription: { model: opts.transcribeModel },
              // The page decides a cut-in (CUT_IN: a cough does not stop the interviewer), then truncate() acts on it.
              turn_detection: { type: 'semantic_vad', eagerness: 'low', create_response: false, interrupt_response: false },
            },
            output: { format: pcm, ...(opts.voice ? { voice: opts.voice } : {}) },
          },
        },
      });
      // The conversation so far as its items, each side in its role: the candidate's words are the user's.
      for (const turn of history)
        rt.send({
          type: 'conversation.item.create',
          item:
            turn.who === 'candidate'
              ? { type: 'message', role: 'user', content: [{ type: 'input_text', text: turn.text }] }
              : { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: turn.text }] },
        });
      return {
        appendAudio: (audio) => rt.send({ type: 'input_audio_buffer.append', audio: audio.toString('base64') }),
        respond(say) {
          responding = true;
          rt.send({ type: 'response.create', response: { instructions: say } });
        },
        cancelResponse() {
          // Cancelling with no response under way is an error event of the provider's.
          if (responding) rt.send({ type: 'response.cancel' });
        },
        truncate(playedMs) {
          if (responding) rt.send({ type: 'response.cancel' });
          // Past the audio that came is an error of the provider's; OpenAI then drops the item's transcript.
          if (audioItem)
            rt.send({
              type: 'conversation.item.truncate',
              item_id: audioItem.id,
              content_index: 0,
              audio_end_ms: Math.max(0, Math.min(Math.round(playedMs), Math.floor(audioItem.ms))),
            });
        },
        close() {
          closing = true;
          rt.close();
        },
      };
    },
  };
}
