import { randomUUID } from 'node:crypto';
import { startHttpStub, type HttpStub, type RecordedRequest, type StubReply } from '../helpers/http-stub';
import { vapiCall } from '../helpers/provider-wire';

/**
 * Vapi as the chaos suite needs it: a remote system that outlives our processes. It places calls
 * (POST /call), ends each `callMs` later with the endedReason its plan gives for that number and attempt,
 * and sends the end-of-call report to the call's server URL until it is answered 2xx, as Vapi retries a
 * failed server message. It answers GET /call/{id} and GET /call, and can refuse dials with 500 or 429 for
 * a while. It counts every dial, so a dial placed twice cannot hide.
 */
export interface FakeVapi {
  url: string;
  /** Every call placed, in order: our call id and attempt from the assistant's metadata. */
  dials: Array<{ callId: string; attempt: number; providerCallId: string; number: string }>;
  /** Reports delivered (2xx) and deliveries our side refused (non-2xx or no answer). */
  delivered: number;
  refusedDeliveries: number;
  /** endedReasons per attempt for a customer number; the last repeats. Default: assistant-ended-call. */
  plan: Map<string, string[]>;
  /** Refuse every dial with this status until `until` (epoch ms). */
  failDials(status: 500 | 429, until: number): void;
  /**
   * Calls placed from now on stay in progress until `release()`: a scenario that kills a process while
   * attempts hold their calling slots waits for those calls, which cannot end before the kill.
   */
  hold(): void;
  /** Ends the held calls `callMs` from now, each as its plan says, and lets the next calls end as usual. */
  release(): void;
  refusedDials: number;
  close(): Promise<void>;
}

export async function startFakeVapi(opts: { callMs: number }): Promise<FakeVapi> {
  const calls = new Map<string, Record<string, unknown>>();
  let failing: { status: number; until: number } | null = null;
  let closed = false;
  let holding = false;
  let held: Array<() => void> = [];
  const fake: Omit<FakeVapi, 'url' | 'close'> & { url?: string } = {
    dials: [],
    delivered: 0,
    refusedDeliveries: 0,
    refusedDials: 0,
    plan: new Map(),
    failDials: (status, until) => (failing = { status, until }),
    hold: () => void (holding = true),
    release: () => {
      holding = false;
      for (const end of held) setTimeout(end, opts.callMs);
      held = [];
    },
  };

  const deliver = async (call: Record<string, unknown>, server: { url: string; headers?: Record<string, string> }) => {
    const body = JSON.stringify({
      message: {
        type: 'end-of-call-report',
        timestamp: Date.now(),
        endedReason: call.endedReason,
        startedAt: call.startedAt,
        endedAt: call.endedAt,
        durationSeconds: 60,
        call,
        artifact: {
          messages: [
            { role: 'bot', message: 'Hi, do you have a minute?' },
            { role: 'user', message: 'Yes.' },
          ],
          transcript: 'AI: Hi\nUser: Yes.',
        },
        analysis: { summary: 'Spoke with the candidate.' },
      },
    });
    // Vapi retries a server message that fails; bounded here so a broken run ends.
    const deadline = Date.now() + 5 * 60_000;
    while (!closed && Date.now() < deadline) {
      const ok = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...server.headers },
        body,
        signal: AbortSignal.timeout(10_000),
      })
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) {
        fake.delivered++;
        return;
      }
      fake.refusedDeliveries++;
      await new Promise((r) => setTimeout(r, 1_000));
    }
  };

  const place = (req: RecordedRequest): StubReply => {
    if (failing && Date.now() < failing.until) {
      fake.refusedDials++;
      return {
        status: failing.status,
        body: { message: failing.status === 429 ? 'Too Many Requests' : 'Internal server error', statusCode: failing.status },
      };
    }
    const meta = req.body?.assistant?.metadata ?? {};
    const number: string = req.body?.customer?.number ?? '';
    const call = vapiCall({
      id: randomUUID(),
      name: req.body?.name,
      customer: req.body?.customer,
      assistant: req.body?.assistant,
      status: 'in-progress',
    });
    calls.set(call.id as string, call);
    fake.dials.push({ callId: meta.call_id, attempt: meta.attempt, providerCallId: call.id as string, number });
    const reasons = fake.plan.get(number) ?? ['assistant-ended-call'];
    const endedReason = reasons[Math.min(meta.attempt, reasons.length) - 1];
    const placedAt = Date.now();
    const end = () => {
      const ended = {
        ...call,
        status: 'ended',
        endedReason,
        startedAt: new Date(placedAt).toISOString(),
        endedAt: new Date().toISOString(),
      };
      calls.set(call.id as string, ended);
      void deliver(ended, req.body.assistant.server);
    };
    if (holding) held.push(end);
    else setTimeout(end, opts.callMs);
    return { status: 201, body: call };
  };

  const stub: HttpStub = await startHttpStub((req) => {
    if (req.headers.authorization !== 'Bearer chaos-vapi-key') return { status: 401, body: { message: 'Invalid Key', statusCode: 401 } };
    if (req.method === 'POST' && req.path === '/call') return place(req);
    if (req.method === 'GET' && req.path.startsWith('/call?')) return { status: 200, body: [...calls.values()] };
    const id = /^\/call\/([^/?]+)$/.exec(req.path)?.[1];
    if (req.method === 'GET' && id && calls.has(id)) return { status: 200, body: calls.get(id) };
    return { status: 404, body: { message: 'Not Found', statusCode: 404 } };
  });
  return Object.assign(fake, {
    url: stub.url,
    close: async () => {
      closed = true;
      await stub.close();
    },
  }) as FakeVapi;
}
