import { ApplicationFailure } from '@temporalio/activity';
import { upstreamFailure } from '../shared/errors';
import { attemptPath, type CallAttempt, type CallDoc, type ResolvedTemplate } from '../infra/records/calls';
import { callReportId, reportedFields, type CallReportDoc } from '../infra/records/call-reports';
import type { CallStatus } from '../shared/calls/schema';
import { insertOnce } from '../infra/duplicate-key';
import type { FailureReason } from '../shared/calls/retry';
import type { DialResult } from '../providers/voice/port';
import { whatsappRef, type SendResult } from '../providers/whatsapp/port';
import { freeCandidate } from '../infra/claims';
import { callList } from '../infra/lists/calls';
import { callAnnouncement } from '../infra/webhooks/resources';
import { eventKey, recordEvent, withEvent } from '../infra/webhooks/events';
import { releaseSlot, slotHolder, takeSlot } from '../infra/call-slots';
import { maxConcurrentCalls } from '../infra/records/workspaces';
import { LOST_REPORT_CHECKS, slotLeaseMs } from '../shared/calls/capacity';
import type { CallEventType } from '../shared/webhooks/schema';
import type { ActivityDeps } from './deps';

export type AttemptCheck = { status: 'ended'; outcome: 'completed' | FailureReason } | { status: 'going' } | { status: 'unknown' };

/**
 * Call side effects. Each is idempotent: a retried or replayed activity leaves the same state. Every read and
 * write is an exact `_id` match, with conditions checked in code after the read: one execution of an activity
 * per call runs at a time, and on FerretDB an extra filter field would scan every call.
 */
