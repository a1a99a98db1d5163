import type { CallDoc } from '../../infra/records';

/** GET /api/public/v1/calls/:id body: what an ATS needs to follow a call, without internal fields. */
export function callView(call: CallDoc) {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    id: call._id,
    project_id: call.project_id,
    candidate_id: call.candidate_id,
    status: call.status,
    scheduled_for: iso(call.scheduled_for),
    next_attempt_at: iso(call.next_attempt_at),
    attempts: call.attempts.map((a) => ({
      number: a.number,
      started_at: iso(a.started_at),
      ended_at: iso(a.ended_at),
      outcome: a.outcome,
      failure_reason: a.failure_reason,
    })),
    failure_reason: call.failure_reason,
    extracted_variables: call.extracted_variables,
    transcript: call.transcript,
    messages: call.messages.map((m) => ({
      kind: m.kind,
      channel: m.channel,
      template_name: m.template_name,
      variables: m.variables,
      status: m.status,
      sent_at: iso(m.sent_at),
    })),
  };
}
