import { Value } from '@sinclair/typebox/value';
import type { RawData, WebSocket } from 'ws';
import { audioPace, LIVE_LIMITS, LiveControl, type LiveEnd, type LiveMessage } from '../../shared/interviews/live';
import type { Conversation } from '../../operations/live-conversation';
import type { InterviewDoc } from '../../infra/documents/interviews';
import type { WebDeps } from '../deps';

/** A closed socket's code, by why it ended: 1000 for a normal end, 4000s for the rest (the page reads them). */
export const CLOSE_CODES: Record<LiveEnd, number> = {
  finished: 1000,
  switched_to_text: 1000,
  taken_over: 4001,
  silent: 4002,
  closed: 4003,
  refused: 4008,
  // WebSocket's own "Try Again Later" (RFC 6455's registry): the realtime provider could not be reached.
  unavailable: 1013,
};
/**
 * One conversation's socket, once admitted (web/interviews/live-socket.ts): the browser's audio frames and its
 * few controls to the conversation (operations/live-conversation.ts), bounded in size and rate, and what the
 * conversation says back. A socket silent for two minutes ends the conversation (the link resumes it).
 */
export async function converse(
  ws: WebSocket,
  interview: InterviewDoc,
  { operations, logger }: Pick<WebDeps, 'operations' | 'logger'>,
): Promise<void> {
  const send = (m: LiveMessage) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(m));
  // A frame over the limit (1009) or a broken frame is the browser's fault: the socket closes, the process stays.
  ws.on('error', (err) => logger.info({ err: err.message }, 'live interview socket closed on a bad frame'));
  // Listening from the first moment: what the browser sends while the conversation opens waits for it.
  let conversation: Conversation | null = null;
  const early: Array<[Buffer, boolean]> = [];
  let gone = false;
  let silence = setTimeout(() => conversation?.end('silent'), LIVE_LIMITS.silentMs);
  let window = Date.now();
  let inWindow = 0;
  const pace = audioPace(Date.now());
  function take(bytes: Buffer, binary: boolean, c: Conversation): void {
    if (binary) {
      // Audio faster than it can be spoken is dropped, and a socket that keeps sending it is closed.
      if (pace.take(bytes.length, Date.now())) return c.audio(bytes);
      if (pace.refused) c.end('refused');
      return;
    }
    if (bytes.length > LIVE_LIMITS.controlBytes) return void send({ type: 'error', message: 'A control message is at most 512 bytes.' });
    let control: unknown;
    try {
      control = JSON.parse(bytes.toString('utf8'));
    } catch {
      control = null;
    }
    // Only the few controls are read: nothing the browser sends reaches the interviewer's instructions.
    if (!Value.Check(LiveControl, control))
      return void send({ type: 'error', message: 'Unknown message: send done, repeat or switch_to_text.' });
    c.control(control);
  }
  ws.on('message', (data: RawData, binary: boolean) => {
    clearTimeout(silence);
    silence = setTimeout(() => conversation?.end('silent'), LIVE_LIMITS.silentMs);
    const at = Date.now();
    if (at - window >= 1000) {
      window = at;
      inWindow = 0;
    }
    if (++inWindow > LIVE_LIMITS.messagesPerSecond) {
      if (conversation) return conversation.end('refused');
      gone = true;
      send({ type: 'ended', reason: 'refused' });
      return void ws.close(CLOSE_CODES.refused, 'refused');
    }
    const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    if (conversation) take(bytes, binary, conversation);
    else early.push([bytes, binary]);
  });
  ws.on('close', () => {
    gone = true;
    clearTimeout(silence);
    conversation?.end('closed');
  });
  const opened = await operations.liveInterviews.converse(interview, {
    send,
    sendAudio(pcm) {
      if (ws.readyState !== ws.OPEN) return;
      // A browser that reads none of the interviewer's voice: its queue is bounded, then the socket goes.
      if (ws.bufferedAmount > LIVE_LIMITS.unsentBytes) {
        logger.info({ unsent: ws.bufferedAmount }, 'live interview socket closed: the browser reads nothing');
        conversation?.end('refused');
        return void ws.terminate();
      }
      ws.send(pcm, { binary: true });
    },
    close(reason) {
      send({ type: 'ended', reason });
      ws.close(CLOSE_CODES[reason], reason);
    },
  });
  if (gone) return opened.end('closed');
  conversation = opened;
  for (const [bytes, binary] of early.splice(0)) take(bytes, binary, opened);
}
