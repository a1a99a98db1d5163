import type { AttemptResult } from '../../shared/calls/retry';

/** A customer hang-up sooner than this after the call connected counts as a dropped call, not a conversation. */
export const SHORT_HANGUP_SECONDS = 10;

const COMPLETED = new Set([
  'assistant-ended-call',
  'assistant-ended-call-after-message-spoken',
  'assistant-ended-call-with-hangup-task',
  'assistant-said-end-call-phrase',
  'assistant-forwarded-call',
  'exceeded-max-duration',
  'call.in-progress.twilio-completed-call',
  'call.in-progress.sip-completed-call',
  'vonage-completed',
]);
const MISSED = new Set(['customer-did-not-answer', 'call.forwarding.no-answer']);
const DECLINED = new Set(['customer-busy', 'call.forwarding.operator-busy', 'vonage-rejected']);
const SILENCED = new Set([
  'silence-timed-out',
  'call.in-progress.error-assistant-did-not-receive-customer-audio',
  'customer-did-not-give-microphone-permission',
]);
const DISCONNECTED = new Set([
  'phone-call-provider-closed-websocket',
  'vonage-disconnected',
  'worker-shutdown',
  'call.in-progress.error-sip-outbound-call-failed-to-connect',
  'twilio-failed-to-connect-call',
  'vonage-failed-to-connect-call',
]);
const INVALID_NUMBER = new Set(['twilio-reported-customer-misdialed', 'call.start.error-vapi-number-international']);

/** SIP answers that mean nobody picked up (408 request timeout, 480 temporarily unavailable, 487 terminated). */
const SIP_NO_ANSWER = /sip-(408|480|487)\b/;
/** SIP answers that mean the callee refused (486 busy here, 600 busy everywhere, 603 decline). */
const SIP_DECLINED = /sip-(486|600|603)\b/;
/** SIP answers that mean the number does not exist (404, 410 gone, 484 address incomplete, 604). */
const SIP_NO_SUCH_NUMBER = /sip-(404|410|484|604)\b/;

/**
 * Maps Vapi's endedReason onto how an attempt ended (AttemptResult). `durationSeconds` is how long the call was connected; a customer
 * hang-up within SHORT_HANGUP_SECONDS is a dropped call. Reasons Vapi adds later fall back by their prefix:
 * a fault during the call is a disconnection (retryable), a fault before it started is the provider's.
 */
export function resultOfEndedReason(reason: string | undefined, durationSeconds: number | null): AttemptResult {
  if (!reason) return 'provider_error';
  if (reason === 'customer-ended-call' || reason.startsWith('customer-ended-call-')) {
    return durationSeconds !== null && durationSeconds < SHORT_HANGUP_SECONDS ? 'abruptly_disconnected' : 'completed';
  }
  if (COMPLETED.has(reason)) return 'completed';
  if (MISSED.has(reason) || SIP_NO_ANSWER.test(reason)) return 'missed';
  if (DECLINED.has(reason) || SIP_DECLINED.test(reason)) return 'declined';
  if (reason === 'voicemail') return 'sent_to_voicemail';
  if (SILENCED.has(reason)) return 'silenced';
  if (INVALID_NUMBER.has(reason) || SIP_NO_SUCH_NUMBER.test(reason)) return 'invalid_number';
  if (DISCONNECTED.has(reason) || reason.startsWith('call.in-progress.') || reason.startsWith('pipeline-error-')) {
    return 'abruptly_disconnected';
  }
  return 'provider_error';
}