export function createCallActivities({
  db,
  logger,
  clock,
  voice,
  whatsapp,
  report,
  announce,
}: Pick<ActivityDeps, 'db' | 'logger' | 'clock' | 'voice' | 'whatsapp' | 'report' | 'announce'>) {
  const calls = callList(db);
  async function load(callId: string): Promise<CallDoc> {
    const call = await db.calls.findOne({ _id: callId });
    if (!call) throw ApplicationFailure.nonRetryable(`Call ${callId} does not exist`, 'CallNotFound');
    return call;
  }

  /**
   * The fields that write stored reports into the call (infra/records/call-reports.ts), for the write that
   * ends their attempt; nothing for a report that is not there or is written in already.
   */
  function reported(call: CallDoc, reports: Array<CallReportDoc | null>): Record<string, unknown> {
    let set: Record<string, unknown> = {};
    for (const report of reports) {
      const fields = report && reportedFields(call, report);
      if (!fields) continue;
      if (fields.notes.length > 0)
        logger.warn({ callId: call._id, attempt: report.attempt, notes: fields.notes }, 'extracted values dropped');
      set = { ...set, ...fields.set };
    }
    return set;
  }
  const readReport = (callId: string, attempt: number) => db.callReports.findOne({ _id: callReportId(callId, attempt) });

  /** The call and the stored report of its attempt, read together. */
  async function loadWithReport(callId: string, attempt: number): Promise<{ call: CallDoc; report: CallReportDoc | null }> {
    const [call, report] = await Promise.all([load(callId), readReport(callId, attempt)]);
    return { call, report };
  }

  /**
   * Frees the calling slot the call holds, if any. The change written next clears the call's record of it
   * (`capacity_slot: null`); a crash before that write frees it again, harmlessly: only its holder frees a slot.
   */
  async function releaseHeldSlot(call: CallDoc): Promise<void> {
    if (call.capacity_slot) await releaseSlot(db, call.capacity_slot);
  }

  /** Frees the calling slot the call holds, if any, when no change of the call is written with it. */
  async function giveSlotBack(call: CallDoc): Promise<void> {
    if (!call.capacity_slot) return;
    await releaseHeldSlot(call);
    await calls.touch(call._id, { $set: { capacity_slot: null } });
  }

  /** The fields of an attempt's end, for the write that records it. */
  const attemptEnd = (attempt: number, outcome: 'completed' | FailureReason, endedAt: Date) => {
    const path = attemptPath(attempt);
    return {
      [`${path}.ended_at`]: endedAt,
      [`${path}.outcome`]: outcome === 'completed' ? 'completed' : 'failed',
      [`${path}.failure_reason`]: outcome === 'completed' ? null : outcome,
    };
  };

  /** A happening of the call, for `recordEvent` in its change's write and for `announceCall` after it. */
  const callEvent = (type: CallEventType, occurrence: string | number) => ({ type, key: eventKey(type, occurrence) });
  const messageEvent = (kind: 'pre_call' | 'fallback', sent: boolean) =>
    callEvent('whatsapp.message.updated', `${kind}/${sent ? 'sent' : 'failed'}`);

  /**
   * Announces the events of a change to the workspace's webhooks, in order, from the call as the change's write
   * left it (`after`, with the events recorded). A change that was written without them (by an execution from
   * before events were recorded with their change) records them now.
   */
  async function announceCall(after: CallDoc | null, ...events: Array<{ type: CallEventType; key: string }>): Promise<void> {
    if (!after) return;
    await announce(
      after.workspace_id,
      ...events.map((event) => ({
        type: event.type,
        about: async () => {
          const call = await withEvent(after, event.key, (update) => calls.touch(after._id, update));
          return call && callAnnouncement(call, event.key);
        },
      })),
    );
  }

  /** Appends the template message of `kind` to the call once, as sent or failed. */
  async function recordMessage(
    call: CallDoc,
    kind: 'pre_call' | 'fallback',
    template: ResolvedTemplate,
    result: SendResult,
  ): Promise<void> {
    // Recorded by an earlier execution, which may have stopped before announcing it.
    const recorded = call.messages.find((m) => m.kind === kind);
    if (recorded) return announceCall(call, messageEvent(kind, Boolean(recorded.provider_message_id)));
    const event = messageEvent(kind, result.sent);
    const { item } = await calls.update(call, {}, (at) => ({
      ...recordEvent(event.key),
      $set: { updated_at: at },
      $push: {
        messages: {
          kind,
          channel: 'whatsapp',
          template_name: template.template_name,
          variables: template.variables,
          status: result.sent ? 'sent' : 'failed',
          provider: whatsapp.name,
          provider_message_id: result.sent ? result.providerMessageId : null,
          error_code: result.sent ? null : (result.code ?? null),
          error: result.sent ? null : result.error,
          sent_at: result.sent ? clock() : null,
        },
      },
    }));
    await announceCall(item, event);
  }

  /** The call waits for its dial at `when`: the fields and the `call.scheduled` event that show it. */
  const scheduled = (call: CallDoc, when: Date) => ({
    // scheduled_for keeps the first dial time.
    set: { next_attempt_at: when, ...(call.scheduled_for === null ? { scheduled_for: when } : {}) },
    // Once per attempt it waits for: the first dial, and each retry.
    event: callEvent('call.scheduled', call.attempts.length + 1),
  });

  /** Dials the attempt unless an earlier execution of the activity did: never the same attempt twice. */
  async function placeOnce(callId: string, attempt: number, waitsWhenBusy: boolean): Promise<DialResult> {
    const call = await load(callId);
    const existing = call.attempts.find((a) => a.number === attempt);
    if (existing?.provider_call_id) return { accepted: true, providerCallId: existing.provider_call_id };
    if (existing?.ended_reason)
      return { accepted: false, reason: existing.failure_reason ?? 'provider_error', detail: existing.ended_reason };
    if (existing && voice.findDial) {
      // An earlier execution may have placed the call and died (or timed out) before recording its id.
      const found = await voice.findDial(callId, attempt, existing.started_at);
      if (found) {
        await calls.touch(callId, { $set: { [`${attemptPath(attempt)}.provider_call_id`]: found } });
        return { accepted: true, providerCallId: found };
      }
    }
    if (!existing) {
      const record: CallAttempt = {
        number: attempt,
        provider: voice.name,
        provider_call_id: null,
        started_at: clock(),
        ended_at: null,
        outcome: null,
        failure_reason: null,
      };
      await calls.update(call, { status: 'in_progress' }, (at) => ({
        $push: { attempts: record },
        $set: { status: 'in_progress', next_attempt_at: null, updated_at: at },
      }));
    }
    const result = await voice.dial({
      callId,
      attempt,
      to: call.candidate.phone,
      candidateName: call.candidate.name,
      firstMessage: call.first_message,
      instructions: call.instructions,
      assistantSettings: call.assistant_settings,
      extractVariables: call.extract_variables,
      customFields: call.candidate.custom_fields,
    });
    if (result.accepted) {
      await calls.touch(callId, { $set: { [`${attemptPath(attempt)}.provider_call_id`]: result.providerCallId } });
    } else if (result.busy && !waitsWhenBusy) {
      throw upstreamFailure(voice.name, 429, `${voice.name} is busy: ${result.detail ?? 'too many calls at once'}`);
    } else if (result.busy) {
      // Not an attempt: the provider placed nothing. It is taken back, and the call waits its turn.
      logger.info({ callId, attempt, retryAfterMs: result.retryAfterMs }, 'provider busy; the call waits for capacity');
      const now = await load(callId);
      await calls.update(now, { status: 'waiting_for_capacity' }, (at) => ({
        $pop: { attempts: 1 },
        $set: { status: 'waiting_for_capacity', updated_at: at },
      }));
    } else {
      logger.warn({ callId, attempt, reason: result.reason, detail: result.detail }, 'provider refused the call');
      const path = attemptPath(attempt);
      await calls.touch(callId, {
        $set: { [`${path}.ended_reason`]: result.detail ?? result.reason, [`${path}.failure_reason`]: result.reason },
      });
    }
    return result;
  }

  return {
    async markScheduled(callId: string, dialAt: number): Promise<void> {
      const call = await load(callId);
      const { set, event } = scheduled(call, new Date(dialAt));
      const { item } = await calls.update(call, { status: 'scheduled' }, (at) => ({
        ...recordEvent(event.key),
        $set: { ...set, status: 'scheduled', updated_at: at },
      }));
      await announceCall(item, event);
    },

    /** Places the attempt once; an accepted dial carries how long its report may take (the provider's bound). */
    /**
     * `waitsWhenBusy`: the workflow waits out a busy provider (calling slots); without it (workflows from
     * before them) a busy provider fails the activity, which Temporal retries, as it always did.
     */
    async dial(callId: string, attempt: number, waitsWhenBusy = false): Promise<DialResult> {
      const result = await placeOnce(callId, attempt, waitsWhenBusy);
      return result.accepted && voice.reportWithinMs !== undefined ? { ...result, reportWithinMs: voice.reportWithinMs } : result;
    },

    /**
     * For an attempt whose report never came: its stored report (its signal was lost), else asks the provider
     * how the call ended and records that as its report. `going` while the provider says the call is still on;
     * `unknown` when the provider cannot be asked.
     */
    async checkAttempt(callId: string, attempt: number): Promise<AttemptCheck> {
      const { call, report: stored } = await loadWithReport(callId, attempt);
      if (stored) return { status: 'ended', outcome: stored.outcome };
      const a = call.attempts.find((x) => x.number === attempt);
      if (!a?.provider_call_id || !voice.fetchReport) return { status: 'unknown' };
      const fetched = await voice.fetchReport(a.provider_call_id, { callId, attempt });
      if (!fetched) return { status: 'going' };
      logger.warn({ callId, attempt, outcome: fetched.outcome }, 'end-of-call report was lost; outcome fetched from the provider');
      await report(fetched);
      return { status: 'ended', outcome: fetched.outcome };
    },

    /**
     * One of the workspace's calling slots for the attempt, or, when all are held, the call shown waiting for
     * capacity. `reportWithinMs`: the workflow's report wait, for a provider that does not give its own.
     * `dialAt`: a call that dials at once is shown scheduled (`markScheduled`) in this write, not one of its own.
     */
    async takeCallSlot(callId: string, attempt: number, reportWithinMs: number, dialAt?: number): Promise<{ taken: boolean }> {
      const call = await load(callId);
      // Taken by an earlier execution of this activity (a retry, or a replayed workflow task).
      if (call.capacity_slot?.holder === slotHolder(callId, attempt)) return { taken: true };
      const workspace = await db.shared.workspace(call.workspace_id);
      const lease = slotLeaseMs(voice.reportWithinMs ?? reportWithinMs, LOST_REPORT_CHECKS);
      const now = clock();
      const slot = await takeSlot(
        db,
        call.workspace_id,
        slotHolder(callId, attempt),
        maxConcurrentCalls(workspace),
        new Date(now.getTime() + lease),
        now,
      );
      // Recorded once: a later look, or a retry after the write, finds it.
      const schedule = dialAt !== undefined && call.scheduled_for === null ? scheduled(call, new Date(dialAt)) : null;
      if (slot && !schedule) {
        await calls.touch(callId, { $set: { capacity_slot: slot } });
        return { taken: true };
      }
      if (slot && schedule) {
        const { item } = await calls.update(call, {}, (at) => ({
          ...recordEvent(schedule.event.key),
          $set: { ...schedule.set, capacity_slot: slot, updated_at: at },
        }));
        await announceCall(item, schedule.event);
        return { taken: true };
      }
      if (call.status !== 'waiting_for_capacity' || schedule) {
        const { item } = await calls.update(call, { status: 'waiting_for_capacity' }, (at) => ({
          ...(schedule ? recordEvent(schedule.event.key) : {}),
          $set: { ...schedule?.set, status: 'waiting_for_capacity', next_attempt_at: null, updated_at: at },
        }));
        if (schedule) await announceCall(item, schedule.event);
      }
      return { taken: false };
    },

    /** Gives the attempt's calling slot back (the provider was busy: the call waits again). */
    async releaseCallSlot(callId: string): Promise<void> {
      await giveSlotBack(await load(callId));
    },

    /** `endedAt`: when the workflow took the outcome (its clock), else now. The attempt's slot is given back. */
    async recordAttempt(callId: string, attempt: number, outcome: 'completed' | FailureReason, endedAt?: number): Promise<void> {
      const { call, report } = await loadWithReport(callId, attempt);
      // An attempt that was never recorded (the dial failed before it) has nothing to end.
      if (call.attempts[attempt - 1]?.number !== attempt) return giveSlotBack(call);
      await releaseHeldSlot(call);
      const event = callEvent('call.attempt.ended', attempt);
      const { item } = await calls.update(call, {}, (at) => ({
        ...recordEvent(event.key),
        $set: {
          ...reported(call, [report]),
          capacity_slot: null,
          ...attemptEnd(attempt, outcome, endedAt === undefined ? clock() : new Date(endedAt)),
          updated_at: at,
        },
      }));
      await announceCall(item, event);
    },

    async sendWhatsApp(callId: string, kind: 'pre_call' | 'fallback'): Promise<void> {
      const call = await load(callId);
      const sent = call.messages.find((m) => m.kind === kind);
      // Sent by an earlier execution, which may have stopped before announcing it.
      if (sent) return announceCall(call, messageEvent(kind, Boolean(sent.provider_message_id)));
      const template = call.whatsapp[kind];
      if (!template) return;
      const result = await whatsapp.send({
        workspaceId: call.workspace_id,
        callId,
        kind,
        to: call.candidate.phone,
        templateName: template.template_name,
        variables: template.variables,
        language: call.assistant_settings?.language?.code ?? null,
      });
      if (result.sent) {
        // Lets delivery callbacks find this message by the provider's id.
        await insertOnce(db.providerRefs, { _id: whatsappRef(result.providerMessageId), call_id: callId, kind, created_at: clock() });
      } else {
        logger.warn({ callId, kind, code: result.code, error: result.error }, 'WhatsApp template not sent');
      }
      await recordMessage(call, kind, template, result);
    },

    /** Records a template that could not be sent after every retry; the call goes on without it. */
    async recordMessageFailure(callId: string, kind: 'pre_call' | 'fallback', error: string): Promise<void> {
      const call = await load(callId);
      const template = call.whatsapp[kind];
      if (!template) return;
      await recordMessage(call, kind, template, { sent: false, error });
    },

    /**
     * A completed attempt ends the call: recordAttempt and finishCall in one write, which records both events
     * (`call.attempt.ended`, then `call.completed`; each shows the call completed). The slot is given back and
     * the candidate freed.
     */
    async completeCall(callId: string, attempt: number, endedAt: number): Promise<void> {
      const { call, report } = await loadWithReport(callId, attempt);
      await releaseHeldSlot(call);
      const ended = callEvent('call.attempt.ended', attempt);
      const completed = callEvent('call.completed', 'final');
      const recorded = call.attempts[attempt - 1]?.number === attempt;
      const { item } = await calls.update(call, { status: 'completed' }, (at) => ({
        ...recordEvent(...(recorded ? [ended.key] : []), completed.key),
        $set: {
          ...reported(call, [report]),
          ...(recorded ? attemptEnd(attempt, 'completed', new Date(endedAt)) : {}),
          capacity_slot: null,
          status: 'completed',
          failure_reason: null,
          next_attempt_at: null,
          updated_at: at,
        },
      }));
      await freeCandidate(db, call);
      await announceCall(item, ...(recorded ? [ended] : []), completed);
    },

    /** A cancel arrived during an attempt: the call shows it until the attempt ends. */
    async markCancelling(callId: string): Promise<void> {
      const call = await load(callId);
      if (call.status !== 'in_progress') return;
      await calls.update(call, { status: 'cancelling' }, (at) => ({ $set: { status: 'cancelling', updated_at: at } }));
    },

    /** Ends the call and frees the candidate for a new call. */
    async finishCall(
      callId: string,
      status: Extract<CallStatus, 'completed' | 'failed' | 'cancelled'>,
      reason: FailureReason | null,
    ): Promise<void> {
      const call = await load(callId);
      // Reports of attempts given up on (no_outcome) that came in since: written in now, with the call's end.
      const late = await Promise.all(call.attempts.filter((a) => !a.reported_at).map((a) => readReport(callId, a.number)));
      await releaseHeldSlot(call);
      const event = callEvent(`call.${status}`, 'final');
      const { item } = await calls.update(call, { status }, (at) => ({
        ...recordEvent(event.key),
        $set: { ...reported(call, late), capacity_slot: null, status, failure_reason: reason, next_attempt_at: null, updated_at: at },
      }));
      await freeCandidate(db, call);
      await announceCall(item, event);
    },
  };
}

/** The call workflow's activities, the type it proxies. */
export type CallActivities = ReturnType<typeof createCallActivities>;
