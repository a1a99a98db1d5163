import { attemptPath, type CallAttempt } from '../infra/documents/calls';
import { ownNumber } from '../infra/documents/workspaces';
import { callScript, scriptSources } from '../operations/call-scripts';
import type { AttemptResult } from '../shared/calls/retry';
import type { CallStatus } from '../shared/calls/schema';
import type { DialResult } from '../providers/voice/port';
import type { CallActivityDeps, CallChanges } from './call-changes';
import { maskedRefusal } from '../shared/address-masking';
import { foreignReports } from '../infra/metrics';

export type AttemptCheck = { status: 'ended'; result: AttemptResult } | { status: 'going' } | { status: 'unknown' };

/** A dial's result, with the call's status as the dial left it (`in_progress`, or waiting again when busy). */
export type Dialled = DialResult & { callStatus?: CallStatus };

/** Placing an attempt, and asking the provider about one whose report never came. Each is idempotent. */
export function createCallDialActivities({ stores, logger, clock, voice, report }: CallActivityDeps, changes: CallChanges) {
  const { calls, load, loadWithReport } = changes;

  /** Dials the attempt unless an earlier execution of the activity did: never the same attempt twice. */
  async function placeOnce(callId: string, attempt: number): Promise<DialResult> {
    const call = await load(callId);
    const path = attemptPath(attempt);
    const existing = call.attempts.find((a) => a.number === attempt);
    if (existing?.provider_call_id) return { accepted: true, providerCallId: existing.provider_call_id };
    if (existing?.ended_reason)
      return { accepted: false, reason: existing.failure_reason ?? 'provider_error', detail: existing.ended_reason };
    // The workspace's number and disclosure as they are set at the dial (docs/contact-rules.md).
    const sources = await scriptSources(stores, call);
    const fromNumberId = ownNumber(sources.workspace, 'voice');
    if (existing && voice.findDial) {
      // An earlier execution may have placed the call and died (or timed out) before recording its id.
      const found = await voice.findDial(callId, attempt, existing.started_at, fromNumberId);
      if (found) {
        await calls.note(callId, { [`${path}.provider_call_id`]: found });
        return { accepted: true, providerCallId: found };
      }
    }
    if (!existing) {
      const record: CallAttempt = {
        number: attempt,
        direction: 'outbound',
        provider: voice.name,
        provider_call_id: null,
        started_at: clock(),
        ended_at: null,
        outcome: null,
        failure_reason: null,
      };
      await calls.change(call, { to: 'in_progress', push: { attempts: record }, set: { next_attempt_at: null } });
    }
    const result = await voice.dial({
      ...callScript(call, sources, attempt, 'outbound'),
      to: call.candidate.phone,
      customFields: call.candidate.custom_fields,
      fromNumberId,
    });
    if (result.accepted) {
      await calls.note(callId, { [`${path}.provider_call_id`]: result.providerCallId });
    } else if (result.busy) {
      // Not an attempt: the provider placed nothing. It is taken back, and the call waits its turn.
      logger.info({ callId, attempt, retryAfterMs: result.retryAfterMs }, 'provider busy; the call waits for capacity');
      await calls.change(await load(callId), { to: 'waiting_for_capacity', pop: { attempts: 1 } });
    } else {
      logger.warn({ callId, attempt, reason: result.reason, detail: maskedRefusal(result.detail) }, 'provider refused the call');
      // The provider's own words go to the log only: clients read a reason from a bounded set.
      const endedReason = result.reason === 'invalid_number' ? 'provider-refused-number' : 'provider-refused-call';
      await calls.note(callId, { [`${path}.ended_reason`]: endedReason, [`${path}.failure_reason`]: result.reason });
    }
    return result;
  }

  return {
    /**
     * Places the attempt once; an accepted dial carries how long its report may take (the provider's bound). A
     * busy provider placed nothing: the attempt is taken back and the workflow waits it out. `callStatus`: the
     * call's, as the dial left it.
     */
    async dial(callId: string, attempt: number): Promise<Dialled> {
      const result = await placeOnce(callId, attempt);
      const callStatus: CallStatus = !result.accepted && result.busy ? 'waiting_for_capacity' : 'in_progress';
      return result.accepted && voice.reportWithinMs !== undefined
        ? { ...result, reportWithinMs: voice.reportWithinMs, callStatus }
        : { ...result, callStatus };
    },

    /**
     * For an attempt whose report never came: its stored report (its signal was lost), else asks the provider
     * how the call ended and records that as its report. `going` while the provider says the call is still on;
     * `unknown` when the provider cannot be asked.
     */
    async checkAttempt(callId: string, attempt: number): Promise<AttemptCheck> {
      const { call, report: stored } = await loadWithReport(callId, attempt);
      if (stored) return { status: 'ended', result: stored.result };
      const a = call.attempts.find((x) => x.number === attempt);
      if (!a?.provider_call_id || !voice.fetchReport) return { status: 'unknown' };
      const fetched = await voice.fetchReport(a.provider_call_id, { callId, attempt });
      if (!fetched) return { status: 'going' };
      if (fetched === 'foreign') {
        foreignReports.inc({ provider: voice.name });
        logger.warn({ callId, attempt }, "the provider's call names another call than this attempt; nothing of it kept");
        return { status: 'unknown' };
      }
      logger.warn({ callId, attempt, result: fetched.result }, 'end-of-call report was lost; its result fetched from the provider');
      await report(fetched);
      // The result as the intake judged it (a call-back's screening: operations/call-reports.ts).
      const kept = await loadWithReport(callId, attempt);
      return { status: 'ended', result: kept.report?.result ?? fetched.result };
    },
  };
}
