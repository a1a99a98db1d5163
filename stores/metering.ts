import type { CallDoc } from '../infra/documents/calls';
import type { InterviewDoc } from '../infra/documents/interviews';
import {
  ATTEMPT_DIRECTIONS,
  CALL_ENDS,
  INTERVIEW_STAGES,
  callAttempts,
  callsEnded,
  callsStarted,
  interviewsByStage,
  oneOf,
  whatsappMessages,
} from '../infra/metrics';
import { FAILURE_REASONS, MESSAGE_KINDS, MESSAGE_STATUSES } from '../shared/calls/schema';
import type { WebhookEventType } from '../shared/webhooks/schema';

/**
 * What the calls' and interviews' changes count in the service's metrics (infra/metrics.ts), from the one
 * door every change passes (stores/resource-store.ts): a status moved, and the events a write recorded first.
 */
type FirstEvents = Array<{ type: WebhookEventType; key: string }>;

export const callMetering = {
  created: (calls: CallDoc[]) => callsStarted.inc(calls.length),
  changed(before: CallDoc, after: CallDoc, events: FirstEvents) {
    if (after.status !== before.status && (CALL_ENDS as readonly string[]).includes(after.status)) {
      callsEnded.inc({ status: after.status });
    }
    for (const { type, key } of events) {
      if (type === 'call.attempt.ended') {
        // The key's occurrence is the attempt's number (stores/calls.ts callEvents).
        const attempt = after.attempts[Number(key.slice(key.lastIndexOf('/') + 1)) - 1];
        callAttempts.inc({
          direction: oneOf(attempt?.direction ?? 'outbound', ATTEMPT_DIRECTIONS),
          outcome: oneOf(attempt?.outcome, ['completed', 'failed'] as const),
          failure_reason: oneOf(attempt?.failure_reason, FAILURE_REASONS),
        });
      } else if (type === 'whatsapp.message.updated') {
        // `whatsapp.message.updated/<kind>/<status>`
        const [, kind, status] = key.split('/');
        whatsappMessages.inc({ kind: oneOf(kind, MESSAGE_KINDS), result: oneOf(status, MESSAGE_STATUSES) });
      }
    }
  },
};

export const interviewMetering = {
  created: () => undefined,
  changed(before: InterviewDoc, after: InterviewDoc) {
    if (after.status !== before.status && (INTERVIEW_STAGES as readonly string[]).includes(after.status)) {
      interviewsByStage.inc({ stage: after.status });
    }
  },
};
