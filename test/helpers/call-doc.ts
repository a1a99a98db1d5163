import type { CallDoc } from '../../infra/documents/calls';
import { callWorkflowId } from '../../shared/workflow-starts';

/** A stored call as call/initiate writes it, not yet scheduled; each test bends the fields it is about. */
export function callDoc(id: string, overrides: Partial<CallDoc> = {}): CallDoc {
  const at = new Date();
  return {
    _id: id,
    workspace_id: 'ws_test',
    project_id: 'prj_test',
    ats_job_id: 'job',
    candidate_id: id,
    candidate: { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+14155550100', custom_fields: {} },
    workflow_id: callWorkflowId(id),
    status: 'scheduled',
    first_message: 'Hello Ada',
    instructions: 'Screen the candidate',
    assistant_settings: null,
    extract_variables: [],
    call_settings: null,
    whatsapp: { pre_call: null, fallback: null },
    schedule_at: null,
    scheduled_for: null,
    next_attempt_at: null,
    attempts: [],
    messages: [],
    transcript: null,
    extracted_variables: null,
    failure_reason: null,
    created_at: at,
    updated_at: at,
    ...overrides,
  };
}
