import type { CallSettings } from '../shared/calls/schema';
import { hoursZonesOf } from '../shared/calls/working-hours';
import { workflowStart, type WorkflowStart } from '../shared/workflow-starts';
import { callWorkflow, type CallWorkflowInput } from './calls';
import { CallStatusKey, candidateSearchAttributes, type CandidateResource } from './search-attributes';

/** How a call's workflow is started: its input and search attributes, from the stored call alone. */

/** The report wait for a dial that does not give its own (`reportWithinMs`). */
export const REPORT_WAIT_FALLBACK_MS = 30 * 60_000;

/** The fields of a stored call (infra/documents/calls.ts) its workflow is started from. */
export interface StoredCall extends CandidateResource {
  schedule_at: Date | null;
  call_settings: CallSettings | null;
  whatsapp: { pre_call: object | null; fallback: object | null };
  timezones?: string[];
  form_fallback?: 'after_first_failure' | 'when_exhausted';
  email_link?: true;
}

/** The workflow's input, derived from the stored call alone, so a restart after a crash starts the same workflow. */
export function callWorkflowInput(call: StoredCall, outcomeTimeoutMs = REPORT_WAIT_FALLBACK_MS): CallWorkflowInput {
  const settings = call.call_settings;
  const hoursZones = hoursZonesOf(settings?.working_hours, call.timezones);
  return {
    callId: call._id,
    scheduleAt: call.schedule_at ? call.schedule_at.getTime() : null,
    workingHours: settings?.working_hours ?? null,
    ...(hoursZones ? { hoursZones } : {}),
    retryPolicy: settings?.retry_policy ?? null,
    sendPreCall: call.whatsapp.pre_call !== null,
    sendFallback: call.whatsapp.fallback !== null,
    outcomeTimeoutMs,
    ...(call.form_fallback ? { formFallback: call.form_fallback } : {}),
    ...(call.email_link ? { emailLink: true as const } : {}),
  };
}

/** The start of a call's workflow under its deterministic id, from the stored call alone. */
export function callStart(call: StoredCall): WorkflowStart {
  return workflowStart(callWorkflow, {
    workflowId: call.workflow_id,
    args: [callWorkflowInput(call)],
    searchAttributes: [...candidateSearchAttributes(call), { key: CallStatusKey, value: 'scheduled' }],
    // Ids only: a history keeps nothing of the person that an erasure would have to reach (docs/erasure.md).
    summary: `Call to candidate ${call.candidate_id} for ${call.ats_job_id}`,
  });
}
