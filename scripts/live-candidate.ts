import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { LIVE_SAMPLE_RATE, type LiveMessage } from '../shared/interviews/live';

/**
 * A simulated candidate for a live interview (docs/live-interviews.md), for trying the conversation from a
 * terminal: it consents on the interview's page, takes a ticket, opens the conversation's socket as the page
 * does, and answers each of the interviewer's turns with 1.5 s of a tone (which the simulated provider hears
 * as speech) streamed in real time, printing both sides' captions until the conversation ends.
 *
 *   API=http://localhost:3000 KEY=… npm run --silent live-candidate -- --interview int_…
 */
const FRAME_MS = 100;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { interview: { type: 'string' } } });
  const api = process.env.API ?? 'http://localhost:3000';
  const key = process.env.KEY;
  if (!values.interview || !key) throw new Error('usage: API=… KEY=… live-candidate --interview <interview id>');
  const view = await fetch(`${api}/api/public/v1/interviews/${values.interview}`, { headers: { 'x-service-api-key': key } });
  if (view.status !== 200) throw new Error(`the interview answered ${view.status}`);
  const path = new URL(((await view.json()) as { data: { interview_url: string } }).data.interview_url).pathname;
  const form = (to: string, body = '') =>
    fetch(api + path + to, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: api, 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
  await form('/start', 'consent=given');
  const ticket = await form('/live/ticket');
  if (ticket.status !== 200) throw new Error(`no ticket: ${ticket.status} ${await ticket.text()}`);
  const { ticket: t, socket_path } = (await ticket.json()) as { ticket: string; socket_path: string };
  const ws = new WebSocket(`${api.replace(/^http/, 'ws')}${socket_path}?ticket=${encodeURIComponent(t)}`, { origin: api });

  const frame = (loud: boolean) => {
    const n = (LIVE_SAMPLE_RATE * FRAME_MS) / 1000;
    const pcm = Buffer.alloc(n * 2);
    if (loud) for (let i = 0; i < n; i++) pcm.writeInt16LE(Math.round(8_000 * Math.sin((2 * Math.PI * 220 * i) / LIVE_SAMPLE_RATE)), i * 2);
    return pcm;
  };
  /** 1.5 s of speech and 0.8 s of quiet, a frame every 100 ms, as a microphone sends them. */
  async function answer(): Promise<void> {
    for (let i = 0; i < 23 && ws.readyState === WebSocket.OPEN; i++) {
      ws.send(frame(i < 15), { binary: true });
      await new Promise((r) => setTimeout(r, FRAME_MS));
    }
  }
  await new Promise<void>((resolve, reject) => {
    ws.on('error', reject);
    ws.on('close', () => resolve());
    ws.on('message', (data, binary) => {
      if (binary) return;
      const m = JSON.parse(String(data)) as LiveMessage;
      // Each turn's final caption; the partial ones grow word by word on a page, not in a terminal.
      if (m.type === 'caption' && !m.partial) {
        console.log(`${m.who === 'interviewer' ? 'Interviewer' : 'You'}: ${m.text}`);
        if (m.who === 'interviewer') void answer();
      } else if (m.type === 'ended') console.log(`Ended: ${m.reason}`);
    });
  });
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
