import type { Logger } from 'pino';
import { outcomeForAttempt, parseSimulatedOutcomes } from '../../shared/calls/simulated-outcomes';
import type { ExtractVariable } from '../../shared/calls/schema';
import type { AttemptReport, CallBackGate, DialRequest, DialResult, ReportAttempt, VoiceProvider } from './port';

/** One call the simulator placed, kept as a remote provider keeps its calls: it outlives our processes. */
export interface SimulatedCallDoc {
  /** The provider call id, derived from the call and attempt, so a lost dial is found by one `_id` read. */
  _id: string;
  call_id: string;
  attempt: number;
  placed_at: Date;
  ends_at: Date;
  /** What the simulator reports when the call ends, fixed when it is placed. */
  report: AttemptReport;
  delivered_at: Date | null;
}

/** How long after a simulated call's end the lost-report lookup asks: the delivery is durable, so little. */
export const SIMULATOR_REPORT_GRACE_MS = 10_000;

export function simulatedCallId(callId: string, attempt: number): string {
  return `sim_${callId}_${attempt}`;
}

/** The simulator's own storage port (infra/keyed-store.ts implements it). */
export interface SimulatedCallStore {
  /** False when a call with this id was placed before; that one stands. */
  insertOnce(doc: SimulatedCallDoc): Promise<boolean>;
  get(id: string): Promise<SimulatedCallDoc | null>;
  set(id: string, fields: Partial<SimulatedCallDoc>): Promise<void>;
  remove(id: string): Promise<boolean>;
}

export interface SimulatorOptions {
  callSeconds: number;
  report: ReportAttempt;
  logger: Logger;
  clock: () => Date;
  /** Where the simulator keeps the calls it placed (`simulator_calls`), by id. */
  store: SimulatedCallStore;
  /**
   * Arranges for `deliver(providerCallId)` to run at `endsAt` even if this process dies meanwhile (a
   * Temporal workflow that sleeps the call length, workflows/simulated-call.ts).
   */
  deliverAt(providerCallId: string, endsAt: Date): Promise<void>;
}

/**
 * A voice provider that behaves like a remote one: it accepts the dial at once, keeps the call in its own
 * store, and reports the outcome `callSeconds` later through the same reporting path a real provider's
 * callback takes, from a durable timer. Asked about a call (the lost-report lookup), it answers what it
 * reported or would report. The outcome of each attempt comes from the candidate's
 * custom_fields.simulated_outcomes (default: completed).
 */
export class SimulatorVoiceProvider implements VoiceProvider {
  readonly name = 'simulator';
  readonly reportWithinMs: number;
  /** Dials placed by this process, for tests (`attempt` per call id). */
  readonly dials: Array<{ callId: string; attempt: number; at: Date }> = [];

  constructor(private readonly opts: SimulatorOptions) {
    this.reportWithinMs = opts.callSeconds * 1000 + SIMULATOR_REPORT_GRACE_MS;
  }

  async dial(req: DialRequest): Promise<DialResult> {
    const now = this.opts.clock();
    this.dials.push({ callId: req.callId, attempt: req.attempt, at: now });
    const id = simulatedCallId(req.callId, req.attempt);
    const doc = this.placed(id, req, now, simulatedResult(req, now));
    const placedNow = await this.opts.store.insertOnce(doc);
    if (!placedNow) {
      // Like a provider's idempotency key: the same attempt dialled again is the call already placed.
      this.opts.logger.warn({ callId: req.callId, attempt: req.attempt }, 'simulator: attempt dialled again; the placed call stands');
    }
    // A zero-length call reports before the dial returns, so the outcome never races a skipped clock in tests.
    // The call just placed is sent as it is, without reading it back; one placed before is sent as stored.
    if (this.opts.callSeconds === 0) await (placedNow ? this.send(doc) : this.deliver(id));
    else await this.opts.deliverAt(id, doc.ends_at);
    return { accepted: true, providerCallId: id };
  }

