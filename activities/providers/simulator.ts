import { randomUUID } from 'node:crypto';
import type { Logger } from '../../infra/logger';
import { outcomeForAttempt, parseSimulatedOutcomes } from '../../shared/simulated-outcomes';
import type { ExtractVariable } from '../../shared/schemas/call-initiate';
import type { DialRequest, DialResult, ReportCallOutcome, VoiceProvider } from './voice';

/**
 * A voice provider that behaves like a remote one: it accepts the dial at once and reports the outcome
 * `callSeconds` later through the same reporting path a real provider's callback takes. The outcome of each
 * attempt comes from the candidate's custom_fields.simulated_outcomes (default: completed).
 */
export class SimulatorVoiceProvider implements VoiceProvider {
  readonly name = 'simulator';
  /** Dials placed by this process, for tests and operators (`attempt` per call id). */
  readonly dials: Array<{ callId: string; attempt: number; at: Date }> = [];

  constructor(
    private readonly opts: { callSeconds: number; report: ReportCallOutcome; logger: Logger; clock: () => Date },
  ) {}

  async dial(req: DialRequest): Promise<DialResult> {
    this.dials.push({ callId: req.callId, attempt: req.attempt, at: this.opts.clock() });
    const outcome = outcomeForAttempt(parseSimulatedOutcomes(req.customFields.simulated_outcomes).outcomes, req.attempt);
    const report = () =>
      this.opts
        .report({
          callId: req.callId,
          attempt: req.attempt,
          outcome,
          ...(outcome === 'completed'
            ? {
                transcript: [
                  { role: 'assistant' as const, text: req.firstMessage },
                  { role: 'candidate' as const, text: `Hi, this is ${req.candidateName}. Yes, I have a few minutes.` },
                  { role: 'assistant' as const, text: 'Thank you, that is everything I needed. Goodbye!' },
                ],
                extracted: Object.fromEntries(req.extractVariables.map((v) => [v.label, sampleValue(v, this.opts.clock())])),
              }
            : {}),
        })
        .catch((err) => this.opts.logger.error({ err, callId: req.callId }, 'simulator could not report the outcome'));
    // A zero-length call reports before the dial returns, so the outcome never races a skipped clock in tests.
    if (this.opts.callSeconds === 0) await report();
    else setTimeout(report, this.opts.callSeconds * 1000);
    return { accepted: true, providerCallId: `sim_${randomUUID()}` };
  }
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
