import { writeFileSync } from 'node:fs';
import { createServer as createTlsServer } from 'node:https';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { apiProcessBeside, startStack, type Stack } from '../helpers/stack';
import { invitedLive, openLive, type LiveClient, caption } from '../helpers/live-client';
import { testCertificate } from '../helpers/openai-realtime-wire';
import { scratchDir } from '../helpers/scratch';
import { freePort } from '../../scripts/services';
import { waitFor } from '../helpers/wait';
import { scrape } from '../helpers/prometheus';
import type { ServiceProcess } from '../../scripts/bench/processes';
import type { LiveMessage } from '../../shared/interviews/live';

/**
 * What a stranger, a flood or a failing provider can do to live interviews, seen from outside the API process
 * that holds them (docs/live-interviews.md): the real API, worker, database and Temporal in this process, and
 * more API processes beside it on the same database (from the run's transpiled sources), one with OpenAI
 * Realtime pointed at a provider that fails to open, one holding at most two conversations. Each process's
 * fate (its PID, its resident memory) is read from outside.
 */
let stack: Stack;
let key: string;
let unreachable: ServiceProcess & { url: string };
let second: ServiceProcess & { url: string };
let providerPort: number;
const { key: tlsKey, cert } = testCertificate();
const QUESTIONS = [
  { question: 'Tell us about a pipeline you built.', type: 'text', time_limit_seconds: 120 },
  { question: 'How do you test a data model?', type: 'text', time_limit_seconds: 120 },
];
/** The stack as seen through another process's address: its pages, tickets and sockets. */
const through = (url: string) => ({ ...stack, url }) as Stack;
const mib = (bytes: number) => bytes / 1024 / 1024;
const asking = (index: number) => (m: LiveMessage) => m.type === 'state' && m.question_index === index && m.state === 'asking';

beforeAll(async () => {
  stack = await startStack({ worker: true });
  key = (await stack.newWorkspace('Live Limits')).key;
  const dir = scratchDir('live-processes');
  const ca = join(dir, 'provider-ca.pem');
  writeFileSync(ca, cert);
  providerPort = await freePort();
  [unreachable, second] = await Promise.all([
    apiProcessBeside(
      stack,
      {
        REALTIME_PROVIDER: 'openai',
        OPENAI_API_KEY: 'sk-test-unreachable',
        OPENAI_BASE_URL: `https://127.0.0.1:${providerPort}/v1`,
        OPENAI_REALTIME_CONNECT_TIMEOUT_MS: '1500',
        NODE_EXTRA_CA_CERTS: ca,
      },
      join(dir, 'api-unreachable.log'),
    ),
    apiProcessBeside(stack, { LIVE_CONVERSATIONS_PER_PROCESS: '2', METRICS_PORT: String(await freePort()) }, join(dir, 'api-second.log')),
  ]);
}, 60_000);
afterAll(async () => {
  await unreachable?.stop();
  await second?.stop();
  await stack?.stop();
});

/** A started live interview of its own job, whose pages, tickets and socket are those of the process at `url`. */
async function started(job: string, url = stack.url, candidate = 1, keyOf = key) {
  const live = await invitedLive(through(url), keyOf, job, QUESTIONS, {}, candidate);
  expect((await live.start()).status).toBe(303);
  return live;
}
const ticketOf = async (live: Awaited<ReturnType<typeof started>>) => (await live.ticket()).body.ticket!;

