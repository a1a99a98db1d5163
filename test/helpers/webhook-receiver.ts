import { Webhook } from 'standardwebhooks';
import { startStack, type Stack } from './stack';
import { startHttpStub, type HttpStub, type RecordedRequest, type StubReply } from './http-stub';

/**
 * A local webhook receiver for the tests, one path per endpoint so each test reads only what it was sent,
 * and the events it got verified with the `standardwebhooks` package (as an ATS would), never with the
 * service's own code.
 */
export interface Receiver {
  stub: HttpStub;
  /** How each path answers; 200 unless a test says otherwise. */
  answers: Map<string, (req: RecordedRequest, n: number) => StubReply>;
  newPath(): string;
  received(path: string): RecordedRequest[];
  /** The events received at `path`, each verified with every secret given, in the order they arrived. */
  verified(path: string, ...secrets: string[]): Array<{ id: string; type: string; created_at: string; data: any }>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const answers = new Map<string, (req: RecordedRequest, n: number) => StubReply>();
  let paths = 0;
  const stub: HttpStub = await startHttpStub((req) => {
    const answer = answers.get(req.path);
    const n = stub.requests.filter((r) => r.path === req.path).length;
    return answer ? answer(req, n) : { status: 200, body: { ok: true } };
  });
  const received = (path: string) => stub.requests.filter((r) => r.path === path);
  return {
    stub,
    answers,
    newPath: () => `/hooks/${++paths}`,
    received,
    verified: (path, ...secrets) =>
      received(path).map((r) => {
        const payloads = secrets.map((s) => new Webhook(s).verify(r.raw, r.headers as Record<string, string>));
        return payloads[0] as { id: string; type: string; created_at: string; data: any };
      }),
    close: () => stub.close(),
  };
}

/** Registers an endpoint through the API; its id, secret and URL. */
export async function registerWebhook(stack: Stack, key: string, body: Record<string, unknown>) {
  const res = await stack.request('POST', '/api/public/v1/webhooks', { key, body });
  if (res.status !== 201) throw new Error(`POST /webhooks answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data as { id: string; secret: string; url: string };
}

/**
 * A test file's bench: the real stack (worker included, the simulator's calls instant) and a receiver,
 * started before its tests and stopped after them, with the receiver's helpers and registration at hand.
 */
export function webhookBench(env: Record<string, string> = {}) {
  const bench = {} as { stack: Stack; hooks: Receiver };
  beforeAll(async () => {
    bench.hooks = await startReceiver();
    bench.stack = await startStack({ worker: true, env: { SIMULATOR_CALL_SECONDS: '0', ...env } });
  });
  afterAll(async () => {
    await bench.stack?.stop();
    await bench.hooks?.close();
  });
  return Object.assign(bench, {
    newPath: () => bench.hooks.newPath(),
    received: (path: string) => bench.hooks.received(path),
    verified: (path: string, ...secrets: string[]) => bench.hooks.verified(path, ...secrets),
    register: (key: string, body: Record<string, unknown>) => registerWebhook(bench.stack, key, body),
  });
}
