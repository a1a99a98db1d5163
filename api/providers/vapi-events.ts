import type { Logger } from '../../infra/logger';
import type { ReportIntake } from '../../operations/call-reports';
import { attemptOf, checkVapiShape, reportOf, type VapiServerMessage } from '../../providers/voice/vapi-reports';
import { ValidationError } from '../../shared/errors';
import type { CallBackAnswering } from '../../operations/call-backs';
import { callBackAnswer, inboundCallOf, nothingPendingAnswer, type VapiCallOptions } from '../../providers/voice/vapi-call-backs';

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
 * inbound call is answered with the assistant of the caller's open call, or one saying nothing is pending
 * (operations/call-backs.ts): the answer, where the message wants one.
 */
export async function handleVapiMessage(deps: VapiEventDeps, body: unknown): Promise<unknown> {
  const message = (body as { message?: VapiServerMessage } | null)?.message;
  if (!message || typeof message !== 'object' || typeof message.type !== 'string') {
    throw new ValidationError('Not a Vapi server message', [{ path: ['message', 'type'], message: 'is required' }]);
  }
  const bad = checkVapiShape(message, 'message');
  if (bad)
    throw new ValidationError('Not a Vapi server message', [
      { path: ['message', ...bad.path.split('/').filter(Boolean)], message: bad.message },
    ]);
  if (message.type === 'assistant-request') {
    const inbound = inboundCallOf(message as Record<string, unknown>);
    const script = inbound && (await deps.callBacks.answer(inbound));
    return script ? callBackAnswer(script, deps.callOptions) : nothingPendingAnswer();
  }
  const ids = attemptOf(message);
  const log = deps.logger.child({ vapi_message: message.type, vapi_call_id: message.call?.id, ...ids });
  if (message.type === 'end-of-call-report') {
    if (!ids) {
      log.warn('end-of-call report for a call that is not ours; acknowledged');
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
