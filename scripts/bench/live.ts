import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { LIVE_SAMPLE_RATE } from '../../shared/interviews/live';
import { inviteBody } from '../../test/helpers/invite';
import { stampNow, startRealtimeStandIn, type RealtimeStandIn } from '../../test/helpers/openai-realtime-wire';
import { freePort } from '../services';
import { startServiceProcess } from './processes';
import { untilEach, type BenchStack } from './stack';

/** A frame of the candidate's audio, as the page sends it every 20 ms (its AudioWorklet); BENCH_LIVE_FRAME_MS for another. */
const FRAME_MS = Number(process.env.BENCH_LIVE_FRAME_MS ?? 20);
const FRAME_SAMPLES = (LIVE_SAMPLE_RATE * FRAME_MS) / 1000;
/** The candidate's turns: 2.4 s of speech, then 1.2 s of quiet (the provider's end of turn is 0.7 s). */
const SPEECH_FRAMES = 2_400 / FRAME_MS;
const TURN_FRAMES = 3_600 / FRAME_MS;

export interface LiveResult {
  conversations: number;
  seconds: number;
  /** From the provider's audio delta to the browser, and from the browser's frame to the provider, ms. */
  outboundMs: number[];
  inboundMs: number[];
  /** CPU of the API process that held the conversations, per conversation-minute, in core-ms. */
  cpuPerConversationMinute: number;
  /** The candidate's turns the interviewer answered, over all conversations. */
  turns: number;
  frameMs: number;
}

/** CPU time (user and system, ms) of one process, from /proc. */
function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** An API process of its own (`name`, for its log), whose realtime provider is OpenAI's adapter pointed at `standIn`. */
export async function realtimeApi(stack: BenchStack, standIn: RealtimeStandIn, name: string, env: Record<string, string> = {}) {
  const caFile = join(stack.logDir, `${name}-realtime-ca.pem`);
  writeFileSync(caFile, standIn.ca);
  const port = await freePort();
  const api = await startServiceProcess(
    'api',
    {
      ...stack.env,
      PORT: String(port),
      REALTIME_PROVIDER: 'openai',
      OPENAI_API_KEY: 'sk-bench',
      OPENAI_BASE_URL: standIn.baseUrl,
      NODE_EXTRA_CA_CERTS: caFile,
      ...env,
    },
    join(stack.logDir, `${name}-api.log`),
  );
  return { api, url: `http://127.0.0.1:${port}` };
}

/**
 * `count` candidates invited to a live interview of three questions, once the workspace holds `atOnce`
 * conversations at once (its default of 20 refused the bench's 50 with 503): each interview's link path, by id,
 * once every invitation is sent.
 */
export async function invitedLive(stack: BenchStack, count: number, atOnce: number, prefix: string, followUps: number) {
  const raised = await fetch(`${stack.apiUrl}/api/public/v1/workspace`, {
    method: 'PATCH',
    headers: { 'x-service-api-key': stack.key, 'content-type': 'application/json' },
    body: JSON.stringify({ live_conversations_at_once: atOnce }),
  });
  if (!raised.ok) throw new Error(`PATCH /workspace answered ${raised.status}: ${await raised.text()}`);
  const questions = [1, 2, 3].map((n) => ({ question: `Question ${n}: tell us about your work.`, type: 'text', time_limit_seconds: 600 }));
  const candidates = Array.from({ length: count }, (_, i) => ({
    id: `${prefix}-${i}`,
    name: 'Grace Hopper',
    email: `${prefix}.${i}@example.com`,
  }));
  const invited = await stack.post(
    '/api/public/v1/interview/invite',
    inviteBody(candidates, {
      ats_job_id: `bench-${prefix}-${Date.now()}`,
      questions,
      interview_mode: 'live',
      follow_ups_per_question: followUps,
    }),
  );
  const ids: string[] = invited.data.interviews.map((i: { id: string }) => i.id);
  const paths = new Map<string, string>();
  await untilEach(ids, async (id) => {
    const res = await fetch(`${stack.apiUrl}/api/public/v1/interviews/${id}`, { headers: { 'x-service-api-key': stack.key } });
    const view = ((await res.json()) as { data: { status: string; interview_url: string } }).data;
    if (view.status === 'invited') paths.set(id, new URL(view.interview_url).pathname);
    return view.status === 'invited';
  });
  return paths;
}