  /**
   * A candidate's call-back, answered by the call's gate (operations/call-backs.ts): the caller gives `name`;
   * with their identity confirmed (`confirmed`: the attempt's script) the conversation takes place; otherwise
   * the gate ends the call. Either way the report is what Vapi's would be: the gate's assistant carries the
   * call's extraction and a success evaluation, so an unconfirmed call-back's report still holds values
   * extracted from the gate's own transcript (a `false` for each yes-or-no question the caller never heard), and
   * only the server's record of the confirmation keeps it from counting (operations/call-reports.ts). Its
   * report comes `callSeconds` later by the same path a dial's does. `providerCallId`: the inbound call's id,
   * which the call's attempt already names.
   */
  async answerCallBack(
    gate: Pick<CallBackGate, 'callId' | 'attempt' | 'firstMessage' | 'extractVariables'>,
    providerCallId: string,
    caller: { name: string; confirmed: Pick<DialRequest, 'firstMessage' | 'candidateName' | 'extractVariables'> | null },
  ): Promise<void> {
    const now = this.opts.clock();
    const talk = caller.confirmed
      ? { ...conversation(caller.confirmed, now), screened: true }
      : {
          transcript: [
            { role: 'assistant' as const, text: gate.firstMessage },
            { role: 'candidate' as const, text: caller.name },
            { role: 'assistant' as const, text: 'I am sorry, I cannot continue this call. Thank you, goodbye.' },
          ],
          extracted: Object.fromEntries(gate.extractVariables.map((v) => [v.label, v.type === 'boolean' ? false : sampleValue(v, now)])),
          screened: true,
        };
    const doc = this.placed(providerCallId, gate, now, { result: 'completed', direction: 'inbound', ...talk });
    if (!(await this.opts.store.insertOnce(doc))) return;
    if (this.opts.callSeconds === 0) await this.send(doc);
    else await this.opts.deliverAt(providerCallId, doc.ends_at);
  }

  /** A call placed now under `id`, ending `callSeconds` later with `ended` as its report. */
  private placed(
    id: string,
    { callId, attempt }: { callId: string; attempt: number },
    now: Date,
    ended: Pick<AttemptReport, 'result' | 'transcript' | 'extracted' | 'direction' | 'screened'>,
  ): SimulatedCallDoc {
    const ends_at = new Date(now.getTime() + this.opts.callSeconds * 1000);
    const report = { callId, attempt, providerCallId: id, ...ended };
    return { _id: id, call_id: callId, attempt, placed_at: now, ends_at, report, delivered_at: null };
  }

  async findDial(callId: string, attempt: number): Promise<string | null> {
    const placed = await this.opts.store.get(simulatedCallId(callId, attempt));
    return placed?._id ?? null;
  }

  /** The simulator's own copy of a call goes at an erasure, as a provider's would. */
  async deleteCall(providerCallId: string): Promise<'deleted' | 'gone'> {
    return (await this.opts.store.remove(providerCallId)) ? 'deleted' : 'gone';
  }

  async fetchReport(providerCallId: string): Promise<AttemptReport | null> {
    const placed = await this.opts.store.get(providerCallId);
    if (!placed || placed.ends_at > this.opts.clock()) return null;
    return placed.report;
  }

  /** Sends the call's end-of-call report; a report the call already has changes nothing (at-least-once). */
  async deliver(providerCallId: string): Promise<void> {
    const placed = await this.opts.store.get(providerCallId);
    if (!placed) throw new Error(`simulator has no call ${providerCallId}`);
    await this.send(placed);
  }

  private async send(placed: SimulatedCallDoc): Promise<void> {
    await this.opts.report(placed.report);
    if (!placed.delivered_at) await this.opts.store.set(placed._id, { delivered_at: this.opts.clock() });
  }
}

/** The attempt's scripted outcome, with a short transcript and extracted values when it completes. */
function simulatedResult(req: DialRequest, now: Date): Pick<AttemptReport, 'result' | 'transcript' | 'extracted'> {
  const result = outcomeForAttempt(parseSimulatedOutcomes(req.customFields.simulated_outcomes).outcomes, req.attempt);
  if (result !== 'completed') return { result };
  return { result, ...conversation(req, now) };
}

/** A completed conversation's short transcript and a value of each extract variable's type. */
function conversation(
  req: Pick<DialRequest, 'firstMessage' | 'candidateName' | 'extractVariables'>,
  now: Date,
): Pick<AttemptReport, 'transcript' | 'extracted'> {
  return {
    transcript: [
      { role: 'assistant', text: req.firstMessage },
      { role: 'candidate', text: `Hi, this is ${req.candidateName}. Yes, I have a few minutes.` },
      { role: 'assistant', text: 'Thank you, that is everything I needed. Goodbye!' },
    ],
    extracted: Object.fromEntries(req.extractVariables.map((v) => [v.label, sampleValue(v, now)])),
  };
}

/** A plausible value of the variable's declared type. */
export function sampleValue(v: ExtractVariable, now: Date): unknown {
  switch (v.type) {
    case 'string':
      return v.format_example ?? `Sample ${v.label}`;
    case 'single_select':
      return v.choices?.[0] ?? null;
    case 'boolean':
      return true;
    case 'integer':
      return 3;
    case 'number':
      return 4.5;
    case 'array':
      return [`${v.label} 1`, `${v.label} 2`];
    case 'date':
      return now.toISOString().slice(0, 10);
    case 'datetime':
      return now.toISOString();
  }
}
