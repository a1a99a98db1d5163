import type { Logger } from '../../infra/logger';
import type { ReportIntake } from '../../operations/call-reports';
import { attemptOf, checkVapiShape, reportOf, type VapiServerMessage } from '../../providers/voice/vapi-reports';
import { SignatureError, ValidationError } from '../../shared/errors';
import { MAX_SIGNATURE_AGE_SECONDS } from './signatures';
import type { CallBackAnswering } from '../../operations/call-backs';
import {
  callBackAnswer,
  identityToolAnswer,
  identityToolCallsOf,
  inboundCallOf,
  isNothingPending,
  nothingPendingAnswer,
  type VapiCallOptions,
} from '../../providers/voice/vapi-call-backs';
import { foreignReports } from '../../infra/metrics';

/** How old a message's own `timestamp` may be, either way: as old as a signed timestamp may be. */
const MAX_MESSAGE_AGE_MS = MAX_SIGNATURE_AGE_SECONDS * 1000;

/** The value with every null field of its objects left out (arrays keep their places). */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
}

export interface VapiEventDeps {
  reports: ReportIntake;
  callBacks: CallBackAnswering;
  callOptions: VapiCallOptions;
  logger: Logger;
}

/**
 * One authenticated Vapi server message (`{message: {type, …}}`). An end-of-call report ends its attempt
 * through the shared reporting path; a status update records the call's live status. Other types, reports of
 * calls that are not ours and repeated reports are acknowledged without effect. An `assistant-request` for an
 * inbound call is answered with the gate of the caller's open call, or one saying nothing is pending
 * (operations/call-backs.ts); the gate's identity tool calls (`tool-calls`) with the call's script or the
 * instruction to end the call: the answer, where the message wants one. A report joins a call only by the
 * assistant's metadata (attemptOf): one naming none is kept nowhere.
 */
export async function handleVapiMessage(deps: VapiEventDeps, body: unknown, now = Date.now()): Promise<unknown> {
  // Vapi sends absent fields as null (`"recordingUrl": null`): read as absent, not refused.
  const message = withoutNulls((body as { message?: unknown } | null)?.message) as VapiServerMessage | undefined;
  if (!message || typeof message !== 'object' || typeof message.type !== 'string') {
    throw new ValidationError('Not a Vapi server message', [{ path: ['message', 'type'], message: 'is required' }]);
  }
  // A message sent more than 5 minutes ago is a replay, whatever authenticated it (a shared secret never ages);
  // so is one that does not say when it was sent, which could be replayed for ever. Vapi stamps every message.
  // Epoch milliseconds, as Vapi sends it; a value in seconds is read as seconds (as a signed timestamp is).
  const sentAt = typeof message.timestamp === 'number' ? (message.timestamp > 1e11 ? message.timestamp : message.timestamp * 1000) : null;
  if (sentAt === null) throw new SignatureError('Vapi message has no timestamp: a replay cannot be told from a delivery');
  if (Math.abs(now - sentAt) > MAX_MESSAGE_AGE_MS) {
    throw new SignatureError('Vapi message is more than 5 minutes old: a replay, not a delivery');
  }
  const bad = checkVapiShape(message, 'message');
  if (bad)
    throw new ValidationError('Not a Vapi server message', [
      { path: ['message', ...bad.path.split('/').filter(Boolean)], message: bad.message },
    ]);
  if (message.type === 'assistant-request') {
    const inbound = inboundCallOf(message as Record<string, unknown>);
    const decision = inbound && (await deps.callBacks.answer(inbound));
    return decision && 'gate' in decision ? callBackAnswer(decision.gate, deps.callOptions) : nothingPendingAnswer(deps.callOptions);
  }
  const ids = attemptOf(message);
  const log = deps.logger.child({ vapi_message: message.type, vapi_call_id: message.call?.id, ...ids });
  if (message.type === 'tool-calls') {
    const calls = identityToolCallsOf(message as Record<string, unknown>);
    const providerCallId = message.call?.id;
    // One name at a time, in the order given: each takes one of the call's tries (operations/call-backs.ts).
    const results = [];
    for (const call of calls) {
      const answer =
        ids && providerCallId
          ? await deps.callBacks.confirmIdentity({ ...ids, providerCallId, toolCallId: call.toolCallId, name: call.name })
          : { confirmed: false as const };
      results.push(
        identityToolAnswer(call, answer.confirmed ? { opening: answer.opening, instructions: answer.script.instructions } : null),
      );
    }
    return { results };
  }
  if (message.type === 'end-of-call-report') {
    if (isNothingPending(message) && message.call?.id) {
      await deps.callBacks.forgetNothingPending('vapi', message.call.id);
      return;
    }
    if (!ids) {
      log.warn('end-of-call report naming no call of ours in its metadata; kept nowhere');
      foreignReports.inc({ provider: 'vapi' });
      return;
    }
    const result = await deps.reports.take(reportOf(message, ids));
    if (result !== 'recorded') log.info({ result }, 'end-of-call report changed nothing');
  } else if (message.type === 'status-update') {
    if (ids && typeof message.status === 'string' && message.status !== 'ended') {
      // "ended" is left to the end-of-call report, which carries the outcome.
      const updated = await deps.reports.providerStatus(ids, message.status);
      if (!updated) log.info({ status: message.status }, 'status update for an unknown or finished attempt');
    }
  }
}
