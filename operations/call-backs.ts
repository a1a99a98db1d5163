import type { CallDoc } from '../infra/documents/calls';
import { callBackLimits, maxConcurrentCalls, ownNumber, type WorkspaceDoc } from '../infra/documents/workspaces';
import { normalisePhone } from '../infra/people';
import { callBackRefusal, namesMatch } from '../shared/calls/call-backs';
import { callBacksRefused } from '../infra/metrics';
import type { OperationDeps } from './deps';
import { callBackGate, callScript, scriptSources } from './call-scripts';
import type { AssistantScript, CallBackGate, InboundCall } from '../providers/voice/port';

/**
 * How long the call's workflow has to take a call-back. Vapi gives up on an answer after 7.5 s; ours comes within
 * 5 (the port waits 1.5 s more for an answer decided in time, and gives a withdrawal 1.5 s: composition/workflow-port.ts).
 */
export const CALL_BACK_DECISION_MS = 2_000;

/**
 * Why a call-back found nothing pending: no call of this caller at this number (`no_call`), the refusal of the
 * most recent call they have there (a stored rule: `never_dialled`, `not_waiting`, `too_old`, …), no free
 * calling slot, or the call's workflow refused it (`refused_by_call`: it had stopped waiting, or took another)
 * or gave no answer within the decision time (`no_answer`: its worker down or busy).
 */
export type NothingPendingReason = 'no_call' | CallRefusal | 'no_slot' | 'refused_by_call' | 'no_answer';
/** Why a stored call may not take a call-back now. */
type CallRefusal = NonNullable<ReturnType<typeof callBackRefusal>> | 'not_waiting' | 'no_consent' | 'suppressed';

/** A call-back's answer: the gate of the call it became an attempt of, or why nothing was pending. */
export type CallBackDecision = { gate: CallBackGate & { workspaceId: string } } | { nothingPending: NothingPendingReason };

/** What the caller's confirmed identity opens: the call's script, or nothing (the assistant ends the call). */
export type IdentityAnswer = { confirmed: true; script: AssistantScript; opening: string } | { confirmed: false };

/**
 * A candidate's call-back (docs/calls.md): the number called names the workspace (its own, given by the
 * operator; the service's shared number stands for every workspace without one that knows the caller), and
 * in it the caller's calls that may take one, the most recent first: dialled and missed within the
 * workspace's `call_back_days`, waiting for a retry, under `call_backs_per_day`, not erased, consented where
 * the workspace requires it, and neither the phone nor the email refused for voice. A free calling slot is
 * needed too: a call-back never goes beyond `max_concurrent_calls`. The call's workflow takes the call-back as
 * its next attempt (workflows/call-state.ts), and the answer is a gate: it names the company and asks the
 * caller's name, and only `confirmIdentity` gives the assistant the call's script. Null: nothing is pending
 * for this caller at this number, and nothing is recorded.
 */
