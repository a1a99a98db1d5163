import type { ChaosStack, Response } from './stack';

/** What a scenario verified, one line each, for the run's summary. */
export class Checks {
  readonly lines: string[] = [];
  readonly failures: string[] = [];

  constructor(readonly scenario: string) {}

  /** Records `what` as verified when `ok`, else as a failure with `detail`. */
  that(ok: boolean, what: string, detail: unknown = ''): void {
    if (ok) this.lines.push(what);
    else this.failures.push(`${what}: ${typeof detail === 'string' ? detail : JSON.stringify(detail).slice(0, 600)}`);
  }

  note(line: string): void {
    this.lines.push(line);
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until `done` holds or `timeoutMs` passes; returns the last value either way. */
export async function until<T>(probe: () => Promise<T>, done: (v: T) => boolean, timeoutMs: number, everyMs = 500): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => undefined as T);
    if ((v !== undefined && done(v)) || Date.now() > deadline) return v;
    await sleep(everyMs);
  }
}

export { FALLBACK_TEMPLATE as FALLBACK, PRE_CALL_TEMPLATE as PRE_CALL } from '../helpers/provider-wire';

export interface Cand {
  id: string;
  name: string;
  email: string;
  phone: string;
}

/** Candidates whose phone numbers are unique to the scenario (`series`, 10..99). */
export function candidates(series: number, count: number, from = 0): Cand[] {
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    return {
      id: `c${series}-${i}`,
      name: 'Chaos Candidate',
      email: `c${series}.${i}@example.com`,
      phone: `+1415${series}${String(i).padStart(5, '0')}`,
    };
  });
}

export function initiateBody(job: string, cands: Cand[], settings: Record<string, unknown> = {}) {
  return {
    ats_job_id: job,
    first_message: 'Hi {{candidate_first_name}}, this is {{sender_first_name}}',
    instructions: 'You are recruiting for {{sender_company}}. Ask about availability.',
    candidates: cands,
    ...(Object.keys(settings).length > 0 ? { call_settings: settings } : {}),
  };
}

export async function campaign(stack: ChaosStack, job: string): Promise<void> {
  const res = await stack.request('POST', '/api/public/v1/campaigns', { ats_job_id: job, name: job });
  if (res.status !== 201 && res.status !== 200) throw new Error(`campaign ${job}: ${res.status} ${JSON.stringify(res.body)}`);
}

/** The stored calls of a job's candidates, by candidate id (one scan; the chaos store is small). */
export async function callsByCandidate(stack: ChaosStack, job: string) {
  const calls = await stack.store.calls.find({ ats_job_id: job }).toArray();
  const by = new Map<string, typeof calls>();
  for (const c of calls) by.set(c.candidate_id, [...(by.get(c.candidate_id) ?? []), c]);
  return by;
}

/** Dials the fake Vapi received per call and attempt. */
export function dialCounts(stack: ChaosStack, callIds: Set<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const d of stack.vapi.dials)
    if (callIds.has(d.callId)) counts.set(`${d.callId}#${d.attempt}`, (counts.get(`${d.callId}#${d.attempt}`) ?? 0) + 1);
  return counts;
}

/** A documented error body: 503 JSON `{success:false, message}` (calls add `code`). */
export function isUnavailableBody(res: Response): boolean {
  return (
    res.status === 503 &&
    res.contentType.startsWith('application/json') &&
    res.body?.success === false &&
    typeof res.body?.message === 'string'
  );
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * The job's calls as the lists show them, through the API: every stored call listed once, as it is stored,
 * newest first paged to the end, and each at its last change in the change feed from `since`.
 */
export async function listsAgree(stack: ChaosStack, checks: Checks, job: string, since: Date, label = ''): Promise<void> {
  const stored = await stack.store.calls.find({ ats_job_id: job }).toArray();
  const pages = async (query: string) => {
    const seen: any[] = [];
    let cursor: string | null = null;
    for (let n = 0; n < 100; n++) {
      const res = await stack.request(
        'GET',
        `/api/public/v1/calls?${query}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      if (res.status !== 200) throw new Error(`GET /calls: ${res.status} ${JSON.stringify(res.body)}`);
      seen.push(...res.body.data);
      cursor = res.body.next_cursor;
      if (!cursor || res.body.data.length === 0) break;
    }
    return seen;
  };
  const status = new Map(stored.map((c) => [c._id, c.status]));
  const agree = (listed: any[]) =>
    listed.length === stored.length &&
    new Set(listed.map((c) => c.id)).size === stored.length &&
    listed.every((c) => status.get(c.id) === c.status);
  const listed = await pages(`ats_job_id=${job}`);
  checks.that(agree(listed), `${label}every stored call listed once, as stored (${listed.length} of ${stored.length})`, {
    listed: listed.map((c) => [c.id, c.status]),
    stored: stored.map((c) => [c._id, c.status]),
  });
  // The feed shows a change FEED_SETTLE_MS after it was written.
  await sleep(3_000);
  const fed = (await pages(`ats_job_id=${job}&updated_since=${since.toISOString()}`)).filter((c) => status.has(c.id));
  const last = new Map(fed.map((c) => [c.id, c]));
  checks.that(agree([...last.values()]), `${label}the change feed ends with every call's final state`, {
    fed: [...last.values()].map((c) => [c.id, c.status]),
  });
}