/**
 * `count` live interviews talking at once, each streaming the candidate's audio in real time for `seconds`,
 * on an API process of their own with the OpenAI Realtime adapter, pointed at a local stand-in that speaks the
 * provider's wire protocol over TLS and stamps each audio delta with its send time (test/helpers/
 * openai-realtime-wire.ts). It measures what the relay adds to each frame in both directions, and the API
 * process's CPU per conversation-minute.
 */
export async function live(stack: BenchStack, count: number, seconds: number): Promise<LiveResult> {
  const standIn = await startRealtimeStandIn('I designed the ingestion pipeline and its tests.', { stamp: true });
  const { api, url } = await realtimeApi(stack, standIn, 'live', { LIVE_CONVERSATIONS_PER_PROCESS: String(count * 2) });
  try {
    const paths = await invitedLive(stack, count, count, 'live', 3);
    const ids = [...paths.keys()];
    const form = (path: string, body = '') =>
      fetch(url + path, { method: 'POST', headers: { origin: url, 'content-type': 'application/x-www-form-urlencoded' }, body });
    const sockets = await Promise.all(
      ids.map(async (id) => {
        const path = paths.get(id)!;
        await form(`${path}/start`, 'consent=given');
        const { ticket } = (await (await form(`${path}/live/ticket`)).json()) as { ticket: string };
        const ws = new WebSocket(`${url.replace(/^http/, 'ws')}${path}/live?ticket=${encodeURIComponent(ticket)}`, { origin: url });
        await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
        return ws;
      }),
    );
    const outboundMs: number[] = [];
    let turns = 0;
    for (const ws of sockets) {
      ws.on('message', (data, binary) => {
        if (binary) outboundMs.push(stampNow() - (data as Buffer).readDoubleLE(0));
        else if (String(data).includes('"who":"candidate"')) turns++;
      });
    }
    const loud = Buffer.alloc(FRAME_SAMPLES * 2);
    for (let i = 4; i < FRAME_SAMPLES; i++)
      loud.writeInt16LE(Math.round(8_000 * Math.sin((2 * Math.PI * 220 * i) / LIVE_SAMPLE_RATE)), i * 2);
    const quiet = Buffer.alloc(FRAME_SAMPLES * 2);
    standIn.inboundMs.length = 0;
    const cpuBefore = processCpuMs(api.pid);
    const started = performance.now();
    let frame = 0;
    // One timer sends every conversation's next frame, each stamped with its send time.
    await new Promise<void>((resolve) => {
      const tick = setInterval(() => {
        if (performance.now() - started >= seconds * 1000) {
          clearInterval(tick);
          return resolve();
        }
        const pcm = Buffer.from(frame++ % TURN_FRAMES < SPEECH_FRAMES ? loud : quiet);
        for (const ws of sockets) {
          pcm.writeDoubleLE(stampNow(), 0);
          if (ws.readyState === WebSocket.OPEN) ws.send(pcm, { binary: true });
        }
      }, FRAME_MS);
    });
    const elapsed = (performance.now() - started) / 1000;
    const cpu = processCpuMs(api.pid) - cpuBefore;
    // Closed, and each close taken by the server (its conversation's hold given back), before the process stops.
    await Promise.all(
      sockets.map(
        (ws) => new Promise((resolve) => (ws.readyState === WebSocket.CLOSED ? resolve(null) : ws.once('close', resolve).close())),
      ),
    );
    return {
      conversations: count,
      seconds: elapsed,
      outboundMs,
      inboundMs: [...standIn.inboundMs],
      cpuPerConversationMinute: cpu / ((count * elapsed) / 60),
      turns,
      frameMs: FRAME_MS,
    };
  } finally {
    await api.stop();
    await standIn.stop();
  }
}