export function callBackAnswering({ stores, workflows, config, logger }: OperationDeps) {
  const log = logger.child({ component: 'call-backs' });

  /** The workspaces whose calls a call to this number may be about. */
  async function workspacesOf(call: InboundCall): Promise<WorkspaceDoc[]> {
    const owner = await stores.workspaces.ofNumber('voice', call.numberId);
    const ids = owner
      ? [owner]
      : config.VAPI_PHONE_NUMBER_ID && call.numberId === config.VAPI_PHONE_NUMBER_ID
        ? await stores.candidates.workspacesOfPhone(normalisePhone(call.from))
        : [];
    const workspaces = await Promise.all(ids.map((id) => stores.workspaces.get(id)));
    // The shared number stands only for the workspaces without a number of their own.
    return workspaces.filter((w): w is WorkspaceDoc => !!w && (!!owner || !ownNumber(w, 'voice')));
  }

  /** Why this call may not take a call-back now (counted), or null when it may. */
  async function refusal(workspace: WorkspaceDoc, call: CallDoc, phone: string, now: number): Promise<CallRefusal | null> {
    if (call.workspace_id !== workspace._id || call.erased_at || call.status !== 'scheduled') return 'not_waiting';
    if (normalisePhone(call.candidate.phone) !== phone) return 'not_waiting';
    const rule = callBackRefusal(call.attempts, now, callBackLimits(workspace));
    if (rule) return rule;
    if (workspace.settings?.voice_consent_required === true && !call.candidate.consent) return 'no_consent';
    const refused = await stores.suppressions.channelsFor(workspace, { phone, email: call.candidate.email });
    return refused.has('voice') ? 'suppressed' : null;
  }

  /**
   * The workspace's calls to this phone that may take a call-back now, the most recent first, and the refusal
   * of the most recent one that may not (null when the phone has no call here).
   */
  async function openCalls(workspace: WorkspaceDoc, phone: string): Promise<{ open: CallDoc[]; refused: CallRefusal | null }> {
    const { calls: ids } = await stores.candidates.findPerson(workspace._id, { phone });
    const calls = (await Promise.all(ids.map((id) => stores.calls.get(id))))
      .filter((c): c is CallDoc => !!c)
      .sort((a, b) => b.created_at.getTime() - a.created_at.getTime());
    const now = Date.now();
    const reasons = await Promise.all(calls.map((c) => refusal(workspace, c, phone, now)));
    for (const reason of reasons) if (reason && reason !== 'not_waiting') callBacksRefused.inc({ reason });
    return { open: calls.filter((_, i) => !reasons[i]), refused: reasons.find((r) => r !== null) ?? null };
  }

  return {
    /**
     * `decisionMs`: how long the call's workflow has to take it. A provider's caller waits CALL_BACK_DECISION_MS;
     * the simulator's (composition/call-back-simulation.ts) is no provider's, and waits longer.
     */
    async answer(call: InboundCall, decisionMs = CALL_BACK_DECISION_MS): Promise<CallBackDecision> {
      const phone = normalisePhone(call.from);
      const until = Date.now() + decisionMs;
      let why: NothingPendingReason = 'no_call';
      for (const workspace of await workspacesOf(call)) {
        const { open, refused } = await openCalls(workspace, phone);
        if (open.length === 0) {
          if (refused && why === 'no_call') why = refused;
          continue;
        }
        if (!(await stores.callSlots.anyFree(workspace._id, maxConcurrentCalls(workspace)))) {
          callBacksRefused.inc({ reason: (why = 'no_slot') });
          continue;
        }
        for (const candidateCall of open) {
          // A call asked once the decision time is spent could only refuse, and the caller is waiting.
          const left = until - Date.now();
          if (left <= 0) break;
          const taken = await workflows.callBack(candidateCall._id, call.providerCallId, left);
          if (!taken || !('attempt' in taken)) {
            callBacksRefused.inc({ reason: (why = taken ? 'refused_by_call' : 'no_answer') });
            continue;
          }
          log.info({ callId: candidateCall._id, attempt: taken.attempt }, 'call-back taken as an attempt of its call');
          const sources = await scriptSources(stores, candidateCall);
          return { gate: { ...callBackGate(candidateCall, sources, taken.attempt), workspaceId: workspace._id } };
        }
      }
      log.info({ provider_call_id: call.providerCallId, why }, 'call-back with nothing pending');
      return { nothingPending: why };
    },

    /**
     * The caller's answer to the gate's question: `name`, as the assistant heard it, for the attempt the
     * gate's metadata names, in the tool call `toolCallId`. Confirmed only for that call's inbound attempt under
     * way on this provider call, and a name that is the candidate's (shared/calls/call-backs.ts); then the
     * confirmation is recorded (the attempt's report counts only with it: operations/call-reports.ts) and the
     * script of the attempt opens, which the assistant follows from there. Each name judged takes one of the
     * inbound call's IDENTITY_TRIES, found or not: a caller cannot try a list. Otherwise nothing of the call,
     * and the assistant ends it.
     */
    async confirmIdentity(ids: {
      callId: string;
      attempt: number;
      providerCallId: string;
      toolCallId: string;
      name: string;
    }): Promise<IdentityAnswer> {
      const stored = await stores.calls.get(ids.callId);
      const attempt = stored?.attempts[ids.attempt - 1];
      const live =
        stored &&
        !stored.erased_at &&
        attempt?.number === ids.attempt &&
        attempt.direction === 'inbound' &&
        attempt.provider_call_id === ids.providerCallId &&
        attempt.ended_at === null;
      if (!live) {
        callBacksRefused.inc({ reason: 'no_attempt' });
        return { confirmed: false };
      }
      const tried = await stores.callReports.takeIdentityTry(ids.providerCallId, ids.toolCallId);
      if (!tried || !namesMatch(ids.name, stored.candidate.name)) {
        log.info({ callId: ids.callId, attempt: ids.attempt, tried }, "call-back: the caller's name is not the candidate's");
        callBacksRefused.inc({ reason: 'identity' });
        return { confirmed: false };
      }
      if (!(await stores.callReports.confirmIdentity(ids.callId, ids.attempt, ids.providerCallId))) {
        callBacksRefused.inc({ reason: 'no_attempt' });
        return { confirmed: false };
      }
      const script = callScript(stored, await scriptSources(stores, stored), ids.attempt, 'inbound');
      return { confirmed: true, script, opening: stored.first_message };
    },

    /** A call answered "nothing pending" has ended: the provider's copy of it goes (workflows/erasure.ts). */
    async forgetNothingPending(provider: string, providerCallId: string): Promise<void> {
      await workflows.deleteProviderCopies([{ provider, providerCallId }]);
    },
  };
}

export type CallBackAnswering = ReturnType<typeof callBackAnswering>;