describe('a realtime provider that cannot be reached', () => {
  /** Servers on the provider's port, closed after each case. */
  const servers: Array<TcpServer | ReturnType<typeof createTlsServer>> = [];
  const held: Socket[] = [];
  const listen = (server: TcpServer | ReturnType<typeof createTlsServer>) =>
    new Promise<void>((resolve) => {
      servers.push(server);
      server.listen(providerPort, '127.0.0.1', resolve);
    });
  const closeAll = async () => {
    for (const s of held.splice(0)) s.destroy();
    for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  };
  afterAll(closeAll);

  it('ends each socket with 1013 (a closed port, an upgrade answered 429, a handshake never answered), gives the slot back, and the process goes on', async () => {
    const ws = await stack.newWorkspace('Unreachable');
    // One conversation at a time in this workspace: a slot kept after a failure would refuse the next socket.
    await stack.stores.workspaces.updateSettings(ws.id, { live_conversations_at_once: 1 });
    const pid = unreachable.pid;
    const once = async (n: number) => {
      const live = await started(`job-unreachable-${n}`, unreachable.url, 1, ws.key);
      const c = await openLive(through(unreachable.url), live.path, await ticketOf(live));
      expect(await c.closed).toEqual({ code: 1013, reason: 'unavailable' });
      expect(c.messages.at(-1)).toEqual({ type: 'ended', reason: 'unavailable' });
    };
    // Nothing listens on the provider's port.
    await once(1);
    // The provider refuses the upgrade: 429, as a rate limit does.
    const limited = createTlsServer({ key: tlsKey, cert }, (_req, res) => res.writeHead(429).end());
    limited.on('upgrade', (_req, socket: Socket) =>
      socket.end('HTTP/1.1 429 Too Many Requests\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'),
    );
    await listen(limited);
    await once(2);
    await closeAll();
    // The provider accepts the connection and never says a word (no TLS handshake).
    await listen(createTcpServer((socket) => void held.push(socket)));
    await once(3);
    await closeAll();

    // The same process answers, ready.
    const ready = await fetch(`${unreachable.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(unreachable.pid).toBe(pid);
    expect(() => process.kill(pid, 0)).not.toThrow();
  }, 60_000);
});

describe('limits counted in audio and bytes, not messages', () => {
  it('drops audio sent faster than it is spoken and closes the socket that keeps sending it: the recording is no longer than the conversation, and memory stays flat', async () => {
    const live = await started('job-flood', second.url);
    const ticket = await ticketOf(live);
    const opened = Date.now();
    const c = await openLive(through(second.url), live.path, ticket);
    await c.next(asking(0));
    const before = second.rss();
    // Half-second frames, forty a second: twenty seconds of audio every second.
    const frame = Buffer.alloc(24_000);
    for (let i = 0; i < frame.length; i += 2) frame.writeInt16LE(Math.round(8_000 * Math.sin(i / 20)), i);
    const flood = setInterval(() => c.sendRaw(frame), 25);
    let closed: { code: number; reason: string };
    try {
      closed = await c.closed;
    } finally {
      clearInterval(flood);
    }
    const wall = (Date.now() - opened) / 1000;
    expect(closed).toEqual({ code: 4008, reason: 'refused' });
    expect(wall).toBeLessThan(5);
    expect(mib(second.rss() - before)).toBeLessThan(50);
    const done = await waitFor(live.get, (r) => r.body.data.recording_url !== null, 10_000);
    const wav = await fetch(`${stack.url}/api/public/v1/interviews/${live.id}/recording`, { headers: { 'x-service-api-key': key } });
    const seconds = (Buffer.from(await wav.arrayBuffer()).length - 44) / 48_000;
    expect(done.body.data.recording_url).toBeTruthy();
    expect(seconds).toBeLessThanOrEqual(wall + 1);
  }, 30_000);

  it('closes a socket whose unsent audio passes a megabyte, and starts no response for a repeat while one is under way: memory stays flat', async () => {
    const live = await started('job-reads-nothing', second.url);
    const c = await openLive(through(second.url), live.path, await ticketOf(live));
    await c.next(caption('interviewer', 'Question 1 of 2'));
    const before = second.rss();
    c.reading(false);
    // "Repeat", forty a second, by a browser that takes none of the voice it asks for, until the process
    // holds no conversation (its gauge, read from outside).
    const flood = setInterval(() => c.send({ type: 'repeat' }), 25);
    const held = async () => (await scrape(second.metricsUrl!)).find((m) => m.name === 'hiring_live_conversations')?.value;
    try {
      await waitFor(held, (n) => n === 0, 15_000);
    } finally {
      clearInterval(flood);
    }
    expect(mib(second.rss() - before)).toBeLessThan(50);
    c.reading(true);
    expect(await c.closed).toMatchObject({ code: 1006 });
    // It heard less than what the server would have queued for it: a megabyte past what the network held.
    expect(mib(c.audioBytes())).toBeLessThan(20);
  }, 30_000);
});

describe('one conversation per interview', () => {
  for (const where of ['one API process', 'two API processes'] as const) {
    it(`holds exactly one of two sockets opened at the same moment on ${where}: the other is taken over, each turn is stored once`, async () => {
      const live = await started(`job-two-sockets-${where.split(' ')[0]}`);
      const [t1, t2] = [await ticketOf(live), await ticketOf(live)];
      const opened = Date.now();
      const both = await Promise.all([
        openLive(stack, live.path, t1),
        openLive(through(where === 'one API process' ? stack.url : second.url), live.path, t2),
      ]);
      const gone = await Promise.race(both.map((c, i) => c.closed.then((closed) => ({ i, closed }))));
      expect(gone.closed).toEqual({ code: 4001, reason: 'taken_over' });
      const loser = both[gone.i];
      const winner: LiveClient = both[1 - gone.i];
      expect(loser.messages.filter((m) => m.type === 'caption')).toEqual([]);
      await winner.next(caption('interviewer', 'Question 1 of 2'));
      await winner.speak(600);
      await winner.next(caption('interviewer', 'tell me a little more'));
      await winner.speak(600);
      await winner.next(caption('interviewer', 'Question 2 of 2'));
      winner.close();
      await winner.closed;
      const wall = (Date.now() - opened) / 1000;
      const now = await waitFor(live.get, (r) => r.body.data.answers.length === 1 && r.body.data.recording_url !== null);
      // Asked once, answered twice, followed up once: each turn stored once.
      expect(now.body.data.answers[0].turns.map((t: { who: string }) => t.who)).toEqual([
        'interviewer',
        'candidate',
        'interviewer',
        'candidate',
      ]);
      const wav = await fetch(`${stack.url}/api/public/v1/interviews/${live.id}/recording`, { headers: { 'x-service-api-key': key } });
      expect((Buffer.from(await wav.arrayBuffer()).length - 44) / 48_000).toBeLessThanOrEqual(wall + 1);
    }, 30_000);
  }

  it('holds its per-process cap under a burst: of five sockets of five interviews opened at once, at most two open', async () => {
    const lives = await Promise.all([1, 2, 3, 4, 5].map((n) => started(`job-burst-${n}`, second.url, n)));
    const tickets = await Promise.all(lives.map(ticketOf));
    const outcomes = await Promise.allSettled(lives.map((l, i) => openLive(through(second.url), l.path, tickets[i])));
    const open = outcomes.filter((o) => o.status === 'fulfilled').map((o) => (o as PromiseFulfilledResult<LiveClient>).value);
    expect(open.length).toBeGreaterThan(0);
    expect(open.length).toBeLessThanOrEqual(2);
    for (const o of outcomes.filter((x) => x.status === 'rejected')) expect(String((o as PromiseRejectedResult).reason)).toMatch(/503/);
    for (const c of open) c.close();
    await Promise.all(open.map((c) => c.closed));
  }, 30_000);
});
